// Search queries for recall: SQL only, no scoring (src/main/recall scores).
//
// Rules every query here follows (after Signal Desktop's search):
// - MATCH strings come from recall/terms.ts, never from user text;
// - bounds (conversation, seq < before, workspace, since, excluded ids, sub-agents) are in the WHERE
//   clause, applied before ranking and LIMIT, so an out-of-bounds conversation can never take a slot
//   even when it would rank higher;
// - narrow with FTS first, then sort and limit; snippets are cut in memory for the rows of the page
//   (recall/match-text.ts), never with snippet() on `rowid = ?`, which is slow for common words.
import type Database from 'better-sqlite3';
import type { ReadableDb } from './db.js';
import type { ConversationFacts, Search } from './interface.js';
import type { ConversationRow } from './read.js';
import { TOKENIZE } from './schema.js';
import { currentRead } from './snapshot.js';
import { normalizeFolder } from './workspace-roots.js';

export interface Bounds {
  /** Only conversations of this workspace: that folder or below it (recall/workspace.ts gives the root). */
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

// The workspace and everything under it: '0' is the character after '/', so the range holds exactly the
// paths that start with `@ws/` (and it can use conversations_workspace).
const BOUNDS_SQL = `c.is_subagent <= @sub AND (@ws IS NULL OR c.workspace = @ws OR (c.workspace >= @ws || '/' AND c.workspace < @ws || '0'))
  AND (@since IS NULL OR coalesce(c.updated_at, c.created_at, 0) >= @since)
  AND c.id NOT IN (SELECT value FROM json_each(@ex))`;

const BOUND_ORDER = [...BOUNDS_SQL.matchAll(/@(\w+)/g)].map((m) => m[1] as keyof BoundParams);

function boundParams(b: Bounds = {}): BoundParams {
  return { ws: b.workspace ? normalizeFolder(b.workspace) : null, ex: JSON.stringify(b.exclude ?? []), sub: b.includeSubagents ? 1 : 0, since: b.since ?? null };
}

/** What scoring needs of a conversation row (read.ts declares the row). */
export type ConversationMetaRow = Pick<
  ConversationRow,
  'id' | 'source' | 'session_id' | 'path' | 'workspace' | 'title' | 'summary' | 'derived_summary' | 'created_at' | 'updated_at' | 'is_subagent' | 'entry_count'
>;

/** What the priors read of a conversation: where and when it happened. */
export type ConversationPlaceRow = Pick<ConversationRow, 'id' | 'workspace' | 'created_at' | 'updated_at'>;

/** One term's MATCH strings for `fieldMasks`: which source proves which field. */
export interface FieldTerm {
  /** conversations_fts MATCH restricted to the title column. */
  title: string;
  /** conversations_fts MATCH restricted to the summary column. */
  summary: string;
  /** conversation_terms MATCH (detail=none: plain terms and prefixes). */
  terms?: string;
  /** entries_fts MATCH (phrases need positions; the transcript alone, without title and summary)… */
  entries?: string;
  /** …plus, when given, a conversations_fts MATCH whose hits also count as the whole text. */
  fields?: string;
}

export interface FieldMaskRow {
  id: number;
  workspace: string | null;
  updated_at: number | null;
  /** Bit i set: term i matched in that field. */
  title: number;
  summary: number;
  transcript: number;
}

export interface ProbeRow {
  id: number;
  /** bm25 of the conversation's best entry (lower is better, FTS5 convention). */
  rank: number;
  /** How many of its entries match. */
  hits: number;
}

/** One entry matching a single term: [entry id, conversation id, that term's bm25 for the entry (lower is better)].
 *  A tuple: a query reads thousands, and an object per row cost a fifth of the query. */
export type TermEntryRow = [entryId: number, conversationId: number, rank: number];

export interface CorpusStats {
  /** Conversations in the index (the N of document frequencies). */
  conversations: number;
  /** Mean entries per conversation (the length BM25 normalizes by). */
  avgEntries: number;
}

export interface EntryHitRow {
  entryId: number;
  conversationId: number;
  seq: number;
}

export interface InConvRow {
  entryId: number;
  seq: number;
  role: 'user' | 'assistant';
  author: string | null;
  text: string;
}

interface InConvParams {
  match: string;
  conv: number;
  lo: number;
  hi: number;
  before: number;
  limit: number;
}

export interface TurnRow {
  seq: number;
  role: 'user' | 'assistant';
  text: string;
}


export type { Search } from './interface.js';

/**
 * One conversation's matching entries with their bm25, ranked afterwards. `ORDER BY rank` inside the
 * FTS5 query makes FTS5 rank every match in the whole index before the rowid range applies: 40 ms for a
 * common word at 10k conversations, against 3 ms this way (BENCHMARKS.md).
 */
const IN_RANGE = `m AS MATERIALIZED (
         SELECT rowid, bm25(entries_fts) AS rank FROM entries_fts
         WHERE entries_fts MATCH @match AND rowid BETWEEN @lo AND @hi)`;

/**
 * entries as `e` through the covering index of migration 7, for joins that read only an entry's
 * conversation_id and off_path: the row itself (text first, often with overflow pages) is not read.
 */
const OWNER = 'entries e INDEXED BY entries_owner';

/** One term's matching entries (recall's main query). bm25 here is that term's own: tf and entry length. */
export const TERM_ENTRIES_SQL = `SELECT e.id AS entryId, e.conversation_id AS conversationId, bm25(entries_fts) AS rank
  FROM entries_fts JOIN ${OWNER} ON e.id = entries_fts.rowid JOIN conversations c ON c.id = e.conversation_id
  WHERE entries_fts MATCH @match AND e.off_path = 0 AND ${BOUNDS_SQL}`;
/** The same, best first and cut, for a term matching more entries than the caller reads. */
const TERM_ENTRIES_BEST_SQL = `${TERM_ENTRIES_SQL} ORDER BY rank LIMIT @limit`;
/**
 * The same without the bounds, for bounds that keep almost every conversation (no workspace, no date):
 * the caller keeps the rows of conversations its ConversationFacts find within bounds. Looking each
 * row's conversation up in SQL cost a sixth of the query (BENCHMARKS.md); the facts read each
 * conversation once, and scoring reads them anyway.
 */
const ENTRIES_ON_PATH_SQL = `SELECT e.id AS entryId, e.conversation_id AS conversationId, bm25(entries_fts) AS rank
  FROM entries_fts JOIN ${OWNER} ON e.id = entries_fts.rowid WHERE entries_fts MATCH @match AND e.off_path = 0`;

/**
 * A term's best entries by bm25 among all its matches, and then each of those entries' conversation and
 * whether it is on the active path: for a term matching more entries than the caller reads, the join and
 * the bounds ran for every match before the cut (40 % of the read for a word in 9,000 entries at 50k,
 * 60 % in 57,000; BENCHMARKS.md). The best are joined in id order (entries_owner read forward, not at
 * random: 1.2x less) and handed over best first, equal ranks by id, as TERM_ENTRIES_BEST_SQL's sorter
 * cuts them (it keeps the rows FTS5 gave first, and FTS5 gives a MATCH's rows by rowid).
 */
const BEST_ENTRIES_ON_PATH_SQL = `SELECT e.id AS entryId, e.conversation_id AS conversationId, m.r AS rank
  FROM (SELECT * FROM (SELECT rowid, bm25(entries_fts) AS r FROM entries_fts WHERE entries_fts MATCH @match ORDER BY r, rowid LIMIT @limit) ORDER BY rowid) m
  JOIN ${OWNER} ON e.id = m.rowid WHERE e.off_path = 0 ORDER BY m.r, m.rowid`;

/**
 * BEST_ENTRIES_ON_PATH_SQL is read for a term matching more than this many times the entries read: below
 * it, the join it saves costs no more than cutting twice (one term at 50k, the CPU against the bounds
 * query: 0.57-0.60x at 4.7x, 0.87-0.90x at 2.8-3.3x, 0.99x at 2.3x, 1.03-1.10x at 1.1-1.8x).
 */
const BEST_FIRST_FROM = 2;

/** Bounds that keep almost every conversation: only sub-agents and a few listed ids are left out. */
const wide = (b: Bounds): boolean => !b.workspace && (b.since === null || b.since === undefined);

/** Which of the ids (a JSON array within lo…hi) a term's conversations include: see presenceAmong. */
export const PRESENCE_AMONG_SQL =
  'SELECT rowid FROM conversation_terms WHERE conversation_terms MATCH @match AND rowid BETWEEN @lo AND @hi AND +rowid IN (SELECT value FROM json_each(@ids))';

export function createSearch(db: ReadableDb): Search {
  const stem = createStemmer(db);
  const s = {
    total: db.prepare<[], { n: number }>('SELECT count(*) AS n FROM conversations'),
    totalIn: db.prepare<BoundParams, { n: number }>(`SELECT count(*) AS n FROM conversations c WHERE ${BOUNDS_SQL}`),
    // The three full-text indexes' structure records (FTS5 keeps it at rowid 10; it begins with a
    // cookie that every change to that index moves): what document frequencies and N depend on. The
    // database's data_version would also move on every unrelated write, and the daemon records each
    // call in the activity table, so caches keyed on it never lived past one call.
    contentVersion: db.prepare<[], Buffer>(
      `SELECT block FROM entries_fts_data WHERE id = 10 UNION ALL SELECT block FROM conversations_fts_data WHERE id = 10
       UNION ALL SELECT block FROM conversation_terms_data WHERE id = 10`,
    ).pluck(),
    vocab: db.prepare<[string], { doc: number }>('SELECT doc FROM conversation_terms_vocab WHERE term = ?'),
    vocabRange: db.prepare<[string, string, number], { term: string; doc: number }>(
      'SELECT term, doc FROM conversation_terms_vocab WHERE term >= ? AND term < ? LIMIT ?',
    ),
    count: db.prepare<[string], { n: number }>('SELECT count(*) AS n FROM conversation_terms WHERE conversation_terms MATCH ?'),
    presence: db.prepare<BoundParams & { match: string; limit: number }, { id: number }>(
      `SELECT t.rowid AS id FROM conversation_terms t JOIN conversations c ON c.id = t.rowid
       WHERE conversation_terms MATCH @match AND ${BOUNDS_SQL} LIMIT @limit`,
    ),
    // The term's conversations within the ids' range, kept when among the ids. With \`rowid IN (…)\`
    // FTS5 looks each id up in the doclist on its own, 20–40 times slower for a term in thousands of
    // conversations (BENCHMARKS.md); \`+rowid\` keeps the doclist walk and tests each row against the
    // ids in SQLite, which costs less than handing every row to JavaScript to filter (1.7× at 10k).
    presenceIn: db.prepare<{ match: string; lo: number; hi: number; ids: string }, number>(PRESENCE_AMONG_SQL).pluck(),
    presenceRecent: db.prepare<BoundParams & { match: string; limit: number }, { id: number }>(
      `SELECT t.rowid AS id FROM conversation_terms t JOIN conversations c ON c.id = t.rowid
       WHERE conversation_terms MATCH @match AND ${BOUNDS_SQL} ORDER BY c.updated_at DESC, c.id DESC LIMIT @limit`,
    ),
    fields: db.prepare<BoundParams & { match: string; limit: number }, { id: number }>(
      `SELECT f.rowid AS id FROM conversations_fts f JOIN conversations c ON c.id = f.rowid
       WHERE conversations_fts MATCH @match AND ${BOUNDS_SQL} LIMIT @limit`,
    ),
    // Conversations matching a one-column MATCH, in rowid order, with whether the agent wrote a summary.
    // One statement per column costs less than one for both that tells the columns apart with a
    // column-weighted bm25() per row (its length lookup twice a row: 1.5x at 10k).
    columnHits: db.prepare<BoundParams & { match: string; limit: number }, [number, number]>(
      `SELECT f.rowid, c.summary IS NOT NULL FROM conversations_fts f JOIN conversations c ON c.id = f.rowid
       WHERE conversations_fts MATCH @match AND ${BOUNDS_SQL} LIMIT @limit`,
    ).raw(),
    // The same matches without the bounds: the conversations' rows are read once per query (facts),
    // not once per term and column (a topic's words are in the titles of the same few hundred).
    columnRows: db.prepare<{ match: string; limit: number }, number>('SELECT rowid FROM conversations_fts WHERE conversations_fts MATCH @match LIMIT @limit').pluck(),
    facts: db.prepare<BoundParams & { ids: string }, [number, number, number]>(
      `SELECT c.id, c.entry_count, c.summary IS NOT NULL FROM conversations c WHERE c.id IN (SELECT value FROM json_each(@ids)) AND ${BOUNDS_SQL}`,
    ).raw(),
    // bm25() cannot run inside an aggregate, so the matches are materialized first.
    probe: db.prepare<BoundParams & { match: string; limit: number }, ProbeRow>(
      `WITH m AS MATERIALIZED (
         SELECT e.conversation_id AS id, bm25(entries_fts) AS rank
         FROM entries_fts JOIN ${OWNER} ON e.id = entries_fts.rowid JOIN conversations c ON c.id = e.conversation_id
         WHERE entries_fts MATCH @match AND e.off_path = 0 AND ${BOUNDS_SQL})
       SELECT id, min(rank) AS rank, count(*) AS hits FROM m GROUP BY id ORDER BY rank, id DESC LIMIT @limit`,
    ),
    entryHits: db.prepare<BoundParams & { match: string; limit: number }, EntryHitRow>(
      `SELECT e.id AS entryId, e.conversation_id AS conversationId, e.seq AS seq
       FROM entries_fts JOIN entries e ON e.id = entries_fts.rowid JOIN conversations c ON c.id = e.conversation_id
       WHERE entries_fts MATCH @match AND e.off_path = 0 AND ${BOUNDS_SQL} LIMIT @limit`,
    ),
    termEntries: db.prepare<BoundParams & { match: string }, TermEntryRow>(TERM_ENTRIES_SQL).raw(),
    entryIds: db.prepare<[string], number>('SELECT rowid FROM entries_fts WHERE entries_fts MATCH ?').pluck(),
    entriesOnPath: db.prepare<{ match: string }, TermEntryRow>(ENTRIES_ON_PATH_SQL).raw(),
    termEntriesBest: db.prepare<BoundParams & { match: string; limit: number }, TermEntryRow>(TERM_ENTRIES_BEST_SQL).raw(),
    bestOnPath: db.prepare<{ match: string; limit: number }, TermEntryRow>(BEST_ENTRIES_ON_PATH_SQL).raw(),
    entryTexts: db.prepare<[string], { id: number; seq: number; text: string }>(
      'SELECT id, seq, text FROM entries WHERE id IN (SELECT value FROM json_each(?))',
    ),
    // N and the entries over all conversations (sub-agents' included), as migration 11's triggers keep them:
    // a few rows, where count(*) and avg(entry_count) read every conversation's row (1.3 ms at 10k, ~56 ms
    // from a cold cache) on the first call after each write.
    corpus: db.prepare<[], [string, number]>("SELECT name, value FROM index_counts WHERE name GLOB 'conversations:*' OR name GLOB 'subagents:*' OR name GLOB 'entries:*'").raw(),
    corpusIn: db.prepare<BoundParams, { n: number; avg: number | null }>(`SELECT count(*) AS n, avg(entry_count) AS avg FROM conversations c WHERE ${BOUNDS_SQL}`),
    // bm25()'s own counts: the rows of entries_fts (its averages record, id 1, starts with them as a
    // varint) and the rows a MATCH finds; and the same two within bounds.
    ftsRows: db.prepare<[], Buffer>('SELECT block FROM entries_fts_data WHERE id = 1').pluck(),
    ftsHits: db.prepare<[string], number>('SELECT count(*) FROM entries_fts WHERE entries_fts MATCH ?').pluck(),
    rowsIn: db.prepare<BoundParams, number>(
      `SELECT count(*) FROM entries e JOIN conversations c ON c.id = e.conversation_id WHERE e.indexed = 1 AND ${BOUNDS_SQL}`,
    ).pluck(),
    hitsIn: db.prepare<BoundParams & { match: string }, number>(
      `SELECT count(*) FROM entries_fts JOIN ${OWNER} ON e.id = entries_fts.rowid JOIN conversations c ON c.id = e.conversation_id
       WHERE entries_fts MATCH @match AND ${BOUNDS_SQL}`,
    ).pluck(),
    meta: db.prepare<[string], ConversationMetaRow>(
      `SELECT c.id, c.source, c.session_id, c.path, c.workspace, c.title, c.summary, c.derived_summary, c.created_at, c.updated_at, c.is_subagent, c.entry_count
       FROM conversations c WHERE c.id IN (SELECT value FROM json_each(?))`,
    ),
    // Only what the priors read, for the hundreds of candidates they are applied to: the whole row (its
    // title, summaries and path) cost three times as much, and only the few suggested need it.
    places: db.prepare<[string], ConversationPlaceRow>(
      'SELECT id, workspace, created_at, updated_at FROM conversations WHERE id IN (SELECT value FROM json_each(?))',
    ),
    idRange: db.prepare<[number], { lo: number | null; hi: number | null }>(
      'SELECT min(id) AS lo, max(id) AS hi FROM entries WHERE conversation_id = ?',
    ),
    // Entries of one conversation, bounded by the rowid range of its entries. Callers pass only terms
    // that are not common (recall/find-entries.ts): for a common word FTS5 still walks its doclist.
    ranked: db.prepare<InConvParams, InConvRow>(
      `WITH ${IN_RANGE}
       SELECT m.rowid AS entryId, e.seq AS seq, e.role AS role, e.author AS author, e.text AS text FROM m JOIN entries e ON e.id = m.rowid
       WHERE e.conversation_id = @conv AND e.seq < @before AND e.off_path = 0
       ORDER BY m.rank, e.seq LIMIT @limit`,
    ),
    recent: db.prepare<InConvParams, InConvRow>(
      `SELECT entries_fts.rowid AS entryId, e.seq AS seq, e.role AS role, e.author AS author, e.text AS text FROM entries_fts JOIN entries e ON e.id = entries_fts.rowid
       WHERE entries_fts MATCH @match AND entries_fts.rowid BETWEEN @lo AND @hi
         AND e.conversation_id = @conv AND e.seq < @before AND e.off_path = 0
       ORDER BY e.seq DESC LIMIT @limit`,
    ),
    latest: db.prepare<{ conv: number; before: number; limit: number }, InConvRow>(
      `SELECT id AS entryId, seq, role, author, text FROM entries
       WHERE conversation_id = @conv AND seq < @before AND indexed = 1 AND off_path = 0 ORDER BY seq DESC LIMIT @limit`,
    ),
    turns: db.prepare<[number, number, number], TurnRow>(
      `SELECT seq, role, text FROM entries WHERE conversation_id = ? AND kind = 'message' AND role IN ('user', 'assistant')
       AND off_path = 0 AND text != '' ORDER BY seq LIMIT ? OFFSET ?`,
    ),
    turnCount: db.prepare<[number], { n: number }>(
      `SELECT count(*) AS n FROM entries WHERE conversation_id = ? AND kind = 'message' AND role IN ('user', 'assistant')
       AND off_path = 0 AND text != ''`,
    ),
  };

  // Document frequencies are read on every query and change only when the index does: cached until
  // one of the full-text indexes changes (contentVersion). A call reads one snapshot (snapshot.ts), so the
  // version is read once per call, not before each of its 10-40 counts (17-23 us each at 10k).
  const dfCache = new Map<string, number>();
  let dfVersion = '';
  let checkedIn = 0;
  let stats: CorpusStats | null = null;
  const fresh = (): void => {
    const call = currentRead(db);
    if (call !== 0 && call === checkedIn) return;
    checkedIn = call;
    const version = s.contentVersion.all().map((b) => b.toString('hex')).join(':');
    if (version !== dfVersion) {
      dfCache.clear();
      stats = null;
      dfVersion = version;
    }
  };
  const cachedDf = (key: string, read: () => number): number => {
    fresh();
    let df = dfCache.get(key);
    if (df === undefined) {
      if (dfCache.size > 50_000) dfCache.clear();
      dfCache.set(key, (df = read()));
    }
    return df;
  };

  // Entries a MATCH finds in the whole index: a walk of the term's doclist (a third of a millisecond for a
  // word in a few thousand messages), asked before every term's entries are read; cached like df.
  const entryHits = (match: string): number => cachedDf(`h:${match}`, () => s.ftsHits.get(match)!);

  // One statement per term count (the MATCH strings are parameters, the shape only depends on n).
  const maskStatements = new Map<string, Database.Statement<unknown[], FieldMaskRow>>();
  const maskStatement = (terms: readonly FieldTerm[]) => {
    const shape = terms.map((t) => (t.entries ? (t.fields ? 'p' : 'e') : 't')).join('');
    let st = maskStatements.get(shape);
    if (!st) {
      const parts = terms.flatMap((t, i) => {
        const bit = 2 ** i;
        const own = [
          `SELECT rowid AS id, 0 AS f, ${bit} AS bit FROM conversations_fts WHERE conversations_fts MATCH ?`,
          `SELECT rowid, 1, ${bit} FROM conversations_fts WHERE conversations_fts MATCH ?`,
        ];
        if (t.entries) {
          own.push(`SELECT e.conversation_id, 2, ${bit} FROM entries_fts JOIN ${OWNER} ON e.id = entries_fts.rowid WHERE entries_fts MATCH ? AND e.off_path = 0`);
          if (t.fields) own.push(`SELECT rowid, 2, ${bit} FROM conversations_fts WHERE conversations_fts MATCH ?`);
        } else own.push(`SELECT rowid, 2, ${bit} FROM conversation_terms WHERE conversation_terms MATCH ?`);
        return own;
      });
      // sum(DISTINCT …) counts each (conversation, field, term) once, so the sums are exact bit masks
      // (a phrase's entries report a conversation once per matching entry).
      st = db.prepare<unknown[], FieldMaskRow>(
        `WITH hits AS (${parts.join(' UNION ALL ')})
         SELECT c.id AS id, c.workspace AS workspace, c.updated_at AS updated_at,
           coalesce(sum(DISTINCT CASE WHEN h.f = 0 THEN h.bit END), 0) AS title,
           coalesce(sum(DISTINCT CASE WHEN h.f = 1 THEN h.bit END), 0) AS summary,
           coalesce(sum(DISTINCT CASE WHEN h.f = 2 THEN h.bit END), 0) AS transcript
         FROM hits h JOIN conversations c ON c.id = h.id
         WHERE ${BOUNDS_SQL.replace(/@(\w+)/g, '?')}
         GROUP BY c.id`,
      );
      maskStatements.set(shape, st);
    }
    return st;
  };

  /**
   * The `limit` best entries of a term within wide bounds, the rows TERM_ENTRIES_BEST_SQL gives: the best
   * n of all the term's matches are read (BEST_ENTRIES_ON_PATH_SQL), those off the active path or out of
   * bounds dropped, and n doubled until `limit` remain or every match was read. Any entry within bounds
   * that is not among the best n ranks after all of them, so the best `limit` of those left are the answer.
   */
  const bestWithinFacts = (match: string, limit: number, hits: number, facts: ConversationFacts): TermEntryRow[] => {
    for (let n = limit + Math.ceil(limit / 4); ; n *= 2) {
      const rows = withinFacts(s.bestOnPath.all({ match, limit: n }), facts);
      if (rows.length > limit) return rows.slice(0, limit);
      if (rows.length === limit || n >= hits) return rows;
    }
  };

  const range = (conv: number): { lo: number; hi: number } | null => {
    const r = s.idRange.get(conv);
    return r && r.lo !== null && r.hi !== null ? { lo: r.lo, hi: r.hi } : null;
  };

  return {
    stem,
    /** Conversations in the index: the N of document frequencies. */
    totalConversations: (): number => s.total.get()!.n,
    /** Conversations within bounds (the N a caller limited to them may know). */
    conversationsIn: (bounds: Bounds): number => s.totalIn.get(boundParams(bounds))!.n,
    /** N and the mean conversation length, cached until the index changes. */
    corpusStats: (): CorpusStats => {
      fresh();
      if (!stats) {
        let n = 0;
        let entries = 0;
        for (const [name, value] of s.corpus.all()) {
          if (name.startsWith('entries:')) entries += value;
          else n += value;
        }
        // avg() of integers in SQLite is their exact sum over the count: the same double.
        stats = { conversations: n, avgEntries: n > 0 ? entries / n : 0 };
      }
      return stats;
    },
    /** N and the mean conversation length over the conversations within bounds. */
    corpusStatsIn: (bounds: Bounds): CorpusStats => {
      const r = s.corpusIn.get(boundParams(bounds))!;
      return { conversations: r.n, avgEntries: r.avg ?? 0 };
    },
    /**
     * What bm25() counts for a one-phrase MATCH: the rows of entries_fts and those the MATCH finds,
     * over the whole index (null bounds, exactly FTS5's numbers) or within bounds.
     */
    entryCounts: (match: string, bounds: Bounds | null): { rows: number; hits: number } =>
      bounds
        ? { rows: s.rowsIn.get(boundParams(bounds))!, hits: s.hitsIn.get({ ...boundParams(bounds), match })! }
        : { rows: leadingVarint(s.ftsRows.get() ?? Buffer.alloc(0)), hits: entryHits(match) },
    /** Entries by row id: their number within the conversation and their text. */
    entryTexts: (ids: readonly number[]): Map<number, { seq: number; text: string }> =>
      new Map(ids.length ? s.entryTexts.all(JSON.stringify(ids)).map((r) => [r.id, { seq: r.seq, text: r.text }]) : []),
    /**
     * Entries matching one term (a clause's MATCH) within bounds, in no particular order: all of them,
     * or the `limit` best by bm25 when more match. Sorting by bm25 costs a tenth of the query, so it is
     * done only when the cut needs it (the count over the whole index is a walk of the term's doclist).
     */
    termEntries: (match: string, bounds: Bounds, limit: number, facts?: ConversationFacts): TermEntryRow[] => {
      const inFacts = facts?.bounds === bounds && wide(bounds) ? facts : null;
      const hits = entryHits(match);
      if (hits > limit) return inFacts && hits > BEST_FIRST_FROM * limit ? bestWithinFacts(match, limit, hits, inFacts) : s.termEntriesBest.all({ ...boundParams(bounds), match, limit });
      return inFacts ? withinFacts(s.entriesOnPath.all({ match }), inFacts) : s.termEntries.all({ ...boundParams(bounds), match });
    },
    /**
     * Entries matching any of the clauses' MATCH strings within bounds, each once, in no particular order,
     * with bm25 of the OR of them: the sum of each clause's own bm25 for the entry (FTS5 adds the phrases'
     * parts in the order given, a missing phrase adding 0), so an entry matching three terms is ranked
     * once, not three times.
     */
    entriesMatchingAny: (matches: readonly string[], facts: ConversationFacts): TermEntryRow[] | null => {
      const match = matches.join(' OR ');
      return wide(facts.bounds) ? withinFacts(s.entriesOnPath.all({ match }), facts) : s.termEntries.all({ ...boundParams(facts.bounds), match });
    },
    /** Row ids of every entry a MATCH finds, in the whole index (no bounds, off-path ones too), ascending. */
    entryIds: (match: string): number[] => s.entryIds.all(match),
    /** Indexed terms from `from` (inclusive) to `to` (exclusive), with their conversation counts. */
    termsBetween: (from: string, to: string, limit: number): { term: string; doc: number }[] => s.vocabRange.all(from, to, limit),
    /** Exact number of conversations containing a stemmed term (fts5vocab over conversation_terms). */
    termDf: (stem: string): number => cachedDf(`t:${stem}`, () => s.vocab.get(stem)?.doc ?? 0),
    /** Conversations matching a detail=none MATCH (phrases flattened, prefixes): df of a non-plain clause. */
    matchDf: (match: string): number => cachedDf(`m:${match}`, () => s.count.get(match)!.n),
    /** Conversations whose whole text (title, summary, transcript) matches; unranked. */
    presence: (match: string, bounds: Bounds, limit: number): number[] =>
      s.presence.all({ ...boundParams(bounds), match, limit }).map((r) => r.id),
    /** Which of these conversations contain the term (conversation_terms, detail=none: cheap even for common words). */
    presenceAmong: (match: string, ids: readonly number[]): Set<number> => {
      if (!ids.length) return new Set();
      let lo = Infinity;
      let hi = -Infinity;
      for (const id of ids) {
        if (id < lo) lo = id;
        if (id > hi) hi = id;
      }
      return new Set(s.presenceIn.all({ match, lo, hi, ids: JSON.stringify(ids) }));
    },
    /** Like presence, most recently active first (sorts the whole match set: for common-only queries). */
    presenceRecent: (match: string, bounds: Bounds, limit: number): number[] =>
      s.presenceRecent.all({ ...boundParams(bounds), match, limit }).map((r) => r.id),
    /** Conversations whose title/summary/workspace (per the MATCH's column filter) match; unranked. */
    /**
     * For every conversation any term reaches (within bounds): which terms matched its title, its
     * summary and its whole text, as bit masks (term i = bit i; at most 30 terms). One statement,
     * so a word in almost every conversation costs one pass, not one JavaScript object per match.
     */
    fieldMasks: (terms: readonly FieldTerm[], bounds: Bounds): FieldMaskRow[] => {
      if (!terms.length) return [];
      if (terms.length > 30) throw new Error('fieldMasks takes at most 30 terms');
      const args: unknown[] = terms.flatMap((t) =>
        t.entries ? [t.title, t.summary, t.entries, ...(t.fields ? [t.fields] : [])] : [t.title, t.summary, t.terms],
      );
      const b = boundParams(bounds);
      // BOUNDS_SQL's named parameters, positional here, in their order of appearance.
      for (const name of BOUND_ORDER) args.push(b[name]);
      return maskStatement(terms).all(...args);
    },
    fieldMatches: (match: string, bounds: Bounds, limit: number): number[] =>
      s.fields.all({ ...boundParams(bounds), match, limit }).map((r) => r.id),
    /**
     * Conversations whose title or summary match (`match`: one clause restricted to each column), with
     * which of the two, at most `limit`. Only a summary the agent wrote counts: the one derived from the
     * first request and the last reply holds words the messages already count. Within `facts`' bounds.
     */
    titleOrOwnSummary: (match: { title: string; summary: string }, facts: ConversationFacts, limit: number): { id: number; title: boolean; summary: boolean }[] => {
      let title: [number, number][];
      let summary: [number, number][];
      const titleRows = s.columnRows.all({ match: match.title, limit: limit + 1 });
      const summaryRows = s.columnRows.all({ match: match.summary, limit: limit + 1 });
      if (titleRows.length <= limit && summaryRows.length <= limit) {
        // All of them (no more than the limit before the bounds, so none after): the bounds and the
        // summary's origin from the facts, read once per conversation in the query.
        facts.read(titleRows);
        facts.read(summaryRows);
        const within = (rows: number[]): [number, number][] => {
          const out: [number, number][] = [];
          for (const id of rows) {
            const f = facts.get(id);
            if (f) out.push([id, f.ownSummary ? 1 : 0]);
          }
          return out;
        };
        title = within(titleRows);
        summary = within(summaryRows);
      } else {
        const b = boundParams(facts.bounds);
        title = s.columnHits.all({ ...b, match: match.title, limit });
        summary = s.columnHits.all({ ...b, match: match.summary, limit });
      }
      // The first `limit` conversations matching in either column, by id (each list holds all of those
      // within its own cut), as one statement over both columns would have found them.
      const out: { id: number; title: boolean; summary: boolean }[] = [];
      let t = 0;
      let u = 0;
      for (let n = 0; n < limit && (t < title.length || u < summary.length); n++) {
        const tid = t < title.length ? title[t]![0] : Infinity;
        const uid = u < summary.length ? summary[u]![0] : Infinity;
        const id = Math.min(tid, uid);
        const own = (tid === id ? title[t]![1] : summary[u]![1]) === 1;
        const inSummary = uid === id && own;
        if (tid === id || inSummary) out.push({ id, title: tid === id, summary: inSummary });
        if (tid === id) t++;
        if (uid === id) u++;
      }
      return out;
    },
    conversationFacts: (bounds: Bounds): ConversationFacts => {
      const known = new Map<number, { length: number; ownSummary: boolean } | null>();
      const params = boundParams(bounds);
      return {
        bounds,
        read(ids) {
          const missing: number[] = [];
          for (const id of ids) {
            if (known.has(id)) continue;
            // Listed once even when `ids` repeats it.
            known.set(id, null);
            missing.push(id);
          }
          if (!missing.length) return;
          for (const [id, length, own] of s.facts.all({ ...params, ids: JSON.stringify(missing) })) known.set(id, { length, ownSummary: own === 1 });
        },
        get: (id) => known.get(id) ?? null,
      };
    },
    /** One ranked probe: conversations by their best matching entry's bm25. */
    probe: (match: string, bounds: Bounds, limit: number): ProbeRow[] => s.probe.all({ ...boundParams(bounds), match, limit }),
    /** Matching entries (for co-occurrence within one entry). */
    entryHits: (match: string, bounds: Bounds, limit: number): EntryHitRow[] =>
      s.entryHits.all({ ...boundParams(bounds), match, limit }),
    conversationPlaces: (ids: readonly number[]): Map<number, ConversationPlaceRow> =>
      new Map(ids.length ? s.places.all(JSON.stringify(ids)).map((r) => [r.id, r]) : []),
    conversations: (ids: readonly number[]): Map<number, ConversationMetaRow> =>
      new Map(ids.length ? s.meta.all(JSON.stringify(ids)).map((r) => [r.id, r]) : []),
    /**
     * Entries of one conversation with seq < before matching `match`: best first by bm25 (`ranked`),
     * or most recent first. bm25 counts each term over the whole index, so callers rank only by
     * terms that are not everywhere.
     */
    entriesIn: (conv: number, match: string, o: { before?: number; limit: number; ranked: boolean }): InConvRow[] => {
      const r = range(conv);
      if (!r) return [];
      const params = { match, conv, before: o.before ?? Number.MAX_SAFE_INTEGER, limit: o.limit, ...r };
      return (o.ranked ? s.ranked : s.recent).all(params);
    },
    /** The indexed (searchable) entries of one conversation before `before`, latest first, without FTS. */
    latestEntries: (conv: number, before: number, limit: number): InConvRow[] => s.latest.all({ conv, before, limit }),
    /** Turns (user and assistant messages on the active path) from the 0-based `offset`. */
    turns: (conv: number, offset: number, limit: number): TurnRow[] => s.turns.all(conv, limit, offset),
    turnCount: (conv: number): number => s.turnCount.get(conv)!.n,
  };
}

/** The rows whose conversation is within the facts' bounds, in their order (each conversation read once). */
function withinFacts(rows: TermEntryRow[], facts: ConversationFacts): TermEntryRow[] {
  // A conversation's entries come together (ids ascend within one): each owner is listed once or a few times.
  const ids: number[] = [];
  for (let i = 0, last = -1; i < rows.length; i++) if (rows[i]![1] !== last) ids.push((last = rows[i]![1]));
  facts.read(ids);
  let kept = 0;
  for (let i = 0, last = -1, within = false; i < rows.length; i++) {
    const row = rows[i]!;
    if (row[1] !== last) within = facts.get((last = row[1])) !== null;
    if (within) rows[kept++] = row;
  }
  rows.length = kept;
  return rows;
}

/** A SQLite varint at the start of `buf` (FTS5's record format): 0 for an empty buffer. */
function leadingVarint(buf: Buffer): number {
  let v = 0;
  for (let i = 0; i < Math.min(buf.length, 9); i++) {
    const byte = buf[i]!;
    if (i === 8) return v * 256 + byte;
    v = v * 128 + (byte & 0x7f);
    if (!(byte & 0x80)) return v;
  }
  return v;
}

// ---- stemming through SQLite's own tokenizer ----

/** Stems of each token as FTS5 stores them (usually one per token; more when SQLite splits it). */
export type Stemmer = (tokens: readonly string[]) => string[][];

// Stems depend only on the tokenizer, so one cache serves every connection.
const stemCache = new Map<string, string[]>();
const STEM_CACHE_MAX = 20_000;

/**
 * The stems FTS5 stores for tokens (porter over unicode61, exactly the index's tokenizer), so df
 * lookups in conversation_terms_vocab and in-memory matching use the very terms the index holds.
 * A TEMP table on the index's own connection does the work: it works on a read-only index and needs
 * no second native database handle (the Electron build loads its own).
 */
export function createStemmer(db: Database.Database): Stemmer {
  let st: { insert: Database.Statement<[number, string]>; read: Database.Statement<[], { doc: number; term: string }>; clear: Database.Statement<[]> } | null = null;
  return (tokens) => {
    const missing = [...new Set(tokens.filter((t) => !stemCache.has(t)))];
    if (missing.length) {
      if (!st) {
        db.exec(`CREATE VIRTUAL TABLE IF NOT EXISTS temp.tl_stem USING fts5(x, tokenize='${TOKENIZE}');
          CREATE VIRTUAL TABLE IF NOT EXISTS temp.tl_stem_v USING fts5vocab(temp, tl_stem, instance);`);
        st = {
          insert: db.prepare('INSERT INTO temp.tl_stem (rowid, x) VALUES (?, ?)'),
          read: db.prepare('SELECT doc, term FROM temp.tl_stem_v ORDER BY doc, offset'),
          clear: db.prepare('DELETE FROM temp.tl_stem'),
        };
      }
      const q = st;
      const found = db.transaction(() => {
        missing.forEach((t, i) => q.insert.run(i + 1, t));
        const rows = q.read.all();
        q.clear.run();
        return rows;
      })();
      const byDoc = new Map<number, string[]>();
      for (const r of found) (byDoc.get(r.doc) ?? byDoc.set(r.doc, []).get(r.doc)!).push(r.term);
      if (stemCache.size + missing.length > STEM_CACHE_MAX) stemCache.clear();
      missing.forEach((t, i) => stemCache.set(t, byDoc.get(i + 1) ?? []));
    }
    return tokens.map((t) => stemCache.get(t) ?? []);
  };
}
