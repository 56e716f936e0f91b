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

/**
 * Time for connecting and `auth` before the index is read as well. A daemon answers `auth` once its
 * event loop is free: in a millisecond or two at rest, but at 50k conversations a call it answers
 * there while its reader thread starts (the first after its start or after an idle minute) holds the
 * loop ~450 ms (BENCHMARKS.md, "The daemon, stop 27"). Past this, the hook starts its fallback and
 * keeps waiting: whichever answers first is used. A stopped daemon (SIGSTOP) still costs 300 ms.
 */
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
 * A daemon that does not complete the handshake within HANDSHAKE_MS is not given up on: the index
 * is read meanwhile and the first answer wins (a daemon busy ~450 ms at 50k answered late and the
 * hook, having hung up, read the index itself instead).
 */
export function hookSuggest(
  params: SuggestParams,
  client: string,
  options: HookOptions,
  deadline: number,
  fallback: () => Promise<boolean>,
): Promise<SuggestResult | null> {
  const paths = resolvePaths(options);
  return new Promise<SuggestResult | null>((resolve, reject) => {
    let settled = false;
    const settle = (fn: () => void): void => {
      if (!settled) {
        settled = true;
        fn();
      }
    };
    /** The daemon's failure once it failed; the fallback's state. */
    let daemonError: unknown = null;
    let side: 'none' | 'running' | { declined: true } | { error: unknown } = 'none';
    /**
     * Both ways are spent: the daemon's error, or the fallback's when the daemon was simply absent. A
     * daemon that refused the call fails it at once, unless the index is being read (it may answer).
     */
    const bothSpent = (): void => {
      if (daemonError === null || side === 'running') return;
      if (!(daemonError instanceof DaemonUnavailable)) return settle(() => reject(daemonError));
      if (side === 'none') return;
      if ('declined' in side) return settle(() => resolve(null));
      const err = side.error;
      settle(() => reject(err));
    };
    const readIndex = (): void => {
      if (side !== 'none' || settled) return;
      side = 'running';
      void (async () => {
        if (!(await fallback())) return null;
        const direct = await (options.loadDirect ?? (async () => (await import('./direct.js')).directSuggest))();
        return direct({ dbPath: paths.dbPath, settingsPath: paths.settingsPath, env: paths.env, client }, params);
      })().then(
        (result) => {
          if (result) return settle(() => resolve(result));
          side = { declined: true };
          bothSpent();
        },
        (err: unknown) => {
          side = { error: err };
          bothSpent();
        },
      );
    };
    callDaemon<SuggestResult>('suggest', params, {
      socketPath: paths.socketPath,
      client,
      token: paths.env.THROUGHLINE_TOKEN || undefined,
      handshakeMs: Math.min(HANDSHAKE_MS, Math.max(0, deadline - Date.now())),
      deadline,
      onSlow: readIndex,
    }).then(
      (result) => settle(() => resolve(result)),
      (err: unknown) => {
        daemonError = err;
        if (err instanceof DaemonUnavailable) readIndex();
        bothSpent();
      },
    );
  });
}
