// How an agent-side process (the MCP server, the Claude Code hook) reaches the index: through the
// running daemon's socket when one answers, else by opening the index read-only itself. Either way
// every call goes through the same access rules (access-rpc.ts).
import type { MethodName, MethodParams, MethodResults } from '../../shared/api.js';
import { createCore, type Core } from '../api/core.js';
import { authenticate, guardedCall, type Principal } from '../server/access-rpc.js';
import { connectRpc, SocketUnavailableError, type RpcClient } from '../server/client-rpc.js';
import { defaultSocketPath } from '../server/paths.js';
import { defaultSettingsPath } from '../settings.js';
import { defaultDbPath } from '../store/db.js';

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
  timeoutMs?: number;
}

export interface Backend {
  readonly mode: 'socket' | 'direct';
  call<M extends MethodName>(method: M, params: MethodParams<M>): Promise<MethodResults[M]>;
  close(): void;
}

export async function openBackend(options: BackendOptions): Promise<Backend> {
  const env = options.env ?? process.env;
  const socketPath = options.socketPath ?? defaultSocketPath(env);
  const token = options.token ?? (env.THROUGHLINE_TOKEN || undefined);
  const connect = () => connectRpc(socketPath, { client: options.client, token, timeoutMs: options.timeoutMs, connectTimeoutMs: 500 });

  let rpc: RpcClient | null = null;
  try {
    rpc = await connect();
  } catch (err) {
    if (!(err instanceof SocketUnavailableError) || options.socketOnly) throw err;
  }

  // Opened read-only: another process (a daemon started later) may be writing, and a hook or MCP
  // server must never take a write lock on the user's index. Activity is not recorded in this mode.
  let direct: { core: Core; principal: Principal } | null = null;
  const openDirect = async () => {
    if (direct) return direct;
    const core = createCore({
      dbPath: options.dbPath ?? defaultDbPath(env),
      settingsPath: options.settingsPath ?? defaultSettingsPath(env),
      env,
      sources: [],
      readonly: true,
    });
    const principal = await authenticate(core.api, token, options.client);
    direct = { core, principal };
    return direct;
  };
  if (!rpc) await openDirect();

  return {
    get mode() {
      return rpc && !rpc.closed ? 'socket' : direct ? 'direct' : 'socket';
    },
    async call<M extends MethodName>(method: M, params: MethodParams<M>): Promise<MethodResults[M]> {
      if (rpc) {
        try {
          if (rpc.closed) rpc = await connect();
          return await rpc.call(method, params);
        } catch (err) {
          // The daemon went away (restart, quit): reconnect once, else read the index ourselves.
          if (!(err instanceof SocketUnavailableError)) throw err;
          rpc = null;
          try {
            rpc = await connect();
            return await rpc.call(method, params);
          } catch (again) {
            if (!(again instanceof SocketUnavailableError) || options.socketOnly) throw again;
            rpc = null;
          }
        }
      }
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

/** A backend opened on first use (and retried after a failed open), so a server can start before the index exists. */
export function lazyBackend(options: BackendOptions): Backend {
  let opening: Promise<Backend> | null = null;
  let opened: Backend | null = null;
  return {
    get mode() {
      return opened?.mode ?? 'socket';
    },
    async call(method, params) {
      opening ??= openBackend(options).then(
        (b) => (opened = b),
        (err: Error) => {
          opening = null;
          throw err;
        },
      );
      return (await opening).call(method, params);
    },
    close() {
      opened?.close();
    },
  };
}
