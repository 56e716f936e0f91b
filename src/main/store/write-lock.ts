// Transactions that write the index, and how they wait for its write lock.
//
// SQLite's busy handler waits for a busy lock by sleeping 1, 2, 5, … then 100 ms between tries. A
// bulk index run frees the lock only for the few milliseconds it spends parsing between two commits,
// so a writer polling that slowly misses gap after gap: measured, a second writer waited 1.5 s of a
// 2 s run (test/reliability/concurrency.test.ts), and a longer run would have made it fail after
// busy_timeout with "database is locked". Here the lock is tried every millisecond instead.
import type { Statement } from 'better-sqlite3';
import type { Db } from './db.js';

export const BUSY_TIMEOUT_MS = 5000;
const nap = new Int32Array(new SharedArrayBuffer(4));

/**
 * `fn` as one BEGIN IMMEDIATE transaction; inside an open one, as a savepoint of it, or with
 * `inline` (for one statement, atomic by itself) as part of it: each savepoint makes FTS5 flush its
 * pending rows into a new segment. IMMEDIATE, not SQLite's default deferred BEGIN: these
 * transactions read before they write, and in WAL mode a deferred one whose snapshot another
 * process has committed past cannot become the writer; SQLite fails it at once with SQLITE_BUSY,
 * busy_timeout or not.
 */
export function writeTransaction<A extends unknown[], R>(db: Db, fn: (...args: A) => R, options: { inline?: boolean } = {}): (...args: A) => R {
  const nested = options.inline ? fn : db.transaction(fn);
  return (...args: A): R => {
    if (db.inTransaction) return nested(...args);
    begin(db);
    try {
      const out = fn(...args);
      db.exec('COMMIT');
      commitListeners.get(db)?.();
      return out;
    } catch (err) {
      if (db.inTransaction) db.exec('ROLLBACK');
      throw err;
    }
  };
}

/** Told after each transaction this module commits on a connection (see onCommit). */
const commitListeners = new WeakMap<Db, () => void>();

/** `listener` is called after every transaction writeTransaction commits on `db` (one per connection; it must not throw). */
export function onCommit(db: Db, listener: (() => void) | null): void {
  if (listener) commitListeners.set(db, listener);
  else commitListeners.delete(db);
}

/** Prepared once per connection: db.pragma() prepares its statement anew on every call. */
const pragmas = new WeakMap<Db, { wait: Statement; noWait: Statement }>();

function begin(db: Db): void {
  const deadline = performance.now() + BUSY_TIMEOUT_MS;
  let p = pragmas.get(db);
  if (!p) pragmas.set(db, (p = { wait: db.prepare(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`), noWait: db.prepare('PRAGMA busy_timeout = 0') }));
  p.noWait.run();
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
    p.wait.run();
  }
}
