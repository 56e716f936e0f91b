// One call, one snapshot of the index. A recall call makes many statements (the terms' counts, the rows
// read together, each term's walk, the conversations' rows), and the daemon's writer commits between
// them: in one read transaction they all see the same commits. It costs a BEGIN and a COMMIT; a call
// made inside a transaction the connection already has (the writer's own) simply joins it.
import type { ReadableDb } from './db.js';

// The call running on each connection, so that what only a commit can change is looked up once per call
// (search.ts: the full-text indexes' version, read before every count) rather than once per statement.
const running = new WeakMap<ReadableDb, number>();
let lastCall = 0;

/** The inOneRead call running on this connection (a number no other call had), or 0 outside any. */
export function currentRead(db: ReadableDb): number {
  return running.get(db) ?? 0;
}

export function inOneRead<A extends unknown[], R>(db: ReadableDb, fn: (...args: A) => R): (...args: A) => R {
  const read = db.transaction(fn);
  const call = (...args: A): R => (db.inTransaction ? fn(...args) : read(...args));
  return (...args: A): R => {
    // A call made from inside another is part of it.
    if (running.has(db)) return call(...args);
    running.set(db, ++lastCall);
    try {
      return call(...args);
    } finally {
      running.delete(db);
    }
  };
}
