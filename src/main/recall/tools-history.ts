// history_search, history_read, history_handoff for the calling conversation (p2-history-tools-spec.md).
// The first two read; history_handoff writes, so it is made apart, from a writable handle.
// The conversation is always the caller's own; bounds (conversation, seq < before) are in SQL.
import type {
  HistoryHit,
  HistoryHandoffParams,
  HistoryHandoffResult,
  HistoryReadParams,
  HistoryReadResult,
  HistorySearchParams,
  HistorySearchResult,
} from '../../shared/api.js';
import type { Conversation, Entry } from '../../shared/types.js';
import type { WritableDb } from '../store/db.js';
import { appendHandoff } from '../store/handoff.js';
import type { Reader } from '../store/read.js';
import type { Search } from '../store/search.js';
import { findInConversation, SCAN_MAX } from './find-entries.js';
import { createTextMatcher } from './match-text.js';
import { fitHistory } from './history-budget.js';
import { cutChars, isVisible, renderEntry, visibleNeighbours, wrapHistory } from './render.js';
import { parseQuery } from './terms.js';
import { RecallError } from './errors.js';

export const SNIPPET_MAX = 300;
const RANGE_DEFAULT = 20;

function ownConversation(reader: Reader, ref: string): Conversation {
  const c = reader.conversation(ref);
  if (!c) throw new RecallError('not-found', `No conversation ${JSON.stringify(ref)} in the index.`);
  return c;
}

export function createHistoryTools(reader: Reader, search: Search) {
  const own = (ref: string): Conversation => ownConversation(reader, ref);

  function historySearch(p: HistorySearchParams): HistorySearchResult {
    const conv = own(p.conversation);
    const limit = p.limit ?? 10;
    const boundary = reader.boundary(conv.id);
    const maxSeq = reader.maxSeq(conv.id) ?? -1;
    // Everything from the boundary on is in the agent's context; with no boundary nothing has left
    // it, and the whole conversation is searched (useful from the CLI, harmless for an agent).
    const before = p.before ?? boundary ?? maxSeq + 1;
    let clauses = parseQuery(p.query);
    if (!clauses.length) clauses = parseQuery(p.query, { stopWords: false });
    const notes: string[] = [];
    if (p.before !== undefined && p.before > maxSeq + 1) {
      notes.push(`Entries after #${maxSeq} are not indexed yet (the index follows the session file within seconds).`);
    }
    if (p.before === undefined && boundary === null) notes.push('No compaction or handoff yet: searched the whole conversation.');
    // Every clause required, ranked by FTS rank (bm25) over the terms that are not common; common
    // terms only filter, and a query of common words only lists the latest entries first.
    const found = clauses.length ? findInConversation(search, conv.id, clauses, { mode: 'all', before, limit: limit + 1 }) : { rows: [], capped: false };
    if (found.capped) notes.push(`Only the latest ${SCAN_MAX} entries were searched for these common words; narrow with a rarer word or before.`);
    const rows = found.rows;
    const matcher = createTextMatcher(clauses, 'any', search.stem);
    const hits = rows.slice(0, limit).map((r): HistoryHit => {
      const snippet = matcher.snippet(r.text, { tokens: 40 }).replace(/\s+/g, ' ').trim();
      const hit: HistoryHit = { entry: r.seq, role: r.role, snippet: cutChars(snippet, SNIPPET_MAX) };
      if (r.author) hit.author = r.author;
      return hit;
    });
    const more = rows.length > limit;
    const note = notes.length ? notes.join(' ') : undefined;
    const body = [
      `history_search ${JSON.stringify(p.query)} before #${before}: ${hits.length} hit(s)${more ? ', more available' : ''}.`,
      ...(note ? [note] : []),
      ...hits.map((h) => `[#${h.entry} ${h.author ? `${h.role} (${h.author})` : h.role}] ${h.snippet}`),
    ].join('\n');
    return { hits, more, boundary, ...(note ? { note } : {}), text: wrapHistory(conv.id, body) };
  }

  /** Visible entries (not tool results, not our own history_* calls, on the active path). */
  const visible = (entries: Entry[]) => entries.filter(isVisible);

  function historyRead(p: HistoryReadParams): HistoryReadResult {
    const conv = own(p.conversation);
    let entries: Entry[];
    let next: string | undefined;
    let header: string;
    if (p.mode === 'items') {
      const around = p.around ?? 0;
      const bySeq = new Map<number, Entry>();
      for (const seq of new Set(p.entries)) {
        const [e] = reader.entries(conv.id, seq, seq, 1);
        if (e && isVisible(e)) bySeq.set(e.seq, e);
        for (const nb of visibleNeighbours(reader, conv.id, seq, around)) bySeq.set(nb.seq, nb);
      }
      entries = [...bySeq.values()].sort((a, b) => a.seq - b.seq);
      header = `history_read items ${p.entries.join(', ')}${around ? ` with ${around} around` : ''}`;
    } else if (p.mode === 'range') {
      const limit = p.limit ?? RANGE_DEFAULT;
      const start = p.cursor !== undefined ? parseCursor(p.cursor, conv.id) : p.from;
      const to = p.to ?? Number.MAX_SAFE_INTEGER;
      entries = [];
      let from = start;
      while (entries.length <= limit && from <= to) {
        const page = reader.entries(conv.id, from, to, 200);
        if (!page.length) break;
        entries.push(...visible(page));
        from = page.at(-1)!.seq + 1;
      }
      if (entries.length > limit) {
        next = cursorOf(conv.id, entries[limit]!.seq);
        entries = entries.slice(0, limit);
      }
      header = `history_read range from #${start}${p.to !== undefined ? ` to #${p.to}` : ''}`;
    } else {
      const count = p.count ?? 10;
      // Cut at the boundary itself: from a compaction's first kept entry on (or from the reset on),
      // entries are still in context.
      const boundary = reader.boundary(conv.id) ?? (reader.maxSeq(conv.id) ?? -1) + 1;
      entries = [];
      let before = boundary;
      while (entries.length < count && before > 0) {
        const page = reader.entriesBefore(conv.id, before, 200);
        if (!page.length) break;
        entries = [...visible(page), ...entries];
        before = page[0]!.seq;
      }
      entries = entries.slice(-count);
      header = `history_read tail: ${entries.length} entries before #${boundary}`;
    }
    // Tail keeps the entries nearest the boundary (what just left the context) and gives up the oldest;
    // items and range keep the first ones, and range pages on from the first one cut.
    const keep = p.mode === 'tail' ? 'newest' : 'oldest';
    const fit = fitHistory(conv.id, entries.map(renderEntry), keep, (cut, shortened) => {
      if (cut) {
        const span = cut.first === cut.last ? `#${cut.first}` : `#${cut.first}–#${cut.last}`;
        const which = keep === 'newest' ? `the oldest ${cut.count}` : `the last ${cut.count}`;
        const cursor = cursorOf(conv.id, cut.first);
        const foot =
          p.mode === 'items'
            ? `Cut: ${span}; read them with history_read items.`
            : keep === 'newest'
              ? `Cut: ${span}; read them with history_read range, cursor "${cursor}", to ${cut.last}.`
              : `More: call history_read range with cursor "${cursor}".`;
        return { head: `${header} (${which} cut to stay within 50 KB: ${span})`, foot };
      }
      return { head: header + (shortened ? ' (an entry over 50 KB cut short)' : ''), foot: next ? `More: call history_read range with cursor "${next}".` : null };
    });
    if (fit.cut && p.mode !== 'items') next = cursorOf(conv.id, fit.cut.first);
    return { entries: fit.entries, ...(next ? { next } : {}), truncated: fit.cut !== null || fit.shortened, text: fit.text };
  }

  return { historySearch, historyRead };
}

/** history_handoff: writes the handoff and its boundary into the caller's conversation. */
export function createHandoffTool(db: WritableDb, reader: Reader) {
  return function historyHandoff(p: HistoryHandoffParams): HistoryHandoffResult {
    const conv = ownConversation(reader, p.conversation);
    const { seq } = appendHandoff(db, conv.id, p.text);
    const after = seq > 0 ? seq - 1 : null;
    return { handoff: p.text, entry: seq, after, text: handoffText(conv, after) };
  };
}

/**
 * Says exactly what a handoff through Throughline does: it writes the text and a boundary, and nothing
 * else. An agent reached over MCP or the socket (Claude Code, Codex) cannot be restarted from here, so
 * its context goes on as it was. pi's extension does start afresh, without calling this.
 */
function handoffText(conv: Conversation, after: number | null): string {
  const where = after === null ? 'before its first entry' : `after entry #${after}, the last one indexed so far`;
  return [
    `Handoff written to conversation ${conv.id} (${where}).`,
    'Your context was not reset: Throughline cannot restart this agent, and this conversation goes on as before.',
    'To continue afresh, ask the user to start a new session (Claude Code: /clear, Codex: /new) and to paste the handoff text below as its first message.',
    `Entries before the handoff stay readable with history_search and history_read on conversation ${conv.id} (mode "tail": the entries right before it).`,
  ].join('\n');
}

/** Cursors are opaque to the caller but bound to one conversation. */
export function cursorOf(convId: number, seq: number): string {
  return `c${convId}.${seq}`;
}

export function parseCursor(cursor: string, convId: number): number {
  const m = /^c(\d+)\.(\d+)$/.exec(cursor);
  if (!m || Number(m[1]) !== convId) throw new RecallError('invalid', `Cursor ${JSON.stringify(cursor)} is not from this conversation.`);
  return Number(m[2]);
}
