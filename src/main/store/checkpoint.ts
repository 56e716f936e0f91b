// The WAL's checkpoints: copying what the write-ahead log holds into the index file, so the log can
// start over. SQLite runs one in the commit that takes the log past 1,000 pages, on the writing
// connection's thread: on the daemon's event loop, 25-46 ms at 10k every ~420 activity notes
// (BENCHMARKS.md, stop 26), and 4 ms or more for even a few pages (two fsyncs). The daemon hands them
// to a reader thread instead (api/checkpoints.ts), on a connection of that thread's own that never
// writes a row: a PASSIVE checkpoint waits for nobody and blocks nobody.
import Database from 'better-sqlite3';
import type { WritableDb } from './db.js';
import { BUSY_TIMEOUT_MS } from './write-lock.js';

/** SQLite's own threshold (pages), the writer's while no other thread checkpoints for it. */
export const SQLITE_AUTOCHECKPOINT = 1000;

/** A connection to the index for checkpoints only. */
export interface Checkpointer {
  /** One PASSIVE checkpoint: the log's pages, and how many of them are in the index file now. */
  run(): { logPages: number; copied: number };
  close(): void;
}

export function openCheckpointer(file: string, nativeBinding?: string): Checkpointer {
  const db = new Database(file, { fileMustExist: true, nativeBinding });
  db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
  // The same durability as the writer's (db.ts): the log synced before it is copied, the file after.
  db.pragma('synchronous = NORMAL');
  // A checkpoint copies pages from the log to the file without the page cache.
  db.pragma('cache_size = -256');
  const checkpoint = db.prepare('PRAGMA wal_checkpoint(PASSIVE)');
  return {
    run() {
      const row = checkpoint.get() as { busy: number; log: number; checkpointed: number };
      return { logPages: row.log, copied: row.checkpointed };
    },
    close: () => db.close(),
  };
}

/** The page count past which the writer checkpoints in its own commit (0: never). */
export function setAutoCheckpoint(db: WritableDb, pages: number): void {
  db.pragma(`wal_autocheckpoint = ${Math.max(0, Math.round(pages))}`);
}

