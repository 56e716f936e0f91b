// Counts for `throughline stats` and the status method.
import fs from 'node:fs';
import type { Db } from './db.js';

export interface IndexStats {
  schemaVersion: number;
  conversations: number;
  entries: number;
  files: number;
  missingFiles: number;
  errors: number;
  bySource: Record<string, number>;
  lastIndexedAt: number | null;
  bytes: number;
}

export function indexStats(db: Db, file: string): IndexStats {
  const one = (sql: string) => (db.prepare(sql).pluck().get() as number | null) ?? 0;
  const bySource: Record<string, number> = {};
  for (const r of db.prepare('SELECT source, count(*) AS n FROM conversations GROUP BY source').all() as { source: string; n: number }[]) {
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
    conversations: one('SELECT count(*) FROM conversations'),
    entries: one('SELECT coalesce(sum(entry_count), 0) FROM conversations') /* count(*) over entries is a full scan */,
    files: one('SELECT count(*) FROM source_files'),
    missingFiles: one("SELECT count(*) FROM source_files WHERE status = 'missing'"),
    errors: one('SELECT count(*) FROM ingest_errors'),
    bySource,
    lastIndexedAt: (db.prepare('SELECT max(indexed_at) FROM source_files').pluck().get() as number | null) ?? null,
    bytes,
  };
}
