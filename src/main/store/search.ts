// Search queries for recall: SQL only, no scoring (src/main/recall scores).
//
// Rules every query here follows (after Signal Desktop's search):
// - MATCH strings come from recall/terms.ts, never from user text;
// - bounds (conversation, seq < before, workspace, since, excluded ids, sub-agents) are in the WHERE
//   clause, applied before ranking and LIMIT, so an out-of-bounds conversation can never take a slot
//   even when it would rank higher;
// - narrow with FTS first, then sort and limit, and compute snippets only for the rows of the page.
import Database from 'better-sqlite3';
import type { Db } from './db.js';
import { TOKENIZE } from './schema.js';

export interface Bounds {
  /** Only conversations of this workspace (exact path). */
  workspace?: string | null;
  /** Never these conversation ids (the caller's own, already listed ones). */
  exclude?: readonly number[];
  includeSubagents?: boolean;
  /** Only conversations active at or after this time (ms). */
  since?: number | null;
}

interface BoundParams {
  ws: string | null;
  ex: string;
  sub: number;
  since: number | null;
}

const BOUNDS_SQL = `c.is_subagent <= @sub AND (@ws IS NULL OR c.workspace = @ws)
  AND (@since IS NULL OR coalesce(c.updated_at, c.created_at, 0) >= @since)
  AND c.id NOT IN (SELECT value FROM json_each(@ex))`;

function boundParams(b: Bounds = {}): BoundParams {
  return { ws: b.workspace ?? null, ex: JSON.stringify(b.exclude ?? []), sub: b.includeSubagents ? 1 : 0, since: b.since ?? null };
}

export interface ConversationMetaRow {
  id: number;
  source: string;
  session_id: string;
  path: string;
  workspace: string | null;
  title: string;
  summary: string | null;
  created_at: number | null;
  updated_at: number | null;
  is_subagent: number;
}

export interface ProbeRow {
  id: number;
  /** bm25 of the conversation's best entry (lower is better, FTS5 convention). */
  rank: number;
  /** How many of its entries match. */
  hits: number;
}

export interface EntryHitRow {
  entryId: number;
  conversationId: number;
  seq: number;
  /** bm25 (lower is better). */
  rank: number;
}

export interface SnippetRow {
  seq: number;
  snippet: string;
}

export interface TurnRow {
  seq: number;
  role: 'user' | 'assistant';
  text: string;
}

export interface HistoryHitRow {
  seq: number;
  role: 'user' | 'assistant';
  author: string | null;
  snippet: string;
}

export type Search = ReturnType<typeof createSearch>;

export function createSearch(db: Db) {
  const s = {
    total: db.prepare<[], { n: number }>('SELECT count(*) AS n FROM conversations'),
    vocab: db.prepare<[string], { doc: number }>('SELECT doc FROM conversation_terms_vocab WHERE term = ?'),
    count: db.prepare<[string], { n: number }>('SELECT count(*) AS n FROM conversation_terms WHERE conversation_terms MATCH ?'),
    presence: db.prepare<BoundParams & { match: string; limit: number }, { id: number }>(
      `SELECT t.rowid AS id FROM conversation_terms t JOIN conversations c ON c.id = t.rowid
       WHERE conversation_terms MATCH @match AND ${BOUNDS_SQL} LIMIT @limit`,
    ),
    fields: db.prepare<BoundParams & { match: string; limit: number }, { id: number }>(
      `SELECT f.rowid AS id FROM conversations_fts f JOIN conversations c ON c.id = f.rowid
       WHERE conversations_fts MATCH @match AND ${BOUNDS_SQL} LIMIT @limit`,
    ),
    probe: db.prepare<BoundParams & { match: string; limit: number }, ProbeRow>(
      `SELECT e.conversation_id AS id, min(bm25(entries_fts)) AS rank, count(*) AS hits
       FROM entries_fts JOIN entries e ON e.id = entries_fts.rowid JOIN conversations c ON c.id = e.conversation_id
       WHERE entries_fts MATCH @match AND e.off_path = 0 AND ${BOUNDS_SQL}
       GROUP BY e.conversation_id ORDER BY rank, e.conversation_id DESC LIMIT @limit`,
    ),
    entryHits: db.prepare<BoundParams & { match: string; limit: number }, EntryHitRow>(
      `SELECT e.id AS entryId, e.conversation_id AS conversationId, e.seq AS seq, bm25(entries_fts) AS rank
       FROM entries_fts JOIN entries e ON e.id = entries_fts.rowid JOIN conversations c ON c.id = e.conversation_id
       WHERE entries_fts MATCH @match AND e.off_path = 0 AND ${BOUNDS_SQL} LIMIT @limit`,
    ),
    meta: db.prepare<[string], ConversationMetaRow>(
      `SELECT c.id, c.source, c.session_id, c.path, c.workspace, c.title, c.summary, c.created_at, c.updated_at, c.is_subagent
       FROM conversations c WHERE c.id IN (SELECT value FROM json_each(?))`,
    ),
    idRange: db.prepare<[number], { lo: number | null; hi: number | null }>(
      'SELECT min(id) AS lo, max(id) AS hi FROM entries WHERE conversation_id = ?',
    ),
    // The page first (rowid and rank only), then snippets for just that page.
    bestEntry: db.prepare<{ match: string; conv: number; lo: number; hi: number }, SnippetRow>(
      `WITH top AS (
         SELECT entries_fts.rowid AS rowid, rank FROM entries_fts JOIN entries e ON e.id = entries_fts.rowid
         WHERE entries_fts MATCH @match AND entries_fts.rowid BETWEEN @lo AND @hi
           AND e.conversation_id = @conv AND e.off_path = 0
         ORDER BY rank LIMIT 1)
       SELECT e.seq AS seq, snippet(entries_fts, 0, '**', '**', '…', 20) AS snippet
       FROM top JOIN entries_fts ON entries_fts.rowid = top.rowid JOIN entries e ON e.id = top.rowid
       WHERE entries_fts MATCH @match`,
    ),
    history: db.prepare<{ match: string; conv: number; lo: number; hi: number; before: number; limit: number }, HistoryHitRow>(
      `WITH top AS (
         SELECT entries_fts.rowid AS rowid, rank FROM entries_fts JOIN entries e ON e.id = entries_fts.rowid
         WHERE entries_fts MATCH @match AND entries_fts.rowid BETWEEN @lo AND @hi
           AND e.conversation_id = @conv AND e.seq < @before AND e.off_path = 0 AND e.role IN ('user', 'assistant')
         ORDER BY rank, e.seq LIMIT @limit)
       SELECT e.seq AS seq, e.role AS role, e.author AS author, snippet(entries_fts, 0, '', '', '…', 40) AS snippet
       FROM top JOIN entries_fts ON entries_fts.rowid = top.rowid JOIN entries e ON e.id = top.rowid
       WHERE entries_fts MATCH @match ORDER BY top.rank, e.seq`,
    ),
    turns: db.prepare<[number, number, number], TurnRow>(
      `SELECT seq, role, text FROM entries WHERE conversation_id = ? AND kind = 'message' AND role IN ('user', 'assistant')
       AND off_path = 0 AND text != '' ORDER BY seq LIMIT ? OFFSET ?`,
    ),
    turnCount: db.prepare<[number], { n: number }>(
      `SELECT count(*) AS n FROM entries WHERE conversation_id = ? AND kind = 'message' AND role IN ('user', 'assistant')
       AND off_path = 0 AND text != ''`,
    ),
    inConv: db.prepare<{ match: string; conv: number; lo: number; hi: number; limit: number }, { seq: number }>(
      `SELECT e.seq AS seq FROM entries_fts JOIN entries e ON e.id = entries_fts.rowid
       WHERE entries_fts MATCH @match AND entries_fts.rowid BETWEEN @lo AND @hi AND e.conversation_id = @conv AND e.off_path = 0
       ORDER BY e.seq LIMIT @limit`,
    ),
  };

  const range = (conv: number): { lo: number; hi: number } | null => {
    const r = s.idRange.get(conv);
    return r && r.lo !== null && r.hi !== null ? { lo: r.lo, hi: r.hi } : null;
  };

  return {
    /** Conversations in the index: the N of document frequencies. */
    totalConversations: (): number => s.total.get()!.n,
    /** Exact number of conversations containing a stemmed term (fts5vocab over conversation_terms). */
    termDf: (stem: string): number => s.vocab.get(stem)?.doc ?? 0,
    /** Conversations matching a detail=none MATCH (phrases flattened, prefixes): df of a non-plain clause. */
    matchDf: (match: string): number => s.count.get(match)!.n,
    /** Conversations whose whole text (title, summary, transcript) matches; unranked. */
    presence: (match: string, bounds: Bounds, limit: number): number[] =>
      s.presence.all({ ...boundParams(bounds), match, limit }).map((r) => r.id),
    /** Conversations whose title/summary/workspace (per the MATCH's column filter) match; unranked. */
    fieldMatches: (match: string, bounds: Bounds, limit: number): number[] =>
      s.fields.all({ ...boundParams(bounds), match, limit }).map((r) => r.id),
    /** One ranked probe: conversations by their best matching entry's bm25. */
    probe: (match: string, bounds: Bounds, limit: number): ProbeRow[] => s.probe.all({ ...boundParams(bounds), match, limit }),
    /** Matching entries (for co-occurrence within one entry). */
    entryHits: (match: string, bounds: Bounds, limit: number): EntryHitRow[] =>
      s.entryHits.all({ ...boundParams(bounds), match, limit }),
    conversations: (ids: readonly number[]): Map<number, ConversationMetaRow> =>
      new Map(ids.length ? s.meta.all(JSON.stringify(ids)).map((r) => [r.id, r]) : []),
    /** The best matching entry of one conversation, with a highlighted snippet. */
    bestEntry: (conv: number, match: string): SnippetRow | null => {
      const r = range(conv);
      return r ? (s.bestEntry.get({ match, conv, ...r }) ?? null) : null;
    },
    /** history_search: one conversation, seq < before, user/assistant text, by FTS rank. */
    historyHits: (conv: number, match: string, before: number, limit: number): HistoryHitRow[] => {
      const r = range(conv);
      return r ? s.history.all({ match, conv, before, limit, ...r }) : [];
    },
    /** Turns (user and assistant messages on the active path) from the 0-based `offset`. */
    turns: (conv: number, offset: number, limit: number): TurnRow[] => s.turns.all(conv, limit, offset),
    turnCount: (conv: number): number => s.turnCount.get(conv)!.n,
    /** Entries of one conversation matching, in order. */
    matchingSeqs: (conv: number, match: string, limit: number): number[] => {
      const r = range(conv);
      return r ? s.inConv.all({ match, conv, limit, ...r }).map((x) => x.seq) : [];
    },
  };
}

// ---- stemming through SQLite's own tokenizer ----

let stemDb: Database.Database | null = null;
const stemCache = new Map<string, string[]>();
const STEM_CACHE_MAX = 20_000;

/**
 * The stems FTS5 stores for each token (porter over unicode61, exactly the index's tokenizer), so
 * df lookups in conversation_terms_vocab use the very terms the index holds. A private in-memory
 * database does the work, so it also works on a read-only index. A token may yield several stems
 * when SQLite splits it differently; most yield one.
 */
export function stemTokens(tokens: readonly string[]): string[][] {
  const missing = [...new Set(tokens.filter((t) => !stemCache.has(t)))];
  if (missing.length) {
    if (!stemDb) {
      stemDb = new Database(':memory:');
      stemDb.exec(`CREATE VIRTUAL TABLE t USING fts5(x, tokenize='${TOKENIZE}');
        CREATE VIRTUAL TABLE tv USING fts5vocab(t, instance);`);
    }
    const sdb = stemDb;
    const insert = sdb.prepare('INSERT INTO t (rowid, x) VALUES (?, ?)');
    const read = sdb.prepare<[], { doc: number; term: string }>('SELECT doc, term FROM tv ORDER BY doc, offset');
    const found = sdb.transaction(() => {
      missing.forEach((t, i) => insert.run(i + 1, t));
      const rows = read.all();
      sdb.exec('DELETE FROM t');
      return rows;
    })();
    const byDoc = new Map<number, string[]>();
    for (const r of found) (byDoc.get(r.doc) ?? byDoc.set(r.doc, []).get(r.doc)!).push(r.term);
    if (stemCache.size + missing.length > STEM_CACHE_MAX) stemCache.clear();
    missing.forEach((t, i) => stemCache.set(t, byDoc.get(i + 1) ?? []));
  }
  return tokens.map((t) => stemCache.get(t) ?? []);
}
