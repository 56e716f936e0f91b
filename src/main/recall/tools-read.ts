// read_conversation (personal-recall-plugin.md) and conversation_inspect (suggested-context seed):
// reading another of the user's conversations, token-bounded, saying when they truncated.
import type { ConversationRefInfo, InspectParams, InspectResult, ReadParams, ReadResult } from '../../shared/api.js';
import type { Conversation, Entry } from '../../shared/types.js';
import type { Reader } from '../store/read.js';
import type { Search } from '../store/search.js';
import { RecallError } from './errors.js';
import { cutChars, isVisible, neutralize, QUOTED_NOTE, renderEntry, visibleNeighbours } from './render.js';
import { findInConversation } from './find-entries.js';
import { parseQuery } from './terms.js';

/** Per-turn and whole-output caps (characters; ~4 per token). Tight under summary, generous under full. */
export const READ_LIMITS = {
  summary: { perTurn: 600, whole: 8_000 },
  full: { perTurn: 8_000, whole: 48_000 },
} as const;
export const INSPECT_LIMITS = { perBlock: 1_500, whole: 24_000, matches: 10 } as const;

export function refInfo(c: Conversation): ConversationRefInfo {
  return { id: c.id, source: c.source, sessionId: c.sessionId, path: c.path, title: c.title, workspace: c.workspace };
}

function wrap(c: Conversation, body: string): string {
  const attr = (v: string) => cutChars(v, 200).replace(/["<>\n]/g, ' ');
  const head = `<conversation id="${c.id}" title="${attr(c.title)}"${c.workspace ? ` workspace="${attr(c.workspace)}"` : ''}>`;
  return `${head}\n${QUOTED_NOTE}\n${neutralize(body, 'conversation')}\n</conversation>`;
}

/** "3" → [3, 3]; "3-5" → [3, 5] (1-based, inclusive). */
export function parseTurns(turns: string | undefined): [number, number] | null {
  if (!turns) return null;
  const m = /^\s*(\d+)\s*(?:-\s*(\d+)\s*)?$/.exec(turns);
  if (!m) throw new RecallError('invalid', 'turns is "N" or "N-M"');
  const a = Number(m[1]);
  const b = m[2] === undefined ? a : Number(m[2]);
  if (a < 1 || b < a) throw new RecallError('invalid', `turns "${turns}" is not a range of turns from 1`);
  return [a, b];
}

export function createReadTools(reader: Reader, search: Search) {
  const conversation = (ref: string | number): Conversation => {
    const c = reader.conversation(ref);
    if (!c) throw new RecallError('not-found', `No conversation ${JSON.stringify(ref)} in the index.`);
    return c;
  };

  function read(p: ReadParams): ReadResult {
    const c = conversation(p.conversation_id);
    const limits = READ_LIMITS[p.detail ?? 'summary'];
    const total = search.turnCount(c.id);
    const range = parseTurns(p.turns) ?? [1, total];
    const last = Math.min(range[1], total);
    const turns: ReadResult['turns'] = [];
    let used = 0;
    let truncated = false;
    let cut = false;
    for (let from = range[0]; from <= last && !truncated; from += 200) {
      for (const [i, t] of search.turns(c.id, from - 1, Math.min(200, last - from + 1)).entries()) {
        const text = cutChars(t.text, limits.perTurn);
        if (text.length < t.text.length) cut = true;
        if (used + text.length > limits.whole && turns.length > 0) {
          truncated = true;
          break;
        }
        used += text.length;
        turns.push({ turn: from + i, role: t.role, text, entry: t.seq });
      }
    }
    const lines = [`${c.title} — ${turns.length} of ${total} turn(s)${p.turns ? ` (turns ${p.turns})` : ''}, detail ${p.detail ?? 'summary'}.`];
    for (const t of turns) lines.push(`[turn ${t.turn}, ${t.role}, entry #${t.entry}] ${t.text}`);
    if (truncated) {
      const next = (turns.at(-1)?.turn ?? range[0]) + 1;
      lines.push(`[truncated: output capped at ${limits.whole} characters; read on with turns "${next}-${last}"]`);
    } else if (cut) lines.push(`[long turns were cut at ${limits.perTurn} characters${p.detail === 'full' ? '' : '; detail "full" shows more'}]`);
    if (range[0] > total) lines.push(`[the conversation has ${total} turn(s)]`);
    return { conversation: refInfo(c), turns, totalTurns: total, truncated: truncated || cut, text: wrap(c, lines.join('\n')) };
  }

  function inspect(p: InspectParams): InspectResult {
    const c = conversation(p.conversation_id);
    const limit = p.limit ?? INSPECT_LIMITS.matches;
    const around = p.around ?? 1;
    const notes: string[] = [];
    let matches: Entry[] = [];
    if (p.query?.trim()) {
      let clauses = parseQuery(p.query);
      if (!clauses.length) clauses = parseQuery(p.query, { stopWords: false });
      // In conversation order; the role filter applies to the matches, windows show every role.
      const find = (mode: 'all' | 'any') =>
        findInConversation(search, c.id, clauses, { mode, limit: 500 })
          .rows.sort((a, b) => a.seq - b.seq)
          .flatMap((r) => reader.entries(c.id, r.seq, r.seq, 1))
          .filter((e) => isVisible(e) && (!p.role || e.role === p.role));
      matches = find('all');
      if (!matches.length && clauses.length > 1) {
        matches = find('any');
        if (matches.length) notes.push('No entry has every term; showing entries with some of them.');
      }
      if (matches.length > limit) notes.push(`${matches.length} matching entries; showing the first ${limit}.`);
      matches = matches.slice(0, limit);
    } else {
      matches = search
        .turns(c.id, 0, 500)
        .filter((t) => !p.role || t.role === p.role)
        .slice(0, limit)
        .flatMap((t) => reader.entries(c.id, t.seq, t.seq, 1));
    }
    const matchSeqs = new Set(matches.map((e) => e.seq));
    const bySeq = new Map<number, Entry>();
    for (const m of matches) {
      bySeq.set(m.seq, m);
      if (p.query?.trim()) for (const nb of visibleNeighbours(reader, c.id, m.seq, around)) bySeq.set(nb.seq, nb);
    }
    const blocks: InspectResult['blocks'] = [];
    let used = 0;
    let truncated = false;
    for (const e of [...bySeq.values()].sort((a, b) => a.seq - b.seq)) {
      const r = renderEntry(e);
      const raw = r.tool ? `tool call ${r.tool.name}: ${r.tool.status}` : r.text;
      const text = cutChars(raw, INSPECT_LIMITS.perBlock);
      if (text.length < raw.length) truncated = true;
      if (used + text.length > INSPECT_LIMITS.whole && blocks.length) {
        truncated = true;
        break;
      }
      used += text.length;
      blocks.push({ entry: e.seq, role: e.role, text, match: matchSeqs.has(e.seq) });
    }
    const head = p.query?.trim()
      ? `${matches.length} matching entr${matches.length === 1 ? 'y' : 'ies'} for ${JSON.stringify(p.query)}${p.role ? ` (${p.role})` : ''}, ${around} around each.`
      : `First ${blocks.length} ${p.role ?? 'user and assistant'} message(s).`;
    const lines = [head, ...notes, ...blocks.map((b) => `${b.match ? '>' : ' '} [#${b.entry} ${b.role}] ${b.text}`)];
    if (truncated) lines.push('[truncated: narrow the query, lower around, or read turns with read_conversation]');
    return { conversation: refInfo(c), blocks, truncated, text: wrap(c, lines.join('\n')) };
  }

  return { read, inspect };
}
