// Transactions that write the index, and how they wait for its write lock.
//
// SQLite's busy handler waits for a busy lock by sleeping 1, 2, 5, … then 100 ms between tries. A
// bulk index run frees the lock only for the few milliseconds it spends parsing between two commits,
// so a writer polling that slowly misses gap after gap: measured, a second writer waited 1.5 s of a
// 2 s run (test/reliability/concurrency.test.ts), and a longer run would have made it fail after
// busy_timeout with "database is locked". Here the lock is tried every millisecond instead.
import type { Db } from './db.js';

export const BUSY_TIMEOUT_MS = 5000;
const nap = new Int32Array(new SharedArrayBuffer(4));

/**
 * `fn` as one BEGIN IMMEDIATE transaction (or, inside an open one, as a savepoint of it). IMMEDIATE,
 * not SQLite's default deferred BEGIN: these transactions read before they write, and in WAL mode a
 * deferred one whose snapshot another process has committed past cannot become the writer; SQLite
 * fails it at once with SQLITE_BUSY, busy_timeout or not.
 */
export function writeTransaction<A extends unknown[], R>(db: Db, fn: (...args: A) => R): (...args: A) => R {
  const nested = db.transaction(fn);
  return (...args: A): R => {
    if (db.inTransaction) return nested(...args);
    begin(db);
    try {
      const out = fn(...args);
      db.exec('COMMIT');
      return out;
    } catch (err) {
      if (db.inTransaction) db.exec('ROLLBACK');
      throw err;
    }
  };
}

function begin(db: Db): void {
  const deadline = performance.now() + BUSY_TIMEOUT_MS;
  db.pragma('busy_timeout = 0');
  try {
    for (;;) {
      try {
        db.exec('BEGIN IMMEDIATE');
        return;
      } catch (err) {
        const busy = (err as { code?: string }).code?.startsWith('SQLITE_BUSY');
        if (!busy || performance.now() >= deadline) throw err;
        Atomics.wait(nap, 0, 0, 1);
      }
    }
  } finally {
    db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
  }
}
