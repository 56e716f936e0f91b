// A client for the agent socket, used by the MCP server, tests and the benchmark. Requests are
// pipelined on one connection and matched to answers by id. A connection with a token or a name
// starts with `auth` naming the protocol version it speaks; every answer is checked before it is
// believed (the envelope, and each method's result shape: shared/results.ts), so a daemon of
// another release fails with an error that says so, not later on a missing field.
import net from 'node:net';
import type { z } from 'zod';
import type { MethodName, MethodParams, MethodResults } from '../../shared/api.js';
import { PROTOCOL_VERSION, RPC } from '../../shared/rpc.js';
import { CodedError } from '../../shared/errors.js';
import { issueText } from '../../shared/invalid-params.js';
import { jsonLines } from './json-lines.js';
import { AuthResult, RESULTS, RpcErrorShape } from '../../shared/results.js';

/** The daemon answered a call with a JSON-RPC error. */
export class RpcCallError extends CodedError {}

/** The connection could not be made or was lost; callers may fall back to opening the index. */
export class SocketUnavailableError extends Error {
  readonly kind = 'socket-unavailable';
  constructor(message: string) {
    super(message);
    this.name = 'SocketUnavailableError';
  }
}

export interface RpcClient {
  call<M extends MethodName>(method: M, params: MethodParams<M>): Promise<MethodResults[M]>;
  /** Any method, unchecked params: for `auth` and for protocol tests. */
  request(method: string, params?: unknown): Promise<unknown>;
  readonly closed: boolean;
  close(): void;
}

export interface ConnectOptions {
  /** Per call (default 15 s). */
  timeoutMs?: number;
  /** For the whole handshake: connecting and the `auth` answer (default 1 s). */
  connectTimeoutMs?: number;
  token?: string;
  client?: string;
}

interface Pending {
  method: string;
  resolve: (v: unknown) => void;
  reject: (e: Error) => void;
  timer: NodeJS.Timeout;
}

function badAnswer(method: string, what: string): RpcCallError {
  return new RpcCallError(RPC.INTERNAL, `The answer to ${method} is not one this client understands: ${what}. Is the daemon on this socket the same Throughline release as this client?`, { method });
}

function checked<T>(method: string, schema: z.ZodType<T>, value: unknown): T {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  throw badAnswer(method, issueText(parsed.error.issues[0], '(the result)', 'unexpected shape').text);
}

/** The server must answer `auth` with the protocol version this client speaks (one from before versions answers none). */
function checkAuth(answer: unknown): void {
  const auth = checked('auth', AuthResult.partial({ protocol: true }), answer);
  if (auth.protocol === PROTOCOL_VERSION) return;
  const speaks = auth.protocol === undefined ? 'no protocol version (a release from before versions)' : `protocol ${auth.protocol}`;
  throw new RpcCallError(RPC.UNSUPPORTED_PROTOCOL, `The daemon on this socket speaks ${speaks}; this client speaks protocol ${PROTOCOL_VERSION}. Restart Throughline (or its daemon) so both are the same release.`, {
    supported: [PROTOCOL_VERSION],
    server: auth.protocol ?? null,
  });
}

/**
 * A method's answer, once its shape is checked (shared/results.ts). The schemas check the fields a
 * caller reads, not every nested one, so the checked value is given the method's declared type here,
 * at the one place an answer enters.
 */
function checkedResult<M extends MethodName>(method: M, value: unknown): MethodResults[M] {
  checked(method, RESULTS[method], value);
  return value as MethodResults[M];
}

export function connectRpc(socketPath: string, options: ConnectOptions = {}): Promise<RpcClient> {
  const timeoutMs = options.timeoutMs ?? 15_000;
  return new Promise<RpcClient>((resolve, reject) => {
    const socket = net.connect(socketPath);
    const pending = new Map<number, Pending>();
    let nextId = 1;
    let closed = false;
    // A stopped daemon (SIGSTOP, Ctrl-Z) still accepts connections into the kernel's backlog and
    // then never answers: the handshake is bounded as a whole, and running out of time is the same
    // as no daemon, so callers fall back instead of waiting on it.
    const connectTimer = setTimeout(() => {
      socket.destroy();
      reject(new SocketUnavailableError(`No answer from ${socketPath} within ${options.connectTimeoutMs ?? 1000} ms.`));
    }, options.connectTimeoutMs ?? 1000);

    const failAll = (err: Error) => {
      for (const p of pending.values()) {
        clearTimeout(p.timer);
        p.reject(err);
      }
      pending.clear();
    };

    socket.setEncoding('utf8');
    socket.on(
      'data',
      jsonLines((msg) => {
        if (typeof msg !== 'object' || msg === null || !('id' in msg) || typeof msg.id !== 'number') return;
        const p = pending.get(msg.id);
        if (!p) return;
        pending.delete(msg.id);
        clearTimeout(p.timer);
        if ('error' in msg) {
          const error = RpcErrorShape.safeParse(msg.error);
          p.reject(error.success ? new RpcCallError(error.data.code, error.data.message, error.data.data) : badAnswer(p.method, 'an error without a numeric code and a message'));
        } else if ('result' in msg) p.resolve(msg.result);
        else p.reject(badAnswer(p.method, 'neither a result nor an error'));
      }),
    );
    socket.on('error', (err) => {
      clearTimeout(connectTimer);
      if (!closed) reject(new SocketUnavailableError(`Cannot reach Throughline at ${socketPath}: ${err.message}`));
      failAll(new SocketUnavailableError(`Connection to ${socketPath} failed: ${err.message}`));
    });
    socket.on('close', () => {
      closed = true;
      failAll(new SocketUnavailableError(`Connection to ${socketPath} closed.`));
    });

    const request = (method: string, params?: unknown): Promise<unknown> =>
      new Promise((res, rej) => {
        if (closed) return rej(new SocketUnavailableError(`Connection to ${socketPath} is closed.`));
        const id = nextId++;
        const timer = setTimeout(() => {
          pending.delete(id);
          rej(new RpcCallError(RPC.TIMEOUT, `No answer to ${method} within ${timeoutMs} ms.`));
        }, timeoutMs);
        pending.set(id, { method, resolve: res, reject: rej, timer });
        socket.write(JSON.stringify({ jsonrpc: '2.0', id, method, params: params ?? {} }) + '\n');
      });

    const client: RpcClient = {
      call: async <M extends MethodName>(method: M, params: MethodParams<M>): Promise<MethodResults[M]> => checkedResult(method, await request(method, params)),
      request,
      get closed() {
        return closed;
      },
      close() {
        closed = true;
        socket.end();
        socket.destroy();
      },
    };

    socket.once('connect', () => {
      // Without a token or a name the connection is the local user and sends no `auth` (it is
      // optional, and may come once: a caller may still send its own); its answers are checked all the same.
      if (options.token === undefined && options.client === undefined) {
        clearTimeout(connectTimer);
        return resolve(client);
      }
      request('auth', { token: options.token, client: options.client, protocol: PROTOCOL_VERSION })
        .then((answer) => checkAuth(answer))
        .then(
          () => {
            clearTimeout(connectTimer);
            resolve(client);
          },
          (err: Error) => {
            clearTimeout(connectTimer);
            client.close();
            reject(err);
          },
        );
    });
  });
}
