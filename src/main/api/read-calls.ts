// The recall engine's read-only calls as messages: what the daemon's read pool (read-pool.ts) sends
// to a reader thread (read-worker.ts) and what comes back. The api's methods call them through
// `Reads`, answered on a reader thread when the pool runs, else in this thread.
import type { Recall } from '../recall/index.js';

/** Recall's methods that only read the index (history_handoff writes: it stays with the writer). */
export const READ_METHODS = ['suggest', 'recall', 'read', 'inspect', 'historySearch', 'historyRead'] as const;
export type ReadMethod = (typeof READ_METHODS)[number];

export type ReadCall = { [M in ReadMethod]: { method: M; args: Parameters<Recall[M]> } }[ReadMethod];

/** The read calls, asynchronous whichever thread answers them. */
export type Reads = { [M in ReadMethod]: (...args: Parameters<Recall[M]>) => Promise<ReturnType<Recall[M]>> };

/** An error as it crosses threads: its class's name, message and kind (see read-pool.ts for the way back). */
export interface ThreadError {
  name: string;
  message: string;
  kind?: string;
}

/** A call as sent to a reader: `sentAt` is performance.timeOrigin + performance.now() (comparable across threads). */
export interface ReadMessage {
  id: number;
  sentAt: number;
  call: ReadCall;
}

/** Asks a reader for a checkpoint of the WAL (store/checkpoint.ts), in its turn among the calls. */
export interface CheckpointMessage {
  checkpoint: true;
}

/** What a checkpoint did: the log's pages and how many are in the index file now; or why it failed. */
export interface CheckpointReply {
  checkpointed: { logPages: number; copied: number; ms: number } | { error: string };
}

/** A reader's answer to a call: how long it waited there (in transit, behind the call before it) and ran (ms). */
export type ReadReply = { id: number; waitedMs: number; ms: number } & ({ ok: true; value: unknown } | { ok: false; error: ThreadError });

/** What a reader thread is started with (its workerData). */
export interface ReaderStart {
  dbPath: string;
  nativeBinding?: string;
  /** SQLite page cache of the reader's connection, in KiB. */
  cacheKiB: number;
}

/** The read calls answered in this thread, on the core's own connection. */
export function localReads(recall: Recall): Reads {
  return {
    suggest: async (...args) => recall.suggest(...args),
    recall: async (...args) => recall.recall(...args),
    read: async (...args) => recall.read(...args),
    inspect: async (...args) => recall.inspect(...args),
    historySearch: async (...args) => recall.historySearch(...args),
    historyRead: async (...args) => recall.historyRead(...args),
  };
}

/** Runs one call message on `reads`. */
export function callReads(reads: Reads, call: ReadCall): Promise<unknown> {
  switch (call.method) {
    case 'suggest':
      return reads.suggest(...call.args);
    case 'recall':
      return reads.recall(...call.args);
    case 'read':
      return reads.read(...call.args);
    case 'inspect':
      return reads.inspect(...call.args);
    case 'historySearch':
      return reads.historySearch(...call.args);
    case 'historyRead':
      return reads.historyRead(...call.args);
  }
}
