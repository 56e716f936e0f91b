// One client connection of the agent socket: its lines queued and answered in order, one at a time,
// with a turn for the other connections between two calls. Memory stays bounded: reading pauses while
// the queue is full, answering pauses while the client is not reading, a vanished client's queue is
// dropped.
import type net from 'node:net';
import { RPC } from '../../shared/rpc.js';
import type { CallSession, LogFn } from './call-session.js';
import { errorResponse, LineSplitter, parseLine, type RpcResponse } from './json-rpc.js';

/** Answers beyond this many buffered bytes wait until the client reads (backpressure). */
const WRITE_HIGH_WATER = 1 << 20;

export interface ConnectionLimits {
  /** A request line longer than this is refused. */
  maxRequestBytes: number;
  /** Requests the connection may have waiting before it stops being read from. */
  maxQueue: number;
}

interface Item {
  at: number;
  line: Buffer | null;
  /** A ready answer (an oversized line), sent in its turn. */
  ready: RpcResponse | null;
}

const turn = (): Promise<void> => new Promise<void>((resolve) => setImmediate(resolve));

export class Connection {
  private readonly queue: Item[] = [];
  private readonly splitter: LineSplitter;
  /** A drain is under way (or about to start). */
  private running = false;
  /** The socket closed: nothing more is read, answered or sent. */
  private closed = false;
  /** The client is done sending: our side ends once the queue is answered. */
  private ended = false;
  /** Reading is paused because the queue is full. */
  private paused = false;

  constructor(
    private readonly socket: net.Socket,
    private readonly session: CallSession,
    private readonly limits: ConnectionLimits,
    private readonly log: LogFn,
    onClose: () => void,
  ) {
    const { maxRequestBytes } = limits;
    this.splitter = new LineSplitter(
      maxRequestBytes,
      (line) => this.enqueue({ at: Date.now(), line, ready: null }),
      () => this.enqueue({ at: Date.now(), line: null, ready: errorResponse(null, RPC.TOO_LARGE, `Request larger than ${maxRequestBytes} bytes refused; its remaining bytes up to the next newline are skipped.`) }),
    );
    socket.on('data', (chunk: Buffer) => {
      if (!this.closed) this.splitter.push(chunk);
    });
    socket.on('drain', () => this.kick());
    socket.on('end', () => {
      // The client is done sending (e.g. `nc -N`): answer what is queued, then close our side.
      this.ended = true;
      if (!this.running && !this.queue.length && !this.closed) socket.end();
    });
    socket.on('error', (err: NodeJS.ErrnoException) => {
      // EPIPE / ECONNRESET: the client went away. Nothing to answer any more.
      if (err.code !== 'EPIPE' && err.code !== 'ECONNRESET') log('warn', `connection error: ${err.message}`);
    });
    socket.on('close', () => {
      this.closed = true;
      this.queue.length = 0;
      onClose();
    });
  }

  private enqueue(item: Item): void {
    this.queue.push(item);
    if (this.queue.length >= this.limits.maxQueue && !this.paused) {
      this.paused = true;
      this.socket.pause();
    }
    this.kick();
  }

  private kick(): void {
    if (this.running || this.closed) return;
    this.running = true;
    setImmediate(() => void this.drain());
  }

  private send(text: string): void {
    const { socket } = this;
    if (this.closed || socket.destroyed || !socket.writable) return;
    socket.write(text);
  }

  private async drain(): Promise<void> {
    const { queue, socket } = this;
    try {
      while (queue.length && !this.closed) {
        if (socket.writableLength > WRITE_HIGH_WATER) {
          // The client is not reading: stop working for it until it does ('drain' restarts us).
          this.running = false;
          return;
        }
        const out = await this.handle(queue.shift()!);
        if (out !== null) this.send(out);
        if (this.paused && queue.length < this.limits.maxQueue / 2) {
          this.paused = false;
          socket.resume();
        }
        // Let other connections (and their I/O) take a turn between two calls of this one.
        await turn();
      }
    } catch (err) {
      this.log('error', `connection: ${(err as Error).stack ?? String(err)}`);
    }
    this.running = false;
    if (this.ended && !queue.length && !this.closed) socket.end();
  }

  /** The text to send for one line: its answer, a batch's answers, or nothing (notifications only). */
  private async handle(item: Item): Promise<string | null> {
    if (item.ready) return JSON.stringify(item.ready) + '\n';
    const parsed = parseLine(item.line!.toString('utf8'));
    if (parsed.kind === 'invalid') return JSON.stringify(parsed.response) + '\n';
    if (parsed.kind === 'single') {
      const text = await this.session.answer(parsed.item, item.at);
      return text === null ? null : text + '\n';
    }
    // A batch is its calls in turn, with the same turn-taking as separate lines: other connections
    // are answered between two of its calls. Run as one, a 100-call batch held another client's
    // `status` for over a second (BENCHMARKS.md).
    const answers: string[] = [];
    for (const [i, one] of parsed.items.entries()) {
      if (i > 0) await turn();
      if (this.closed) return null;
      const text = await this.session.answer(one, item.at);
      if (text !== null) answers.push(text);
    }
    return answers.length ? `[${answers.join(',')}]\n` : null;
  }
}
