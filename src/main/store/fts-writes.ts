// The writer's full-text writes, run at once or held until the end of a scan's group of batches.
//
// FTS5 writes its pending rows out as a new segment whenever a statement opens a statement journal,
// and SQLite opens one for any statement that fires a trigger and may fail a constraint: since
// migration 11 that is every insert and progress update of a source_files row and every count update
// of a conversations row (their index_counts triggers). Run in file order, each file's full-text rows
// became a segment of their own, for the merges to work through again and again. Held while a group
// writes its rows and run after its last journaled statement, they go out as one segment at COMMIT,
// the same rows in the same order.
import type { Statement } from 'better-sqlite3';

export interface FtsWrites {
  /** Runs a statement writing a full-text table now, or, while held, after the rest of the group. */
  run(statement: Statement, ...params: unknown[]): void;
  /** Runs `fn` with the full-text writes held, then runs them in order; if `fn` throws they are dropped. */
  held<T>(fn: () => T): T;
  /** Runs the writes held so far (before code that writes full-text rows with statements of its own). */
  flush(): void;
}

export function createFtsWrites(): FtsWrites {
  let queue: [Statement, unknown[]][] | null = null;
  const flush = () => {
    if (!queue) return;
    // Taken off before running: a failing statement leaves nothing to be run twice.
    const writes = queue;
    queue = [];
    for (const [statement, params] of writes) statement.run(...params);
  };
  return {
    run(statement, ...params) {
      if (queue) queue.push([statement, params]);
      else statement.run(...params);
    },
    held(fn) {
      if (queue) return fn();
      queue = [];
      try {
        const out = fn();
        flush();
        return out;
      } finally {
        queue = null;
      }
    },
    flush,
  };
}
