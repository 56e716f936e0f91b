// One call, one snapshot of the index. A recall call makes many statements (the terms' counts, the rows
// read together, each term's walk, the conversations' rows), and the daemon's writer commits between
// them: in one read transaction they all see the same commits. It costs a BEGIN and a COMMIT; a call
// made inside a transaction the connection already has (the writer's own) simply joins it.
import type { ReadableDb } from './db.js';

export function inOneRead<A extends unknown[], R>(db: ReadableDb, fn: (...args: A) => R): (...args: A) => R {
  const read = db.transaction(fn);
  return (...args: A): R => (db.inTransaction ? fn(...args) : read(...args));
}
