// Session files on disk for fuzzing the real pipeline (read-lines → adapter → writer), and the
// checks every index must pass afterwards.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createIndexer, type ScanStats } from '../../src/main/ingest/scan.js';
import { ADAPTERS } from '../../src/main/ingest/sources.js';
import { openDb, type Db } from '../../src/main/store/db.js';
import type { Corpus } from './fuzz-lines.js';

export const FTS_TABLES = ['entries_fts', 'conversations_fts', 'conversation_terms'] as const;

/** `PRAGMA integrity_check` and FTS5's own integrity check of every full-text table; throws on damage. */
export function assertIndexIntact(db: Db): void {
  const result = db.pragma('integrity_check', { simple: true });
  if (result !== 'ok') throw new Error(`integrity_check: ${String(result)}`);
  for (const t of FTS_TABLES) db.prepare(`INSERT INTO ${t}(${t}) VALUES('integrity-check')`).run();
}

/** role/kind: text of every stored entry, sorted: what a damaged file must still contain. */
export function storedTexts(db: Db): string[] {
  return (db.prepare("SELECT role || '/' || kind || ': ' || text AS t FROM entries").pluck().all() as string[]).sort();
}

export interface Indexed {
  db: Db;
  stats: ScanStats;
  file: string;
  root: string;
}

/**
 * Writes `content` where the corpus's session file lives (re-rooted under a temp folder, so the
 * adapter sees the same relative layout) and indexes it into a fresh in-memory index.
 */
export function indexContent(c: Corpus, content: Buffer | string, root = fs.mkdtempSync(path.join(os.tmpdir(), 'tl-fuzz-'))): Indexed {
  const file = path.join(root, c.file);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, content);
  const db = openDb(':memory:');
  const stats = createIndexer(db, ADAPTERS).scan([{ kind: c.kind, root }]);
  return { db, stats, file, root };
}

export function dispose(x: Indexed): void {
  x.db.close();
  fs.rmSync(x.root, { recursive: true, force: true });
}

/** The longest string anywhere in a record: where a "huge" field goes so the record stays valid. */
export function longestStringPath(value: unknown, at: (string | number)[] = []): { path: (string | number)[]; length: number } {
  let best = { path: at, length: typeof value === 'string' ? value.length : -1 };
  if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      const found = longestStringPath(v, [...at, Array.isArray(value) ? Number(k) : k]);
      if (found.length > best.length) best = found;
    }
  }
  return best;
}

/** The record with its longest string replaced by `text`. */
export function withText(line: string, text: string): string {
  const record = JSON.parse(line) as Record<string | number, unknown>;
  const { path: at } = longestStringPath(record);
  let parent = record;
  for (const k of at.slice(0, -1)) parent = parent[k] as Record<string | number, unknown>;
  parent[at[at.length - 1]!] = text;
  return JSON.stringify(record);
}
