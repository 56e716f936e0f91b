// Counts for `throughline stats` and the status method.
import fs from 'node:fs';
import type { Db } from './db.js';

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

export function indexCounts(db: Db): IndexCounts {
  // entry_count is kept per conversation: count(*) over entries would be a full scan.
  const c = db
    .prepare('SELECT coalesce(sum(is_subagent = 0), 0) AS conversations, coalesce(sum(is_subagent <> 0), 0) AS subagents, coalesce(sum(entry_count), 0) AS entries FROM conversations')
    .get() as { conversations: number; subagents: number; entries: number };
  const f = db.prepare("SELECT count(*) AS files, coalesce(sum(status = 'missing'), 0) AS missing FROM source_files").get() as { files: number; missing: number };
  return { ...c, files: f.files, missingFiles: f.missing };
}

/** Each conversation's entry count, to tell what a run changed. */
export type CountSnapshot = Map<number, { entries: number; subagent: boolean }>;

export function countSnapshot(db: Db): CountSnapshot {
  const rows = db.prepare('SELECT id, entry_count, is_subagent FROM conversations').all() as { id: number; entry_count: number; is_subagent: number }[];
  return new Map(rows.map((r) => [r.id, { entries: r.entry_count, subagent: r.is_subagent !== 0 }]));
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

export interface IndexStats extends IndexCounts {
  schemaVersion: number;
  errors: number;
  bySource: Record<string, number>;
  lastIndexedAt: number | null;
  bytes: number;
}

export function indexStats(db: Db, file: string): IndexStats {
  const one = (sql: string) => (db.prepare(sql).pluck().get() as number | null) ?? 0;
  const bySource: Record<string, number> = {};
  for (const r of db.prepare('SELECT source, count(*) AS n FROM conversations WHERE is_subagent = 0 GROUP BY source').all() as { source: string; n: number }[]) {
    bySource[r.source] = r.n;
  }
  let bytes = 0;
  for (const suffix of ['', '-wal']) {
    try {
      bytes += fs.statSync(file + suffix).size;
    } catch {
      // no WAL file: nothing to add
    }
  }
  return {
    schemaVersion: db.pragma('user_version', { simple: true }) as number,
    ...indexCounts(db),
    errors: one('SELECT count(*) FROM ingest_errors'),
    bySource,
    lastIndexedAt: (db.prepare('SELECT max(indexed_at) FROM source_files').pluck().get() as number | null) ?? null,
    bytes,
  };
}
