// How an agent-side process (the MCP server, the Claude Code hook) reaches the index: through the
// running daemon's socket when one answers, else by opening the index read-only itself. Either way
// every call goes through the same access rules (api/access-policy.ts). A backend that fell back to the
// index keeps trying the socket (at most once a second), so it goes back to the daemon as soon as
// one answers: an MCP server started before the daemon, or across a daemon restart, ends up
// talking to the daemon again without being restarted itself.
import type { MethodName, MethodParams, MethodResults } from '../../shared/api.js';
import { RPC } from '../../shared/rpc.js';
import { createCore, type Core } from '../api/core.js';
import { authenticate, guardedCall, type Principal } from '../api/access-policy.js';
import { connectRpc, RpcCallError, SocketUnavailableError, type RpcClient } from '../client/socket-client.js';
import { defaultDbPath, defaultSocketPath } from '../paths-light.js';
import { defaultSettingsPath } from '../settings.js';
import { NamedError } from '../../shared/errors.js';

export interface BackendOptions {
  socketPath?: string;
  dbPath?: string;
  settingsPath?: string;
  env?: NodeJS.ProcessEnv;
  /** The name shown in the activity log. */
  client: string;
  /** An agent token from settings (default $THROUGHLINE_TOKEN). */
  token?: string;
  /** Never open the index directly (default false). */
  socketOnly?: boolean;
  /** Never try the socket: the caller already found no daemon (default false). */
  direct?: boolean;
  /** Per call through the socket (default 15 s). */
  timeoutMs?: number;
  /** Connecting and authenticating (default 500 ms): a daemon that answers answers within milliseconds. */
  connectTimeoutMs?: number;
  /** After a failed attempt, the socket is tried again no sooner than this (default 1 s). */
  retryMs?: number;
  /** The clock, for tests. */
  now?: () => number;
}

export interface Backend {
  readonly mode: 'socket' | 'direct';
  call<M extends MethodName>(method: M, params: MethodParams<M>): Promise<MethodResults[M]>;
  close(): void;
}

/** Methods that write: the read-only index cannot answer them, only the daemon can. */
const WRITES: ReadonlySet<MethodName> = new Set<MethodName>(['history_handoff', 'ingest.append', 'settings.set']);

export class DaemonNeededError extends NamedError {
  constructor(method: string) {
    super(
      `${method} needs \`throughline serve\` (or the Throughline app) running: it writes to the index, and no Throughline server answered. ` +
        'Start it and call again; searching and reading work without it.',
    );
  }
}

/** The daemon is gone or stuck: a lost connection, or a call it never answered. */
function unreachable(err: unknown): boolean {
  return err instanceof SocketUnavailableError || (err instanceof RpcCallError && err.code === RPC.TIMEOUT);
}

export async function openBackend(options: BackendOptions): Promise<Backend> {
  const backend = createBackend(options);
  await backend.ready();
  return backend;
}

function createBackend(options: BackendOptions): Backend & { ready(): Promise<void> } {
  const env = options.env ?? process.env;
  const socketPath = options.socketPath ?? defaultSocketPath(env);
  const token = options.token ?? (env.THROUGHLINE_TOKEN || undefined);
  const retryMs = options.retryMs ?? 1000;
  const now = options.now ?? Date.now;
  let rpc: RpcClient | null = null;
  let lastAttempt = -Infinity;
  let direct: { core: Core; principal: Principal } | null = null;

  /** The socket, if a daemon answers (tried at most once per retryMs after a failure). */
  async function socket(): Promise<RpcClient | null> {
    if (rpc && !rpc.closed) return rpc;
    rpc = null;
    if (options.direct || now() - lastAttempt < retryMs) return null;
    lastAttempt = now();
    try {
      rpc = await connectRpc(socketPath, { client: options.client, token, timeoutMs: options.timeoutMs, connectTimeoutMs: options.connectTimeoutMs ?? 500 });
      lastAttempt = -Infinity;
      return rpc;
    } catch (err) {
      if (!(err instanceof SocketUnavailableError)) throw err; // a refused token, say: not a reason to fall back
      return null;
    }
  }

  // Opened read-only: another process (a daemon started later) may be writing, and a hook or MCP
  // server must never take a write lock on the user's index. Activity is not recorded in this mode.
  async function openDirect(): Promise<{ core: Core; principal: Principal }> {
    if (direct) return direct;
    const core = createCore({
      dbPath: options.dbPath ?? defaultDbPath(env),
      settingsPath: options.settingsPath ?? defaultSettingsPath(env),
      env,
      sources: [],
      readonly: true,
    });
    try {
      direct = { core, principal: await authenticate(core.api, token, options.client) };
    } catch (err) {
      core.close();
      throw err;
    }
    return direct;
  }

  async function viaSocket<M extends MethodName>(method: M, params: MethodParams<M>): Promise<{ result: MethodResults[M] } | null> {
    // Twice: a connection kept from before a daemon restart fails once, then a fresh one is made.
    for (let attempt = 0; attempt < 2; attempt++) {
      const client = await socket();
      if (!client) return null;
      try {
        return { result: await client.call(method, params) };
      } catch (err) {
        if (!unreachable(err)) throw err;
        client.close();
        rpc = null;
        lastAttempt = now();
      }
    }
    return null;
  }

  return {
    get mode() {
      return rpc && !rpc.closed ? 'socket' : direct ? 'direct' : 'socket';
    },
    async ready() {
      if (!(await socket()) && !options.socketOnly) await openDirect();
    },
    async call<M extends MethodName>(method: M, params: MethodParams<M>): Promise<MethodResults[M]> {
      const answered = await viaSocket(method, params);
      if (answered) return answered.result;
      if (options.socketOnly) throw new SocketUnavailableError(`No Throughline server answers at ${socketPath}.`);
      if (WRITES.has(method)) throw new DaemonNeededError(method);
      const d = await openDirect();
      const outcome = await guardedCall(d.core.api, d.principal, method, params);
      return outcome.result as MethodResults[M];
    },
    close() {
      rpc?.close();
      direct?.core.close();
    },
  };
}

/** A backend that connects on first use, so a server can start before the daemon or the index exists. */
export function lazyBackend(options: BackendOptions): Backend {
  return createBackend(options);
}
