// `throughline index` over the core: a scan of the core's sources with what the index holds after it
// and what the run changed, and the checks and steps of a rebuild (built beside the index, swapped
// in when complete). The words a person reads are the CLI's; these say what happened.
import fs from 'node:fs';
import type { ScanProgress, ScanStats } from '../ingest/scan.js';
import type { Carried } from '../store/carry-handoffs.js';
import { openDb } from '../store/db.js';
import { conversationsByFile, countChanges, type CountChanges, type IndexCounts } from '../store/stats.js';
import type { Core } from './core.js';

export type { ScanProgress, ScanStats, Source } from '../ingest/scan.js';
/** A source named as KIND=PATH (`index --source`); throws with a message naming what is wrong. */
export { parseSource } from '../ingest/sources.js';
export type { CountChanges, IndexCounts } from '../store/stats.js';
export type { Carried } from '../store/carry-handoffs.js';

export interface IndexRun {
  stats: ScanStats;
  /** What the index holds after the run: the counts `stats` and the UI show. */
  counts: IndexCounts;
  /** What the run changed in it (never the parser's operations, which count a re-read file's entries again). */
  changed: CountChanges;
}

/** Scans the core's sources (exclusions taken in first: what they newly cover leaves, what they freed is read again). */
export async function runIndex(core: Core, onProgress?: (p: ScanProgress) => void): Promise<IndexRun> {
  const before = core.counts.snapshot();
  const stats = await core.scan({ onProgress });
  return { stats, counts: core.counts.now(), changed: countChanges(before, core.counts.snapshot()) };
}

/** Copies the handoffs of the old index at `oldFile` into the rebuilt one: they are in no session file. */
export function carryHandoffsFrom(oldFile: string, core: Core): Carried {
  return core.carryHandoffs(oldFile);
}

const SQLITE_HEADER = Buffer.from('SQLite format 3\0', 'latin1');

/**
 * An SQLite file by its header, an empty file, or a damaged index (what --rebuild is for): binary,
 * in whole pages. A text file (notes, a config) is none of these.
 */
export function mayBeIndex(file: string): boolean {
  let fd: number;
  try {
    fd = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
  } catch {
    return true; // absent (a new index) or unreadable (openDb says why)
  }
  try {
    const st = fs.fstatSync(fd);
    if (!st.isFile()) return false;
    if (st.size === 0) return true;
    const head = Buffer.alloc(Math.min(st.size, 4096));
    fs.readSync(fd, head, 0, head.length, 0);
    if (head.subarray(0, SQLITE_HEADER.length).equals(SQLITE_HEADER)) return true;
    return st.size % 512 === 0 && head.includes(0);
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * Conversations of the index at `file` a rebuild cannot bring back: their session files are gone, or
 * they were pushed over the socket (no file at all). 0 if it cannot be read.
 */
export function goneConversations(file: string): number {
  if (!fs.existsSync(file)) return 0;
  try {
    const db = openDb(file, { readonly: true });
    try {
      const byFile = conversationsByFile(db);
      // Gone since the last run too, not only those the last run saw gone; a pushed conversation's
      // path (throughline-append://…) is no file at all.
      return byFile.filter((f) => f.status === 'missing' || !fs.existsSync(f.path)).reduce((sum, f) => sum + f.conversations, 0);
    } finally {
      db.close();
    }
  } catch {
    return 0; // a damaged index is why one rebuilds: nothing to say about it
  }
}

/** An index file and its WAL, gone (a rebuild's leftovers, or a failed one). */
export function removeIndex(file: string): void {
  for (const suffix of ['', '-wal', '-shm']) fs.rmSync(file + suffix, { force: true });
}

/** Moves a closed (so fully checkpointed) rebuilt index over the old one and its WAL. */
export function replaceIndex(rebuilt: string, file: string): void {
  for (const suffix of ['-wal', '-shm']) fs.rmSync(file + suffix, { force: true });
  fs.renameSync(rebuilt, file);
  for (const suffix of ['-wal', '-shm']) fs.rmSync(rebuilt + suffix, { force: true });
}
