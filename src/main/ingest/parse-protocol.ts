// What the scan's thread and its parse worker (parse-ahead.ts, parse-worker.ts) send each other.
import type { MessagePort } from 'node:worker_threads';
import type { SourceKind } from '../../shared/types.js';
import type { ParsedBatch, ParsedDocument } from './parse-file.js';

/** The worker's first message: its adapters are loaded. */
export const READY = 'ready';

export interface ParseWorkerData {
  port: MessagePort;
  /** Bumped by the worker after each message it sends (on a SharedArrayBuffer). */
  signal: Int32Array;
}

/** A new file to parse from its start: its whole `size` as stat-ed, by line or (`whole`) as a document. */
export interface ParseJob {
  id: number;
  kind: SourceKind;
  file: string;
  size: number;
  whole: boolean;
}

/** One of a job's replies, in order: batches (a file read by line), then one with `done`. */
export interface ParseReply {
  id: number;
  done: boolean;
  batch?: ParsedBatch;
  document?: ParsedDocument;
  /** The file could not be opened (`opening`), or its adapter failed outside a line: set aside. */
  error?: { reason: string; opening: boolean };
}
