// The daemon's readers: a small pool of worker threads, each with its own read-only connection to
// the index (read-worker.ts), answering recall's read calls so that the event loop only parses,
// routes and writes. The writer stays single, on the main thread.
//
// - Fairness: calls wait in one first-come queue and each free reader takes the oldest. A socket
//   connection has one call out at a time (socket.ts answers its calls in order), so under load the
//   readers serve the connections in turn.
// - A call whose deadline (call-deadline.ts: the socket's time limit) passed while it waited is
//   refused instead of run: its caller has its refusal already, and a thread is free for the next.
// - Read-your-writes: a write commits on the main thread before its answer is sent, and a reader
//   starts a new read transaction for every call, so a call sent after an answer sees that write.
// - A reader that stops (a crash, an exception outside a call, being terminated) is replaced; the
//   call it held is given to another reader once, then answered with an error. A reader that stops
//   before it ever answered (no worker script, an index it cannot open) is not restarted.
// - Until a reader is ready, and when none is left, calls are answered in this thread as before; but
//   while one is starting, only at half this thread's time (see MAIN_SHARE below), the rest wait for it.
// - Memory (issue 16: a reader holds ~40-45 MB): a reader with no call for idleMs is stopped, and
//   readers are started again when calls come, up to `size` (a call answered here meanwhile). A
//   spare (another reader is ready beside it) goes after spareIdleMs: the second reader serves
//   calls that arrive together, and one agent calling in turn never needs it.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { Recall } from '../recall/index.js';
import { RecallError } from '../recall/errors.js';
import { StoreError } from '../store/db.js';
import { RPC } from '../../shared/rpc.js';
import { callDeadline } from './call-deadline.js';
import { ApiError } from './dispatch.js';
import { NotFoundError } from './errors.js';
import { callReads, type CheckpointMessage, type CheckpointReply, type ReadCall, type ReadMessage, type ReadMethod, type ReadReply, type Reads, type ReaderStart, type ThreadError } from './read-calls.js';
import { PoolTiming, timingLine, type TimingSummary } from './read-pool-timing.js';

export type PoolLog = (level: 'info' | 'warn' | 'error', message: string) => void;

export interface ReadPoolOptions {
  dbPath: string;
  nativeBinding?: string;
  /** Reader threads (at least 1). */
  size: number;
  /** Answers calls while no reader is ready. */
  fallback: Reads;
  log?: PoolLog;
  /** Page cache per reader connection, KiB (default 4 MB). */
  cacheKiB?: number;
  /** The worker script; default: found beside this module (readerEntry). */
  entry?: string;
  /** A reader with no call for this long is stopped (default READER_IDLE_MS; 0: never). */
  idleMs?: number;
  /** A reader with no call for this long while another is ready is stopped (default SPARE_IDLE_MS, at most idleMs). */
  spareIdleMs?: number;
  /** The readers start this long after the pool (default 0: at once); calls meanwhile run on this thread. */
  startDelayMs?: number;
  /** The log gets a line on where the calls' time went every this many calls (default TIMING_EVERY). */
  timingEvery?: number;
  /** Called each time a reader thread says it is ready (its V8 heap exists): see daemon/heap-growth.ts. */
  afterReaderStart?: () => void;
  /** Told how many readers are ready each time that number changes (api/checkpoints.ts). */
  onReadyChange?: (ready: number) => void;
  /** Told what each checkpoint asked of a reader did. */
  onCheckpoint?: (result: CheckpointReply['checkpointed']) => void;
}

export interface ReadPool {
  reads: Reads;
  /** Resolves once every reader running has answered ready (or stopped); gives how many are ready. */
  ready(): Promise<number>;
  /** The reader threads now running (for the daemon's log and for tests that stop one). */
  threads(): Worker[];
  /** Where the calls since the last log line spent their time (waiting for a reader, running, handed over). */
  timing(): TimingSummary;
  /**
   * Asks the least busy ready reader for a checkpoint of the WAL, after the calls it holds; false
   * when no reader is ready (or each is at one already).
   */
  checkpoint(): boolean;
  close(): Promise<void>;
}

/**
 * Reader threads when nothing says otherwise: one (the main thread keeps parsing, routing and
 * writing). A second cost the daemon 15-30 MB more under calls (10k: 137 -> 153-162 MB after 50
 * clients' calls; 50k: 129 -> 172 MB, past issue 16's 150) and gave no more calls a second on 2
 * cores (10k: 24-25 against 20-27): a reader's call is CPU the main thread and the machine's other
 * work need too (BENCHMARKS.md). THROUGHLINE_READ_WORKERS sets another number (more cores, more
 * agents at once); 0 answers every call on the main thread.
 */
export function defaultReaderCount(env: NodeJS.ProcessEnv = process.env): number {
  const set = env.THROUGHLINE_READ_WORKERS;
  if (set !== undefined && set.trim() !== '' && Number.isInteger(Number(set)) && Number(set) >= 0) return Math.min(Number(set), Math.max(1, os.availableParallelism()));
  return 1;
}

/**
 * The worker script for this build: from the TypeScript sources (tests, the CLI run through tsx, the
 * benchmarks) a small module that registers tsx first; from a bundle (.build/ by scripts/build-cli.mjs,
 * out/main/ by electron-vite) the read-worker entry built beside it, found next to this chunk or one
 * folder up. null when there is none: the calls then run on the main thread.
 */
export function readerEntry(): string | null {
  const here = fileURLToPath(import.meta.url);
  if (here.endsWith('.ts')) return path.join(path.dirname(here), 'read-worker-boot.mjs');
  for (const dir of [path.dirname(here), path.dirname(path.dirname(here))]) {
    for (const name of ['read-worker.mjs', 'read-worker.js']) {
      const file = path.join(dir, name);
      if (fs.existsSync(file)) return file;
    }
  }
  return null;
}

/** An error from a reader, as the class the api's error mapping (dispatch.ts) knows. */
function fromThread(e: ThreadError): Error {
  switch (e.name) {
    case 'RecallError':
      return new RecallError(e.kind as RecallError['kind'], e.message);
    case 'StoreError':
      return new StoreError(e.kind as StoreError['kind'], e.message);
    case 'NotFoundError':
      return new NotFoundError(e.message);
    default: {
      const err = new Error(e.message);
      err.name = e.name;
      return err;
    }
  }
}

interface Job {
  id: number;
  call: ReadCall;
  /** Date.now() after which nobody waits for the answer; null: none. */
  deadline: number | null;
  /** Readers it has been given to. */
  tries: number;
  /** performance.now() when it was queued, and when it was last given to a reader. */
  queuedAt: number;
  sentAt: number;
  resolve(value: unknown): void;
  reject(err: Error): void;
}

interface Reader {
  worker: Worker;
  ready: boolean;
  /** The calls given to it, in the order given (at most READER_DEPTH): the first is the one it runs. */
  jobs: Job[];
  /** performance.now() when it last had no call (ready, or a call answered). */
  idleSince: number;
  /** Being stopped for having been idle: not replaced. */
  retiring: boolean;
  /** A checkpoint was asked of it and not yet answered. */
  checkpointing: boolean;
}

/**
 * Each reader's V8 young generation, MB. A call allocates a few MB that die with it; V8's default
 * (48 MB on 64-bit) let each reader's heap settle at ~55 MB for ~16 MB live, 8 keeps it near 30 MB
 * at no measurable cost per call (issue 16's memory goal; BENCHMARKS.md).
 */
export const READER_YOUNG_MB = 8;

/**
 * Each reader's V8 old generation limit, MB. V8 lets a heap grow further past its live data between
 * two full collections the larger its limit is: with the default (GBs here) a reader's old space
 * climbed to 35-55 MB for ~15 MB live at 10k before one ran; with 256 MB they stay at 20-25 MB
 * (BENCHMARKS.md, 2026-12-02). A reader at 50k holds 30-50 MB at most, so a call never comes near it;
 * one that did would stop its reader, which the pool replaces (the call tried once more, then refused).
 */
export const READER_OLD_MB = 256;

/**
 * A reader idle this long is stopped: an idle daemon then holds no reader's heap, connection and
 * page cache (BENCHMARKS.md, daemon RSS). Starting one again takes a fraction of a second on its own
 * thread while this thread answers; a minute keeps readers through an agent's turn.
 */
export const READER_IDLE_MS = 60_000;

/**
 * A spare reader idle this long is stopped: the calls that made the pool start it (several at once)
 * are over. Starting one again costs a fraction of a second of CPU on its own thread; 10 s keeps it
 * through a burst of an agent's parallel tool calls.
 */
export const SPARE_IDLE_MS = 10_000;

/**
 * Calls a reader holds at once: the one it runs and the next. Given one call at a time, a reader sat
 * idle while its answer went back (the structured clone, the main thread getting to the message) and
 * the next call came: 2.2 of every 12.9 ms at 10k with 50 clients, 0.84x the in-process rate
 * (BENCHMARKS.md, "The daemon, stop 27"). The next call waits in the reader's port instead.
 */
export const READER_DEPTH = 2;

/** The daemon's log gets a line on where the read calls' time went every this many calls. */
const TIMING_EVERY = 1000;

/**
 * While no reader is ready but one is starting, this thread answers a call only once it has been
 * free as long again as its last such call took (at most half its time); the other calls wait for
 * the reader. Answered here one after another, a burst at a daemon whose readers had stopped (a
 * 100-call batch, fifty clients) held the event loop until a reader was up, 15 ms a call at 10k and
 * 120 at 50k, and every other client's call (a status) waited behind them (BENCHMARKS.md, issue 16).
 */
const MAIN_SHARE = 0.5;

/** Restarts allowed in a minute before the pool gives up on threads and answers in this one. */
const MAX_RESTARTS_PER_MINUTE = 10;

export function createReadPool(options: ReadPoolOptions): ReadPool {
  const log: PoolLog = options.log ?? (() => {});
  const entry = options.entry ?? readerEntry();
  const start: ReaderStart = { dbPath: options.dbPath, nativeBinding: options.nativeBinding, cacheKiB: options.cacheKiB ?? 4_000 };
  const readers = new Set<Reader>();
  const queue: Job[] = [];
  const restarts: number[] = [];
  let nextId = 1;
  let closed = false;
  /** No reader is started any more (one never started, or too many stopped): calls run here. */
  let givenUp = !entry;
  const waiting: (() => void)[] = [];
  const idleMs = options.idleMs ?? READER_IDLE_MS;
  const spareIdleMs = Math.min(options.spareIdleMs ?? SPARE_IDLE_MS, idleMs);
  const timing = new PoolTiming(options.timingEvery ?? TIMING_EVERY, (summary) => log('info', timingLine(summary, readyCount())));

  const readyCount = (): number => [...readers].filter((r) => r.ready && !r.retiring).length;
  let lastReady = 0;
  function readyChanged(): void {
    const now = closed ? 0 : readyCount();
    if (now === lastReady) return;
    lastReady = now;
    options.onReadyChange?.(now);
  }

  /** Set while the readers' start waits for startDelayMs. */
  let delayed: NodeJS.Timeout | null = null;
  /** performance.now() from which this thread may answer another call while a reader starts. */
  let mainFreeAt = 0;
  /** The turn this thread takes at mainFreeAt for a queued call, while a reader starts. */
  let mainTurn: NodeJS.Timeout | null = null;

  /** Answers ready() once no reader is still starting (nor waiting to). */
  function settle(): void {
    if (!delayed && [...readers].every((r) => r.ready)) for (const done of waiting.splice(0)) done();
  }

  function spawn(): void {
    const worker = new Worker(entry!, { workerData: start, resourceLimits: { maxYoungGenerationSizeMb: READER_YOUNG_MB, maxOldGenerationSizeMb: READER_OLD_MB } });
    // The socket keeps the daemon alive; a reader alone must not.
    worker.unref();
    const reader: Reader = { worker, ready: false, jobs: [], idleSince: performance.now(), retiring: false, checkpointing: false };
    readers.add(reader);
    worker.on('message', (message: ReadReply | CheckpointReply | { ready: true }) => {
      if ('ready' in message) {
        options.afterReaderStart?.();
        reader.ready = true;
        reader.idleSince = performance.now();
        readyChanged();
        settle();
        pump();
        return;
      }
      if ('checkpointed' in message) {
        reader.checkpointing = false;
        options.onCheckpoint?.(message.checkpointed);
        return;
      }
      const job = reader.jobs[0];
      if (!job || job.id !== message.id) return;
      reader.jobs.shift();
      const now = performance.now();
      if (!reader.jobs.length) reader.idleSince = now;
      // In the reader's port (behind the call before it) counts as waiting; the rest of the round trip is the hand-over.
      timing.add({ waited: job.sentAt - job.queuedAt + message.waitedMs, ran: message.ms, handedOver: now - job.sentAt - message.waitedMs - message.ms });
      if (message.ok) job.resolve(message.value);
      else job.reject(fromThread(message.error));
      pump();
    });
    worker.on('error', (err) => log('error', `read worker ${worker.threadId}: ${err.stack ?? err.message}`));
    worker.on('exit', (code) => {
      readers.delete(reader);
      readyChanged();
      const held = reader.jobs.splice(0);
      if (closed) {
        for (const job of held) job.reject(new Error('The index is closing.'));
        return;
      }
      if (reader.retiring) {
        settle();
        pump();
        return;
      }
      // Given back in their order, ahead of the calls that came after them; only the first had run.
      for (const job of held.slice(1)) job.tries--;
      for (const job of held.reverse()) {
        if (job.tries < 2) queue.unshift(job);
        else job.reject(new Error(`a reader thread stopped twice while answering ${job.call.method}`));
      }
      if (!reader.ready) {
        givenUp = true;
        log('error', `read worker did not start (exit ${code}); its calls are answered on the main thread`);
      } else {
        const now = Date.now();
        while (restarts.length && now - restarts[0]! > 60_000) restarts.shift();
        if (restarts.length < MAX_RESTARTS_PER_MINUTE) {
          restarts.push(now);
          log('warn', `read worker ${worker.threadId} stopped (exit ${code}); starting another`);
          spawn();
        } else {
          givenUp = true;
          log('error', `read workers stopped ${MAX_RESTARTS_PER_MINUTE} times in a minute; calls are answered on the main thread`);
        }
      }
      settle();
      pump();
    });
  }

  /** A reader is ready or on its way (or will be, once the start delay is over). */
  const starting = (): boolean => !givenUp && (delayed !== null || [...readers].some((r) => !r.retiring));

  /** Gives queued calls to free readers; with no reader ready, answers them here (in turns while one starts). */
  function pump(): void {
    if (!readyCount()) {
      if (starting()) takeMainTurn();
      else for (const job of queue.splice(0)) onMainThread(job.call).then(job.resolve, job.reject);
      return;
    }
    // A call each to the free readers first, then each reader's next one.
    for (let depth = 1; depth <= READER_DEPTH; depth++) {
      for (const reader of readers) {
        if (!reader.ready || reader.retiring || reader.jobs.length >= depth) continue;
        const job = nextLive();
        if (!job) return;
        job.tries++;
        job.sentAt = performance.now();
        reader.jobs.push(job);
        const message: ReadMessage = { id: job.id, sentAt: performance.timeOrigin + job.sentAt, call: job.call };
        reader.worker.postMessage(message);
      }
      // Calls wait with every reader busy: another one, up to `size`.
      if (depth === 1 && queue.length) grow();
    }
  }

  /** Starts a reader if fewer than `size` run (or are starting) and readers are not given up on. */
  function grow(): void {
    if (closed || givenUp) return;
    let running = 0;
    for (const r of readers) if (!r.retiring) running++;
    if (running < Math.max(1, options.size)) spawn();
  }

  /** Stops the readers that had no call for idleMs, and the spares that had none for spareIdleMs (calls waiting keep them all). */
  function retireIdle(): void {
    if (queue.length) return;
    const now = performance.now();
    for (const reader of readers) {
      if (!reader.ready || reader.jobs.length || reader.retiring || reader.checkpointing) continue;
      const spare = [...readers].some((r) => r !== reader && r.ready && !r.retiring);
      if (now - reader.idleSince < (spare ? spareIdleMs : idleMs)) continue;
      reader.retiring = true;
      readyChanged();
      void reader.worker.terminate();
    }
  }
  const retirement = idleMs > 0 ? setInterval(retireIdle, Math.max(10, spareIdleMs / 4)) : null;
  retirement?.unref();

  /** The oldest queued call still awaited; those past their deadline are refused on the way. */
  function nextLive(): Job | undefined {
    const now = Date.now();
    for (let job = queue.shift(); job; job = queue.shift()) {
      if (job.deadline === null || now <= job.deadline) return job;
      job.reject(new ApiError(RPC.TIMEOUT, `Refused: ${job.call.method} waited for a reader past its time limit.`));
    }
    return undefined;
  }

  /** Answers a call here (recall runs synchronously), and notes when this thread may take the next. */
  function onMainThread(call: ReadCall): Promise<unknown> {
    timing.addOnMain();
    const started = performance.now();
    const answer = callReads(options.fallback, call);
    const ended = performance.now();
    mainFreeAt = ended + ((ended - started) * (1 - MAIN_SHARE)) / MAIN_SHARE;
    return answer;
  }

  /** While a reader starts: the oldest queued call is answered here once this thread's turn comes. */
  function takeMainTurn(): void {
    if (mainTurn || !queue.length) return;
    mainTurn = setTimeout(() => {
      mainTurn = null;
      if (closed || readyCount()) return; // a reader took them (pump)
      const job = nextLive();
      if (job) onMainThread(job.call).then(job.resolve, job.reject);
      takeMainTurn();
    }, Math.max(0, mainFreeAt - performance.now()));
  }

  function startNow(): void {
    if (!delayed) return;
    clearTimeout(delayed);
    begin();
  }

  function submit(call: ReadCall): Promise<unknown> {
    if (closed) return callReads(options.fallback, call);
    if (!readyCount()) {
      // None ready (all stopped when idle, or still starting): one is started; this call runs here
      // if this thread's turn has come, else waits for the reader (or the next turn).
      if (!starting()) grow();
      if (!starting() || (!queue.length && performance.now() >= mainFreeAt)) return onMainThread(call);
      // Calls come faster than this thread should answer them: the readers start now, not after their delay.
      startNow();
    }
    return new Promise((resolve, reject) => {
      const now = performance.now();
      queue.push({ id: nextId++, call, deadline: callDeadline(), tries: 0, queuedAt: now, sentAt: now, resolve, reject });
      settle();
      pump();
    });
  }

  function begin(): void {
    delayed = null;
    if (closed) return;
    for (let i = 0; i < Math.max(1, options.size); i++) spawn();
  }
  if (entry) {
    if (options.startDelayMs) {
      delayed = setTimeout(begin, options.startDelayMs);
      delayed.unref();
    } else begin();
  } else {
    log('warn', 'no read worker script next to this build; calls are answered on the main thread');
  }

  const via =
    <M extends ReadMethod>(method: M) =>
    (...args: Parameters<Recall[M]>): Promise<ReturnType<Recall[M]>> =>
      // A reader's answer is the same function's return value, cloned across the thread boundary.
      submit({ method, args } as ReadCall) as Promise<ReturnType<Recall[M]>>;

  return {
    reads: {
      suggest: via('suggest'),
      recall: via('recall'),
      read: via('read'),
      inspect: via('inspect'),
      historySearch: via('historySearch'),
      historyRead: via('historyRead'),
    },
    ready: () =>
      new Promise<number>((resolve) => {
        waiting.push(() => resolve(readyCount()));
        settle();
      }),
    threads: () => [...readers].map((r) => r.worker),
    timing: () => timing.summary(),
    checkpoint() {
      let best: Reader | null = null;
      for (const r of readers) if (r.ready && !r.retiring && !r.checkpointing && (!best || r.jobs.length < best.jobs.length)) best = r;
      if (!best) return false;
      best.checkpointing = true;
      const message: CheckpointMessage = { checkpoint: true };
      best.worker.postMessage(message);
      return true;
    },
    async close() {
      closed = true;
      readyChanged();
      if (retirement) clearInterval(retirement);
      if (mainTurn) clearTimeout(mainTurn);
      if (delayed) clearTimeout(delayed);
      delayed = null;
      settle();
      for (const job of queue.splice(0)) job.reject(new Error('The index is closing.'));
      await Promise.all([...readers].map((r) => r.worker.terminate()));
    },
  };
}
