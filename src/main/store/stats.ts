// Counts for `throughline stats` and the status method.
import fs from 'node:fs';
import type { ReadableDb } from './db.js';
import type { Counts, CountSnapshot, IndexCounts } from './interface.js';

export type { CountSnapshot, IndexCounts } from './interface.js';


/** The counts the index keeps of itself (migration 11's index_counts, kept by triggers): reading them costs a few rows, not a scan. */
export interface KeptCounts {
  counts: IndexCounts;
  /** Conversations (not sub-agents) a source. */
  bySource: Record<string, number>;
  errors: number;
  lastIndexedAt: number | null;
  /** Changes whenever a source file's row is added or removed: a folder's file count is counted again only then. */
  fileRows: number;
}

export function keptCounts(db: ReadableDb): KeptCounts {
  const kept: KeptCounts = { counts: { conversations: 0, subagents: 0, entries: 0, files: 0, missingFiles: 0 }, bySource: {}, errors: 0, lastIndexedAt: null, fileRows: 0 };
  const { counts } = kept;
  for (const { name, value } of db.prepare<[], { name: string; value: number }>('SELECT name, value FROM index_counts').all()) {
    const colon = name.indexOf(':');
    const kind = colon < 0 ? name : name.slice(0, colon);
    const key = name.slice(colon + 1);
    if (kind === 'conversations') {
      counts.conversations += value;
      if (value > 0) kept.bySource[key] = value;
    } else if (kind === 'subagents') counts.subagents += value;
    else if (kind === 'entries') counts.entries += value;
    else if (kind === 'files') {
      counts.files += value;
      if (key === 'missing') counts.missingFiles += value;
    } else if (kind === 'file_rows') kept.fileRows = value;
    else if (kind === 'errors') kept.errors = value;
    else if (kind === 'last_indexed_at') kept.lastIndexedAt = value;
  }
  return kept;
}

export function indexCounts(db: ReadableDb): IndexCounts {
  return keptCounts(db).counts;
}

export function countSnapshot(db: ReadableDb): CountSnapshot {
  const rows = db.prepare('SELECT id, entry_count, is_subagent FROM conversations').all() as { id: number; entry_count: number; is_subagent: number }[];
  return new Map(rows.map((r) => [r.id, { entries: r.entry_count, subagent: r.is_subagent !== 0 }]));
}

export function createCounts(db: ReadableDb): Counts {
  return { now: () => indexCounts(db), snapshot: () => countSnapshot(db) };
}

export interface CountChanges {
  /** Conversations (not sub-agent ones) that are new, that gained or lost entries, that are gone. */
  conversations: { new: number; updated: number; removed: number };
  /** Entries added (or, negative, removed) over all conversations. */
  entries: number;
}

export function countChanges(before: CountSnapshot, after: CountSnapshot): CountChanges {
  const conversations = { new: 0, updated: 0, removed: 0 };
  let entries = 0;
  for (const [id, a] of after) {
    const b = before.get(id);
    entries += a.entries - (b?.entries ?? 0);
    if (a.subagent) continue;
    if (!b) conversations.new++;
    else if (b.entries !== a.entries) conversations.updated++;
  }
  for (const [id, b] of before) {
    if (after.has(id)) continue;
    entries -= b.entries;
    if (!b.subagent) conversations.removed++;
  }
  return { conversations, entries };
}

/** What the index says of itself, for `stats` and the status method alike. */
export interface IndexHealth extends IndexCounts {
  schemaVersion: number;
  /** Lines and files recorded as skipped (ingest_errors). */
  errorCount: number;
  lastIndexedAt: number | null;
}

export function indexHealth(db: ReadableDb, kept: KeptCounts = keptCounts(db)): IndexHealth {
  return { schemaVersion: db.pragma('user_version', { simple: true }) as number, ...kept.counts, errorCount: kept.errors, lastIndexedAt: kept.lastIndexedAt };
}

export interface IngestErrorRow {
  path: string;
  line: number | null;
  reason: string;
  at: number;
}

/** The latest skipped lines and files, newest first. */
export function recentErrors(db: ReadableDb, limit: number): IngestErrorRow[] {
  return db.prepare<[number], IngestErrorRow>('SELECT path, line, reason, at FROM ingest_errors ORDER BY id DESC LIMIT ?').all(limit);
}

export interface FileConversations {
  /** The source file, or the conversation's own path when it has no file row. */
  path: string;
  /** The file's status (ok, missing, error); null without a file row. */
  status: string | null;
  conversations: number;
}

/** How many conversations each source file holds (what a rebuild reads back from where). */
export function conversationsByFile(db: ReadableDb): FileConversations[] {
  return db
    .prepare<[], FileConversations>(
      'SELECT coalesce(f.path, c.path) AS path, f.status AS status, count(*) AS conversations FROM conversations c LEFT JOIN source_files f ON f.id = c.file_id GROUP BY 1, 2',
    )
    .all();
}

/** How many files of a source the index holds: one file (a database, a history) or a folder's. */
export function createSourceFileCounts(db: ReadableDb) {
  const indexed = db.prepare<[string], number>('SELECT 1 FROM source_files WHERE path = ?').pluck();
  // A range over the path index: the separator's next character ends it.
  const under = db.prepare<[{ from: string; to: string }], number>('SELECT count(*) FROM source_files WHERE path > @from AND path < @to').pluck();
  return {
    indexed: (file: string): boolean => indexed.get(file) !== undefined,
    under(root: string): number {
      const sep = root.includes('\\') && !root.includes('/') ? '\\' : '/';
      const base = root.endsWith(sep) ? root.slice(0, -1) : root;
      return under.get({ from: base + sep, to: base + String.fromCharCode(sep.charCodeAt(0) + 1) }) ?? 0;
    },
  };
}

export interface IndexStats extends IndexCounts {
  schemaVersion: number;
  errors: number;
  bySource: Record<string, number>;
  lastIndexedAt: number | null;
  bytes: number;
}

export function indexStats(db: ReadableDb, file: string, kept: KeptCounts = keptCounts(db)): IndexStats {
  const { schemaVersion, errorCount, lastIndexedAt, ...counts } = indexHealth(db, kept);
  return { schemaVersion, ...counts, errors: errorCount, bySource: kept.bySource, lastIndexedAt, bytes: indexBytes(file) };
}

/** The index's size on disk: the database file and its WAL. */
export function indexBytes(file: string): number {
  let bytes = 0;
  for (const suffix of ['', '-wal']) {
    try {
      bytes += fs.statSync(file + suffix).size;
    } catch {
      // no WAL file: nothing to add
    }
  }
  return bytes;
}
