// Where the daemon's WAL checkpoints run (store/checkpoint.ts). While a reader thread is ready, the
// writer (the event loop's connection) no longer checkpoints in its commits: a commit arms a short
// timer and the reader least busy runs a PASSIVE checkpoint after the calls it holds, off the event
// loop. Before, about one 100-call batch in four met a 25-46 ms checkpoint on the event loop at 10k,
// and a `status` waited for it (BENCHMARKS.md, stops 26 and 27).
//  - Bounded: the log holds at most what was written in CHECKPOINT_AFTER_MS plus the reader's turn,
//    and the writer checkpoints by itself again past BACKSTOP_PAGES (a reader stalled, or a log that
//    could not start over for readers always inside a call).
//  - With no reader ready (none started yet, or all stopped when idle), the writer checkpoints in its
//    own commits as SQLite does by default.
import type { WritableDb } from '../store/db.js';
import { setAutoCheckpoint, SQLITE_AUTOCHECKPOINT } from '../store/checkpoint.js';
import { onCommit } from '../store/write-lock.js';
import type { CheckpointReply } from './read-calls.js';

/**
 * A commit asks for a checkpoint this long after it (one for every commit in that time). Each
 * checkpoint lets the log start over at the writer's next commit, and SQLite syncs the log's new
 * header in that commit (synchronous = NORMAL): one fsync on the event loop per checkpoint, so not
 * more often than this. At 200 ms the daemon's event loop made 61 fsyncs in a run where it made 23
 * with SQLite's own checkpoints (BENCHMARKS.md, "The daemon, stop 27").
 */
export const CHECKPOINT_AFTER_MS = 1000;

/** The writer's own threshold (pages, ~40 MB) while the readers checkpoint for it. */
export const BACKSTOP_PAGES = 4_000;

export interface WalCheckpoints {
  /** The pool's ready readers changed to `ready` (ReadPoolOptions.onReadyChange). */
  readersReady(ready: number): void;
  /** What a reader's checkpoint did (ReadPoolOptions.onCheckpoint). */
  checkpointed(result: CheckpointReply['checkpointed']): void;
  /** Hands the checkpoints back to the writer. */
  close(): void;
}

type Log = (level: 'info' | 'warn' | 'error', message: string) => void;

export function checkpointOnReaders(db: WritableDb, pool: { checkpoint(): boolean }, log: Log = () => {}): WalCheckpoints {
  let onReaders = false;
  let timer: NodeJS.Timeout | null = null;
  let failed = false;
  const arm = (): void => {
    if (timer || !onReaders) return;
    timer = setTimeout(() => {
      timer = null;
      if (onReaders) pool.checkpoint();
    }, CHECKPOINT_AFTER_MS);
    timer.unref();
  };
  onCommit(db, arm);
  const handTo = (readers: boolean): void => {
    onReaders = readers;
    if (db.open) setAutoCheckpoint(db, readers ? BACKSTOP_PAGES : SQLITE_AUTOCHECKPOINT);
  };
  return {
    readersReady(ready) {
      if (failed || ready > 0 === onReaders) return;
      handTo(ready > 0);
      // What the writer left in the log meanwhile is checkpointed by the reader too.
      if (onReaders) arm();
    },
    checkpointed(result) {
      if (!('error' in result)) return;
      // A reader that cannot checkpoint (a read-only folder): the writer does it, as before.
      if (!failed) log('warn', `checkpoint on a reader thread failed (${result.error}); the writer checkpoints in its commits`);
      failed = true;
      onCommit(db, null);
      handTo(false);
    },
    close() {
      onCommit(db, null);
      if (timer) clearTimeout(timer);
      timer = null;
      handTo(false);
    },
  };
}
