// The agent socket: JSON-RPC 2.0, one JSON object per line, over a Unix socket only this user can open.
// Each connection answers its requests in order, one at a time; connections take turns (a
// setImmediate between calls, also between the calls of a batch) because every index call is
// synchronous SQLite work. Memory per connection is bounded: a line is cut off at maxRequestBytes,
// reading pauses while the queue is full or the client is not reading its answers, and a vanished
// client's queue is dropped.
import net from 'node:net';
import { z } from 'zod';
import type { Api } from '../../shared/api.js';
import { ApiError } from '../api/dispatch.js';
import { RPC } from '../../shared/rpc.js';
import { invalidParams } from '../../shared/invalid-params.js';
import { authenticate, guardedCall, localUser, summarizeParams, type Principal } from '../api/access-policy.js';
import { claimSocket, releaseSocket } from '../pid-lock.js';
import { errorResponse, LineSplitter, parseLine, resultResponse, type Checked, type RpcResponse } from './json-rpc.js';
import { ensureSocketDir } from '../paths-light.js';

export type LogFn = (level: 'info' | 'warn' | 'error', message: string) => void;

/** Where each answered call is noted for the activity view (the store's activity log). */
export interface ActivityRecorder {
  record(client: string, method: string, paramsSummary: string, conversations: number[], bytes: number): void;
}

export interface SocketServerOptions {
  socketPath: string;
  api: Api;
  /** Records every call for the activity view; omitted in tests that do not care. */
  activity?: ActivityRecorder | null;
  log?: LogFn;
  /** A request line longer than this is refused (default 1 MiB). */
  maxRequestBytes?: number;
  /** A call still waiting this long after it arrived is refused with -32001 (default 10 s). */
  timeoutMs?: number;
  /** Requests one connection may have waiting before we stop reading from it (default 64). */
  maxQueue?: number;
  maxConnections?: number;
}

export interface SocketServer {
  socketPath: string;
  connections(): number;
  close(): Promise<void>;
}

const AuthParams = z.object({ token: z.string().max(200).optional(), client: z.string().max(100).optional() });
/** Answers beyond this many buffered bytes wait until the client reads (backpressure). */
const WRITE_HIGH_WATER = 1 << 20;

interface Item {
  at: number;
  line: Buffer | null;
  /** A ready answer (an oversized line), sent in its turn. */
  ready: RpcResponse | null;
}

export async function startSocketServer(options: SocketServerOptions): Promise<SocketServer> {
  const { api, socketPath } = options;
  const log: LogFn = options.log ?? (() => {});
  const maxRequestBytes = options.maxRequestBytes ?? 1024 * 1024;
  const timeoutMs = options.timeoutMs ?? 10_000;
  const maxQueue = options.maxQueue ?? 64;
  const sockets = new Set<net.Socket>();

  ensureSocketDir(socketPath);
  await claimSocket(socketPath);

  const server = net.createServer({ allowHalfOpen: true }, (socket) => serve(socket));
  server.maxConnections = options.maxConnections ?? 1000;
  server.on('error', (err) => log('error', `socket server: ${err.message}`));

  function serve(socket: net.Socket): void {
    sockets.add(socket);
    const queue: Item[] = [];
    let principal: Principal = localUser();
    let authed = false;
    let rejected = false;
    let running = false;
    let closed = false;
    let ended = false;
    let paused = false;

    const splitter = new LineSplitter(
      maxRequestBytes,
      (line) => enqueue({ at: Date.now(), line, ready: null }),
      () => enqueue({ at: Date.now(), line: null, ready: errorResponse(null, RPC.TOO_LARGE, `Request larger than ${maxRequestBytes} bytes refused; its remaining bytes up to the next newline are skipped.`) }),
    );

    function enqueue(item: Item): void {
      queue.push(item);
      if (queue.length >= maxQueue && !paused) {
        paused = true;
        socket.pause();
      }
      kick();
    }

    function kick(): void {
      if (running || closed) return;
      running = true;
      setImmediate(() => void drain());
    }

    const send = (text: string): void => {
      if (closed || socket.destroyed || !socket.writable) return;
      socket.write(text);
    };

    async function drain(): Promise<void> {
      try {
        while (queue.length && !closed) {
          if (socket.writableLength > WRITE_HIGH_WATER) {
            // The client is not reading: stop working for it until it does ('drain' restarts us).
            running = false;
            return;
          }
          const item = queue.shift()!;
          const out = await handle(item);
          if (out !== null) send(out);
          if (paused && queue.length < maxQueue / 2) {
            paused = false;
            socket.resume();
          }
          // Let other connections (and their I/O) take a turn between two calls of this one.
          await new Promise<void>((resolve) => setImmediate(resolve));
        }
      } catch (err) {
        log('error', `connection: ${(err as Error).stack ?? String(err)}`);
      }
      running = false;
      if (ended && !queue.length && !closed) socket.end();
    }

    async function handle(item: Item): Promise<string | null> {
      if (item.ready) return JSON.stringify(item.ready) + '\n';
      const parsed = parseLine(item.line!.toString('utf8'));
      if (parsed.kind === 'invalid') return JSON.stringify(parsed.response) + '\n';
      if (parsed.kind === 'single') {
        const response = await answer(parsed.item, item.at);
        return response ? JSON.stringify(response) + '\n' : null;
      }
      // A batch is its calls in turn, with the same turn-taking as separate lines: other connections
      // are answered between two of its calls. Run as one, a 100-call batch held another client's
      // `status` for over a second (BENCHMARKS.md).
      const responses: RpcResponse[] = [];
      for (const [i, one] of parsed.items.entries()) {
        if (i > 0) await new Promise<void>((resolve) => setImmediate(resolve));
        if (closed) return null;
        const r = await answer(one, item.at);
        if (r) responses.push(r);
      }
      return responses.length ? JSON.stringify(responses) + '\n' : null;
    }

    async function answer(checked: Checked, at: number): Promise<RpcResponse | null> {
      if (!checked.ok) return checked.response;
      const req = checked.request;
      const reply = (r: RpcResponse): RpcResponse | null => (req.notification ? null : r);
      const waited = Date.now() - at;
      if (waited > timeoutMs) {
        return reply(errorResponse(req.id, RPC.TIMEOUT, `Refused: the request waited ${waited} ms, over the ${timeoutMs} ms limit. The server is busy; retry.`));
      }
      if (req.method === 'auth') return reply(await auth(req.id, req.params));
      if (rejected) return reply(errorResponse(req.id, RPC.FORBIDDEN, 'This connection gave a wrong token; open a new connection.'));
      const started = Date.now();
      let response: RpcResponse;
      let conversations: number[] = [];
      try {
        const outcome = await withTimeout(guardedCall(api, principal, req.method, req.params), timeoutMs - waited, req.method);
        conversations = outcome.conversations;
        response = resultResponse(req.id, outcome.result);
      } catch (err) {
        response = toErrorResponse(req.id, err, log);
      }
      const bytes = req.notification ? 0 : Buffer.byteLength(JSON.stringify(response));
      if (req.method !== 'activity' && !('error' in response && (response.error.code === RPC.METHOD_NOT_FOUND))) {
        try {
          options.activity?.record(principal.client, req.method, summarizeParams(req.method, req.params), conversations, bytes);
        } catch (err) {
          log('warn', `activity not recorded: ${(err as Error).message}`);
        }
      }
      const ms = Date.now() - started;
      if (ms > 1000) log('warn', `${req.method} took ${ms} ms`);
      return reply(response);
    }

    async function auth(id: RpcResponse['id'], params: unknown): Promise<RpcResponse> {
      if (authed || rejected) return errorResponse(id, RPC.FORBIDDEN, 'This connection is already authenticated; open a new connection to change who it is.');
      const parsed = AuthParams.safeParse(params);
      if (!parsed.success) {
        const { field, message } = invalidParams(parsed.error);
        return errorResponse(id, RPC.INVALID_PARAMS, message, { field });
      }
      try {
        principal = await authenticate(api, parsed.data.token, parsed.data.client);
        authed = true;
        return resultResponse(id, { client: principal.client, token: principal.token, workspaces: principal.workspaces });
      } catch (err) {
        rejected = true;
        return toErrorResponse(id, err, log);
      }
    }

    socket.on('data', (chunk: Buffer) => {
      if (!closed) splitter.push(chunk);
    });
    socket.on('drain', () => kick());
    socket.on('end', () => {
      // The client is done sending (e.g. `nc -N`): answer what is queued, then close our side.
      ended = true;
      if (!running && !queue.length && !closed) socket.end();
    });
    socket.on('error', (err: NodeJS.ErrnoException) => {
      // EPIPE / ECONNRESET: the client went away. Nothing to answer any more.
      if (err.code !== 'EPIPE' && err.code !== 'ECONNRESET') log('warn', `connection error: ${err.message}`);
    });
    socket.on('close', () => {
      closed = true;
      queue.length = 0;
      sockets.delete(socket);
    });
  }

  await new Promise<void>((resolve, reject) => {
    const onError = (err: Error) => reject(err);
    server.once('error', onError);
    // The socket file is created 0600 (umask) rather than chmod-ed after a window at the default mode.
    const oldMask = process.umask(0o177);
    try {
      server.listen(socketPath, () => {
        server.off('error', onError);
        resolve();
      });
    } finally {
      process.umask(oldMask);
    }
  }).catch(async (err) => {
    await releaseSocket(socketPath);
    throw err;
  });

  let closing: Promise<void> | null = null;
  return {
    socketPath,
    connections: () => sockets.size,
    close() {
      closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const s of sockets) s.destroy();
      }).then(() => releaseSocket(socketPath));
      return closing;
    },
  };
}

function withTimeout<T>(promise: Promise<T>, ms: number, method: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new ApiError(RPC.TIMEOUT, `Refused: ${method} ran over the time limit.`)), Math.max(1, ms));
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

function toErrorResponse(id: RpcResponse['id'], err: unknown, log: LogFn): RpcResponse {
  if (err instanceof ApiError) return errorResponse(id, err.code, err.message, err.data);
  log('error', `internal error: ${(err as Error).stack ?? String(err)}`);
  return errorResponse(id, RPC.INTERNAL, `Internal error: ${(err as Error).message}`);
}
