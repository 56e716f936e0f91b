// A client for the agent socket, used by the MCP server, the Claude Code hook, the CLI, tests and
// the benchmark. Requests are pipelined on one connection and matched to answers by id.
import net from 'node:net';
import type { MethodName, MethodParams, MethodResults } from '../../shared/api.js';
import { RPC } from '../../shared/rpc.js';
import { CodedError } from '../../shared/errors.js';

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
  /** For the whole handshake: connecting and, with a token or client name, the `auth` answer (default 1 s). */
  connectTimeoutMs?: number;
  token?: string;
  client?: string;
}

interface Pending {
  resolve: (v: unknown) => void;
  reject: (e: Error) => void;
  timer: NodeJS.Timeout;
}

export function connectRpc(socketPath: string, options: ConnectOptions = {}): Promise<RpcClient> {
  const timeoutMs = options.timeoutMs ?? 15_000;
  return new Promise<RpcClient>((resolve, reject) => {
    const socket = net.connect(socketPath);
    const pending = new Map<number, Pending>();
    let nextId = 1;
    let buffered = '';
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
    socket.on('data', (chunk: string) => {
      buffered += chunk;
      let nl: number;
      while ((nl = buffered.indexOf('\n')) >= 0) {
        const line = buffered.slice(0, nl);
        buffered = buffered.slice(nl + 1);
        if (!line.trim()) continue;
        let msg: { id?: number; result?: unknown; error?: { code: number; message: string; data?: unknown } };
        try {
          msg = JSON.parse(line);
        } catch {
          continue;
        }
        const p = typeof msg.id === 'number' ? pending.get(msg.id) : undefined;
        if (!p) continue;
        pending.delete(msg.id!);
        clearTimeout(p.timer);
        if (msg.error) p.reject(new RpcCallError(msg.error.code, msg.error.message, msg.error.data));
        else p.resolve(msg.result);
      }
    });
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
        pending.set(id, { resolve: res, reject: rej, timer });
        socket.write(JSON.stringify({ jsonrpc: '2.0', id, method, params: params ?? {} }) + '\n');
      });

    const client: RpcClient = {
      call: (method, params) => request(method, params) as never,
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
      if (options.token === undefined && options.client === undefined) {
        clearTimeout(connectTimer);
        return resolve(client);
      }
      request('auth', { token: options.token, client: options.client }).then(
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
