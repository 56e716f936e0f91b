// Whether what the index holds may have changed since a figure was computed, told by two statements
// of a few microseconds. `status` reads its counts (kept by the index since migration 11, a few rows)
// and its recent errors again only after a write: between writes, another client's status on the
// daemon's event loop costs no query at all.
//  - Another connection's commit (another process indexing, a CLI `forget`): PRAGMA data_version.
//  - This connection's own writes: total_changes(), every row inserted, updated or deleted (triggers
//    included), less the activity log's rows, which change no count and are written on every agent
//    call. The activity log says how many rows it changed (ownChangesOutsideContent). A recall
//    answered on this connection writes its temporary table of stems, which counts too: the daemon
//    answers recall on its reader threads (their own connections), so there it does not.
import type { ReadableDb, WritableDb } from './db.js';

const outsideContent = new WeakMap<ReadableDb, number>();

/** Rows this connection changed that are no part of the index's content (the activity log's). */
export function ownChangesOutsideContent(db: WritableDb, rows: number): void {
  outsideContent.set(db, (outsideContent.get(db) ?? 0) + rows);
}

export interface ContentMemo<T> {
  /** The value, computed again only when the index's content changed. */
  get(): T;
  /** How many times it was computed (for tests). */
  computed(): number;
}

/** `compute`'s value, kept while the index's content stays as it was. */
export function memoByContent<T>(db: ReadableDb, compute: () => T): ContentMemo<T> {
  const dataVersion = db.prepare('PRAGMA data_version').pluck();
  const totalChanges = db.prepare('SELECT total_changes()').pluck();
  let kept: { version: string; value: T } | null = null;
  let computed = 0;
  return {
    get() {
      const version = `${dataVersion.get() as number}:${(totalChanges.get() as number) - (outsideContent.get(db) ?? 0)}`;
      if (kept?.version !== version) {
        kept = { version, value: compute() };
        computed++;
      }
      return kept.value;
    },
    computed: () => computed,
  };
}
