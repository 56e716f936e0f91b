// What a turn-start hook asks: `suggest` through the daemon when one answers, else from the index
// opened read-only (loaded only then: it needs SQLite and zod, which the common path never loads).
import type { SuggestParams, SuggestResult } from '../../shared/api.js';
import { defaultDbPath, defaultSettingsPath, defaultSocketPath } from '../paths-light.js';
import { callDaemon, DaemonUnavailable } from './daemon-call.js';

export interface DirectOptions {
  dbPath: string;
  settingsPath: string;
  env: NodeJS.ProcessEnv;
  client: string;
}
/** Answers a suggest from the index itself (hook/direct.ts). */
export type DirectSuggest = (options: DirectOptions, params: SuggestParams) => Promise<SuggestResult>;

export interface HookOptions {
  env?: NodeJS.ProcessEnv;
  socketPath?: string;
  dbPath?: string;
  settingsPath?: string;
  /** The whole hook's time (ms, default 2000): connect, auth, call and fallback together. */
  budgetMs?: number;
  /** Loads the read-only fallback (default: hook/direct.ts). */
  loadDirect?: () => Promise<DirectSuggest>;
}

/** Time for connecting and `auth`: a daemon that answers does so in a millisecond or two. */
export const HANDSHAKE_MS = 300;
export const DEFAULT_BUDGET_MS = 2000;

export interface Resolved {
  env: NodeJS.ProcessEnv;
  socketPath: string;
  dbPath: string;
  settingsPath: string;
}

export function resolvePaths(options: HookOptions): Resolved {
  const env = options.env ?? process.env;
  return {
    env,
    socketPath: options.socketPath ?? defaultSocketPath(env),
    dbPath: options.dbPath ?? defaultDbPath(env),
    settingsPath: options.settingsPath ?? defaultSettingsPath(env),
  };
}

/**
 * `suggest` for a hook before `deadline`. `fallback` says whether the read-only index may answer
 * when no daemon does; it returns null when it may not (see the every-message mode in run.ts).
 */
export async function hookSuggest(
  params: SuggestParams,
  client: string,
  options: HookOptions,
  deadline: number,
  fallback: () => Promise<boolean>,
): Promise<SuggestResult | null> {
  const paths = resolvePaths(options);
  try {
    return await callDaemon<SuggestResult>('suggest', params, {
      socketPath: paths.socketPath,
      client,
      token: paths.env.THROUGHLINE_TOKEN || undefined,
      handshakeMs: Math.min(HANDSHAKE_MS, Math.max(0, deadline - Date.now())),
      deadline,
    });
  } catch (err) {
    if (!(err instanceof DaemonUnavailable)) throw err;
    if (!(await fallback())) return null;
    const direct = await (options.loadDirect ?? (async () => (await import('./direct.js')).directSuggest))();
    return direct({ dbPath: paths.dbPath, settingsPath: paths.settingsPath, env: paths.env, client }, params);
  }
}
