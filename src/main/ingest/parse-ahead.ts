// Parsing ahead on a worker thread: during a scan that finds many new files (a cold index), a
// worker (parse-worker.ts) reads and parses the files after the ones being written, so that parsing
// file n + 1… overlaps writing file n on the scan's thread. Only files the index holds no row for
// are sent: they are parsed from their start, with no stored state to resume from. The scan's
// thread still decides everything else (exclusions, stamps, the row) when it comes to the file, and
// writes the batches exactly as if it had parsed them itself; a file whose row appeared meanwhile
// (another process indexed it) is parsed again there, and a batch whose file moved meanwhile fails
// its compare-and-set (StaleFileError) as any batch would.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads';
import type { SourceKind } from '../../shared/types.js';
import { READY, type ParseJob, type ParseReply, type ParseWorkerData } from './parse-protocol.js';

/** A parsed file waiting to be written: its stat as sent, and the replies received so far. */
export interface Job {
  id: number;
  file: string;
  st: fs.Stats;
  whole: boolean;
  replies: ParseReply[];
  /** The last reply (done) has come. */
  complete: boolean;
}

/** How far the worker may run ahead of the writing: files and bytes sent and not yet written. */
const AHEAD_FILES = 128;
const AHEAD_BYTES = 16 << 20;
/** A worker is started only for a run of at least this many new files ahead (a cold index, not a re-scan's few). */
const START_FILES = 16;
/** How long one wait lasts before the worker's liveness is checked again. */
const WAIT_MS = 1000;
/**
 * A worker silent this long while the scan waits for it is taken for stopped. A scan waiting
 * synchronously cannot see the worker's exit (that event needs the event loop it blocks); a live
 * worker sends a batch (≤ 1 MB of lines) every few ms, or seconds on a machine at load 20.
 */
const STALL_MS = 30_000;

/**
 * The worker script for this build, as for the read pool (read-pool.ts readerEntry): from the
 * TypeScript sources a module that registers tsx first, from a bundle the parse-worker entry built
 * beside this chunk or one folder up. null when there is none: the scan then parses on its thread.
 */
export function parseWorkerEntry(): string | null {
  const here = fileURLToPath(import.meta.url);
  if (here.endsWith('.ts')) return path.join(path.dirname(here), 'parse-worker-boot.mjs');
  for (const dir of [path.dirname(here), path.dirname(path.dirname(here))]) {
    for (const name of ['parse-worker.mjs', 'parse-worker.js']) {
      const file = path.join(dir, name);
      if (fs.existsSync(file)) return file;
    }
  }
  return null;
}

/** A candidate the scan offers: a file it found with no row in the index. */
export interface NewFile {
  kind: SourceKind;
  file: string;
}

/**
 * What the scan asks of a file before sending it: its stat and whether it is read whole, or null
 * when it is not to be sent (excluded, gone, not a regular file).
 */
export type Inspect = (item: NewFile) => { st: fs.Stats; whole: boolean } | null;

export class ParseAhead {
  private worker: Worker | null = null;
  private port: MessagePort | null = null;
  private readonly signal = new Int32Array(new SharedArrayBuffer(4));
  private readonly jobs = new Map<string, Job>();
  private readonly byId = new Map<number, Job>();
  private nextId = 1;
  private bytesAhead = 0;
  /** The worker has loaded its adapters: jobs are sent only then, so a worker that cannot start costs nothing. */
  private started = false;
  private lastHeard = 0;
  /** The worker could not start, or stopped: every file is parsed on the scan's thread from now on. */
  private failed = false;

  constructor(
    private readonly entry: string,
    private readonly stallMs = STALL_MS,
  ) {}

  /**
   * Sends the new files among `items` (in order, from the first) until the worker is far enough
   * ahead. `isNew` must be cheap (a file the scan's chunk holds no row for); `inspect` stats.
   */
  fill(items: readonly NewFile[], from: number, isNew: (file: string) => boolean, inspect: Inspect): void {
    if (this.failed) return;
    if (!this.worker) {
      let count = 0;
      for (let i = from; i < items.length && count < START_FILES && i - from < AHEAD_FILES; i++) if (isNew(items[i]!.file)) count++;
      if (count < START_FILES) return;
      this.start();
    }
    // Until the worker has started, the scan parses on its own thread.
    if (!this.started) this.drain();
    if (!this.started) return;
    for (let i = from; i < items.length && this.jobs.size < AHEAD_FILES && this.bytesAhead < AHEAD_BYTES; i++) {
      const item = items[i]!;
      if (this.jobs.has(item.file) || !isNew(item.file)) continue;
      const seen = inspect(item);
      if (!seen) continue;
      const job: Job = { id: this.nextId++, file: item.file, st: seen.st, whole: seen.whole, replies: [], complete: false };
      this.jobs.set(item.file, job);
      this.byId.set(job.id, job);
      this.bytesAhead += seen.st.size;
      const message: ParseJob = { id: job.id, kind: item.kind, file: item.file, size: seen.st.size, whole: seen.whole };
      this.port!.postMessage(message);
    }
  }

  /** The job sent for `file`, if any (and the worker still runs). */
  jobFor(file: string): Job | undefined {
    return this.failed ? undefined : this.jobs.get(file);
  }

  /** Whether `file`'s job (when there is one) can be written without waiting: all of it, or its first batch for a `partly` file. */
  ready(file: string, partly: boolean): boolean {
    const job = this.jobFor(file);
    if (!job) return true;
    this.drain();
    return job.complete || (partly && job.replies.length > 0);
  }

  /**
   * The job's reply at `index`, waiting for it; null when the worker stopped first. A synchronous
   * wait: the worker parses ahead, so it is short unless the writing caught up with it.
   */
  reply(job: Job, index: number): ParseReply | null {
    for (;;) {
      if (index < job.replies.length) return job.replies[index]!;
      if (this.failed) return null;
      this.waitSync();
    }
  }

  /** Blocks until the worker sent anything more, or stopped (checked every WAIT_MS). */
  waitSync(): void {
    if (this.failed || !this.worker) return;
    const seen = Atomics.load(this.signal, 0);
    if (this.drain()) return;
    if (Atomics.wait(this.signal, 0, seen, WAIT_MS) === 'timed-out') this.checkAlive();
  }

  /**
   * Resolves once the worker sent anything more (or after a while), for a scan that must not block
   * its thread: it looks every millisecond or so, which costs nothing beside the parsing waited for.
   */
  async settled(): Promise<void> {
    const started = performance.now();
    while (!this.failed && this.worker && !this.drain()) {
      if (performance.now() - started > WAIT_MS) return this.checkAlive();
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
  }

  /** Forgets `file`'s job once it is written (or not to be used). */
  release(file: string): void {
    const job = this.jobs.get(file);
    if (!job) return;
    this.jobs.delete(file);
    this.byId.delete(job.id);
    this.bytesAhead -= job.st.size;
  }

  /** Stops the worker: the scan ended. */
  close(): void {
    this.port?.close();
    void this.worker?.terminate();
    this.worker = null;
    this.port = null;
    this.jobs.clear();
    this.byId.clear();
  }

  private start(): void {
    this.lastHeard = performance.now();
    try {
      const { port1, port2 } = new MessageChannel();
      const data: ParseWorkerData = { port: port2, signal: this.signal };
      this.worker = new Worker(this.entry, { workerData: data, transferList: [port2] });
      // The scan's end stops it; it must never be what keeps a process alive.
      this.worker.unref();
      // Its failures show as its stopping (threadId -1): the files are then parsed on the scan's thread.
      this.worker.on('error', () => undefined);
      this.port = port1;
      this.port.unref();
    } catch {
      this.failed = true;
    }
  }

  /** After a wait that timed out: a worker gone (or silent for stallMs) is given up. */
  private checkAlive(): void {
    if (this.worker && (this.worker.threadId === -1 || performance.now() - this.lastHeard > this.stallMs)) this.fail();
  }

  /** Takes the replies that came off the port; whether there were any. */
  private drain(): boolean {
    if (!this.port) return false;
    let any = false;
    for (let m = receiveMessageOnPort(this.port); m; m = receiveMessageOnPort(this.port)) {
      any = true;
      this.lastHeard = performance.now();
      if (m.message === READY) {
        this.started = true;
        continue;
      }
      const reply = m.message as ParseReply;
      const job = this.byId.get(reply.id);
      if (!job) continue;
      job.replies.push(reply);
      if (reply.done) job.complete = true;
    }
    return any;
  }

  private fail(): void {
    this.failed = true;
    this.close();
  }
}
