// The store's interface, declared once (after Signal Desktop's ServerReadableInterface and
// ServerWritableInterface): what everything above src/main/store may ask of the index, and what a
// second backend (docs/team-index.md) would implement. Reads and searches take a readable handle,
// writes a writable one (db.ts), so a read-only caller cannot reach a write by type.
//
//   Reader  conversations and entries by id and position (read.ts)
//   Search  the full-text probes and statistics recall scores with (search.ts)
//   Writer  batches of ops with the file's progress, file rows, problems (writer.ts)
//   Counts  what the index holds, counted, and a snapshot to tell what a run changed (stats.ts)
// Beside them, plain functions of a handle: lists (list.ts), the status's counts (stats.ts), find (find.ts) take a
// ReadableDb; forget and scrub (forget.ts), exclusions (exclusions.ts), handoffs (handoff.ts) and the
// activity log's record (activity.ts) a WritableDb.
import type { Conversation, Entry, SourceKind } from '../../shared/types.js';
import type { IngestOp } from './ops.js';
import type {
  Bounds,
  ConversationMetaRow,
  ConversationPlaceRow,
  CorpusStats,
  EntryHitRow,
  FieldMaskRow,
  FieldTerm,
  InConvRow,
  ProbeRow,
  Stemmer,
  TermEntryRow,
  TurnRow,
} from './search.js';

export type { ReadableDb, WritableDb } from './db.js';

// ---- Reads ------------------------------------------------------------------------------------

export interface Reader {
  /** A conversation by row id, session id, import id or file path. */
  conversation(ref: string | number): Conversation | null;
  /** The seq from which the agent's current context starts (a compaction or a handoff), if any. */
  boundary(conversationId: number): number | null;
  children(id: number): Conversation[];
  /** Entries with from <= seq <= to, in order. */
  entries(id: number, from: number, to: number, limit?: number): Entry[];
  /** The `limit` entries before `before`, in order. */
  entriesBefore(id: number, before: number, limit: number): Entry[];
  maxSeq(id: number): number | null;
  handoffs(id: number): { seq: number; text: string; at: number }[];
}

// ---- Search -----------------------------------------------------------------------------------

/** What one query learns of its candidate conversations, read once each however many terms reach them. */
export interface ConversationFacts {
  readonly bounds: Bounds;
  /** Reads those of the ids not read yet (one statement). */
  read(ids: readonly number[]): void;
  /** A conversation read: its entries (BM25's length) and whether the agent wrote its summary; null when outside the bounds or not read. */
  get(id: number): { length: number; ownSummary: boolean } | null;
}

/** SQL only, no scoring: recall/ ranks what these return (see search.ts for the rules they follow). */
export interface Search {
  stem: Stemmer;
  /** Conversations in the index: the N of document frequencies. */
  totalConversations(): number;
  /** Conversations within bounds (the N a caller limited to them may know). */
  conversationsIn(bounds: Bounds): number;
  /** N and the mean conversation length, cached until the index changes. */
  corpusStats(): CorpusStats;
  /** N and the mean conversation length over the conversations within bounds. */
  corpusStatsIn(bounds: Bounds): CorpusStats;
  /** What bm25() counts for a one-phrase MATCH: rows of entries_fts and hits, over the index (null bounds) or within bounds. */
  entryCounts(match: string, bounds: Bounds | null): { rows: number; hits: number };
  /** Entries by row id: their number within the conversation and their text. */
  entryTexts(ids: readonly number[]): Map<number, { seq: number; text: string }>;
  /**
   * Entries matching one term (a clause's MATCH) within bounds: all of them, or the `limit` best by bm25.
   * `facts` (for the same bounds) may be used to tell which conversations are within bounds.
   */
  termEntries(match: string, bounds: Bounds, limit: number, facts?: ConversationFacts): TermEntryRow[];
  /**
   * Entries matching any of several MATCH strings within the facts' bounds, each once, with bm25 of their
   * OR: the sum of each one's own termEntries rank, in their order. null when this search cannot give
   * that sum (a search whose termEntries rescales each term's rank, as confined.ts does).
   */
  entriesMatchingAny(matches: readonly string[], facts: ConversationFacts): TermEntryRow[] | null;
  /** Row ids of every entry a MATCH finds in the whole index, ascending. */
  entryIds(match: string): number[];
  /** Indexed terms from `from` (inclusive) to `to` (exclusive), with their conversation counts. */
  termsBetween(from: string, to: string, limit: number): { term: string; doc: number }[];
  /** Exact number of conversations containing a stemmed term. */
  termDf(stem: string): number;
  /** Conversations matching a plain-terms MATCH (phrases flattened, prefixes): df of a non-plain clause. */
  matchDf(match: string): number;
  /** Conversations whose whole text (title, summary, transcript) matches; unranked. */
  presence(match: string, bounds: Bounds, limit: number): number[];
  /** Which of these conversations contain the term. */
  presenceAmong(match: string, ids: readonly number[]): Set<number>;
  /** Like presence, most recently active first. */
  presenceRecent(match: string, bounds: Bounds, limit: number): number[];
  /** For every conversation any term reaches (within bounds): which terms matched its title, summary and whole text, as bit masks. */
  fieldMasks(terms: readonly FieldTerm[], bounds: Bounds): FieldMaskRow[];
  /** Conversations whose title/summary/workspace (per the MATCH's column filter) match; unranked. */
  fieldMatches(match: string, bounds: Bounds, limit: number): number[];
  /** Conversations whose title or own (agent-written) summary match (one MATCH per column: a single clause), with which of the two, within the facts' bounds. */
  titleOrOwnSummary(match: { title: string; summary: string }, facts: ConversationFacts, limit: number): { id: number; title: boolean; summary: boolean }[];
  /** For one query: which conversations are within bounds, with their length and summary's origin, each read once. */
  conversationFacts(bounds: Bounds): ConversationFacts;
  /** One ranked probe: conversations by their best matching entry's bm25. */
  probe(match: string, bounds: Bounds, limit: number): ProbeRow[];
  /** Matching entries (for co-occurrence within one entry). */
  entryHits(match: string, bounds: Bounds, limit: number): EntryHitRow[];
  /** Workspace and times of these conversations (what the priors read). */
  conversationPlaces(ids: readonly number[]): Map<number, ConversationPlaceRow>;
  conversations(ids: readonly number[]): Map<number, ConversationMetaRow>;
  /** Entries of one conversation with seq < before matching `match`: best bm25 first (`ranked`), or most recent first. */
  entriesIn(conv: number, match: string, o: { before?: number; limit: number; ranked: boolean }): InConvRow[];
  /** The indexed entries of one conversation before `before`, latest first, without full-text search. */
  latestEntries(conv: number, before: number, limit: number): InConvRow[];
  /** Turns (user and assistant messages on the active path) from the 0-based `offset`. */
  turns(conv: number, offset: number, limit: number): TurnRow[];
  turnCount(conv: number): number;
}

// ---- Counts -----------------------------------------------------------------------------------

/**
 * The one count of what the index holds, shown by `index`, `stats`, the status method and the UI.
 * Conversations are the ones a person lists (sub-agent conversations apart, as the list keeps
 * them unless asked); entries are every stored entry of both.
 */
export interface IndexCounts {
  conversations: number;
  subagents: number;
  entries: number;
  files: number;
  missingFiles: number;
}

/** Each conversation's entry count, to tell what a run changed. */
export type CountSnapshot = Map<number, { entries: number; subagent: boolean }>;

/** What the index holds, as `index`, `stats`, the status method and the UI count it. */
export interface Counts {
  /** The one count of conversations, sub-agent conversations, entries and files. */
  now(): IndexCounts;
  /** Each conversation's entry count now: two of them tell what a run changed (stats.ts countChanges). */
  snapshot(): CountSnapshot;
}

// ---- Writes -----------------------------------------------------------------------------------

/** A source file's row: how far it has been read, with the parser's state there. */
export interface FileRow {
  id: number;
  path: string;
  kind: SourceKind;
  size: number;
  mtime_ms: number;
  inode: number;
  committed_offset: number;
  committed_line: number;
  parser_state: string | null;
  status: 'ok' | 'missing' | 'error';
}

/** How far a batch has read its file: committed with the batch, in its transaction. */
export interface FileProgress {
  offset: number;
  line: number;
  state: unknown;
  size: number;
  mtimeMs: number;
  inode: number;
}

export interface LineProblem {
  line: number | null;
  reason: string;
}

export interface ConvRow {
  id: number;
  title: string;
  /** The agent's own summary (a compaction's, a Claude Code summary record, …). */
  summary: string | null;
  workspace: string | null;
  file_id: number | null;
  session_id: string;
  parent_key: string | null;
}

/** What the batch's ops say about one conversation before any of them is applied. */
export interface Announced {
  workspace?: string;
  sessionId?: string;
  parentKey?: string;
}

/** A conversation's place in the index (see Writer.place). */
export type Placed = { key: string; row: ConvRow | undefined } | { exclusion: string };

/** The only way ops reach the index. Each call is its own write transaction, or a savepoint of the caller's. */
export interface Writer {
  fileRow(path: string): FileRow | undefined;
  /** The file's row, inserted if new; `likelyNew`: the caller found no row for it (tried as an insert first). */
  ensureFile(path: string, kind: SourceKind, likelyNew?: boolean): FileRow;
  /** Applies a batch of ops with the file's progress, in one transaction; the stored id of each conversation named (null: excluded). */
  commitBatch(file: FileRow, ops: readonly IngestOp[], progress: FileProgress, more?: boolean): Map<string, number | null>;
  /** The same inside the caller's open transaction, with no savepoint of its own. */
  commitBatchInTransaction(file: FileRow, ops: readonly IngestOp[], progress: FileProgress, more?: boolean): void;
  /** Runs `apply` (batches in the caller's open transaction) deriving each conversation they touch once, at the end. */
  deferDerived<T>(apply: () => T): T;
  /** Where a file's conversation is stored, or the exclusion keeping it out; inside a write transaction. */
  place(file: FileRow, conv: string, announced: Announced): Placed;
  /** Drops everything a file produced (keeping conversation ids), to read it again from the start. */
  resetFile(file: FileRow): void;
  recordProblems(path: string, problems: readonly LineProblem[]): void;
  /** The file is unchanged but its mtime moved (e.g. touched): remember it so the next scan skips it. */
  touchFile(file: FileRow, size: number, mtimeMs: number): void;
  setFileStatus(file: FileRow, status: FileRow['status'], error: string | null): void;
  /** Rebuilds what a run that stopped between two batches left stale, and summaries an older index lacks. */
  refreshStaleTerms(): void;
}
