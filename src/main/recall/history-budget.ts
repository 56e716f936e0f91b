// The output budget of history_read (p2-history-tools-spec.md: at most 50 KB per call; beyond it
// entries are cut and `truncated` is set). The budget is measured on the text the agent gets: the
// wrapper, the header, the closing lines and the escaping of `<history` included, so a transcript full
// of `<history` cannot push the answer over it.
import type { HistoryEntry } from '../../shared/api.js';
import { cutBytes, entryLine, neutralize, utf8Bytes, wrapHistory } from './render.js';

/** At most this much text per history_read call (about 12k tokens). */
export const HISTORY_BUDGET_BYTES = 50 * 1024;

/** The entries left out to stay within the budget: a contiguous run at the far end. */
export interface Cut {
  first: number;
  last: number;
  count: number;
}

/** The header and the closing line, given what was cut. */
export type Frame = (cut: Cut | null, shortened: boolean) => { head: string; foot: string | null };

export interface Fitted {
  entries: HistoryEntry[];
  cut: Cut | null;
  /** One entry alone was over the budget and was shortened. */
  shortened: boolean;
  text: string;
}

const lineBytes = (h: HistoryEntry) => utf8Bytes(neutralize(entryLine(h), 'history')) + 1;

/**
 * Keeps entries in `keep` order until the budget is spent: 'oldest' keeps the first ones (items,
 * range: the rest follows with a cursor), 'newest' keeps the last ones (tail: the entries nearest the
 * boundary matter most, the oldest are given up). The result is in entry order.
 */
export function fitHistory(
  convId: number,
  entries: readonly HistoryEntry[],
  keep: 'oldest' | 'newest',
  frame: Frame,
  budget: number = HISTORY_BUDGET_BYTES,
): Fitted {
  const ordered = keep === 'oldest' ? [...entries] : [...entries].reverse();
  const render = (kept: HistoryEntry[], cut: Cut | null, shortened: boolean): string => {
    const inOrder = keep === 'oldest' ? kept : [...kept].reverse();
    const { head, foot } = frame(cut, shortened);
    return wrapHistory(convId, [head, ...inOrder.map(entryLine), ...(foot ? [foot] : [])].join('\n'));
  };
  const cutOf = (dropped: readonly HistoryEntry[]): Cut | null => {
    if (!dropped.length) return null;
    const seqs = dropped.map((d) => d.entry);
    return { first: Math.min(...seqs), last: Math.max(...seqs), count: dropped.length };
  };
  // Room for the frame at its largest (every entry cut, numbers as long as the real ones).
  const reserve = utf8Bytes(render([], cutOf(entries), true)) + 16;
  const room = budget - reserve;
  const kept: HistoryEntry[] = [];
  let used = 0;
  let shortened = false;
  for (const h of ordered) {
    const cost = lineBytes(h);
    if (used + cost <= room) {
      kept.push(h);
      used += cost;
      continue;
    }
    if (kept.length === 0) {
      // A single entry bigger than the budget is shortened rather than dropped.
      kept.push(shorten(h, room));
      shortened = true;
    }
    break;
  }
  let text = render(kept, cutOf(ordered.slice(kept.length)), shortened);
  // The reserve makes this a no-op; it stays as the guarantee that the answer is never over budget.
  while (utf8Bytes(text) > budget && kept.length > 1) {
    kept.pop();
    text = render(kept, cutOf(ordered.slice(kept.length)), shortened);
  }
  const inOrder = keep === 'oldest' ? kept : kept.reverse();
  return { entries: inOrder, cut: cutOf(ordered.slice(inOrder.length)), shortened, text };
}

/** The entry with its text cut so that its escaped line takes at most `room` bytes. */
function shorten(h: HistoryEntry, room: number): HistoryEntry {
  let max = Math.max(0, room - (lineBytes({ ...h, text: '' }) + 3));
  let out = { ...h, text: cutBytes(h.text, max) };
  // Escaping can lengthen the text (‹ is three bytes): cut again by what it added.
  while (lineBytes(out) > room && max > 0) {
    max = Math.max(0, max - (lineBytes(out) - room));
    out = { ...h, text: cutBytes(h.text, max) };
  }
  return out;
}
