// The headless daemon (`throughline serve`), and the same server inside the Electron main process:
// open the index, listen on the agent socket, then index and watch in the background. The socket
// answers before the first scan finishes (scan() yields between files), so agents never wait on it.
import fs from 'node:fs';
import path from 'node:path';
import { createCore, type Core } from '../api/core.js';
import { defaultReaderCount, type ReadPool } from '../api/read-pool.js';
import type { Source } from '../ingest/scan.js';
import { defaultSettingsPath } from '../settings.js';
import { defaultDbPath } from '../store/db.js';
import { defaultLogPath, defaultSocketPath } from '../paths-light.js';
import { startSocketServer, type LogFn } from '../server/socket.js';
import { holdHeapGrowth } from './heap-growth.js';

const WATCH_DELAY_MS = 150;
/**
 * The reader threads start this long after the socket. Each takes ~250 ms of CPU to start (its modules,
 * its connection, the word table it loads before it says ready): started with the socket, two of them
 * took that CPU from the daemon's first answer (2 cores: 860 vs 530 ms of CPU before it at 10k,
 * BENCHMARKS.md), which the main thread gives anyway while no reader is ready.
 */
export const READERS_DELAY_MS = 1000;

/**
 * The page cache of the daemon's own connection (its writer), KiB; openDb's default is 32 MB. A
 * re-scan fills it every 30 s and the after-scan release (api/after-scan.ts) empties it, but the
 * allocator keeps the freed pages: at 10k the daemon's malloc heap stayed at 38 MB with 32 MB against
 * 13 MB with 8, and its RSS at rest at 180 against 130 MB (BENCHMARKS.md, issue 16). An unchanged 10k
 * re-scan and a cold 1k index took no more CPU with 8 MB (the pages come from the OS's file cache).
 */
export const DAEMON_CACHE_KIB = 8_000;

export interface DaemonOptions {
  /** Run over an existing core (the Electron app's); otherwise one is created from dbPath/settingsPath. */
  core?: Core;
  dbPath?: string;
  settingsPath?: string;
  socketPath?: string;
  env?: NodeJS.ProcessEnv;
  sources?: Source[];
  /** Index and watch the sources (default true). An app that runs core.watch() itself passes false. */
  watch?: boolean;
  /** A log file path, a log function, or false for none (default: $XDG_STATE_HOME/throughline/daemon.log). */
  log?: string | LogFn | false;
  /** Serve the UI over localhost HTTP too (`serve --ui`). */
  http?: { host?: string; port?: number; token?: string; rendererDir?: string; allowRemote?: boolean };
  timeoutMs?: number;
  /** Reader threads answering recall's read calls (default: defaultReaderCount, 1; 0 = on the event loop). */
  readers?: number;
}

export interface Daemon {
  socketPath: string;
  core: Core;
  /** The HTTP bridge's URL when `http` was given. */
  httpUrl: string | null;
  log: LogFn;
  /** The reader threads, when they run. */
  readers: ReadPool | null;
  close(): Promise<void>;
}

/** Appends timestamped lines; a log over 10 MB is rotated to .1 when the daemon starts. */
export function fileLogger(file: string): LogFn {
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  try {
    if (fs.statSync(file).size > 10 * 1024 * 1024) fs.renameSync(file, file + '.1');
  } catch {
    // no log yet
  }
  return (level, message) => {
    try {
      fs.appendFileSync(file, `${new Date().toISOString()} ${level.toUpperCase()} ${message}\n`, { mode: 0o600 });
    } catch {
      // A full disk must not take the daemon down with it.
    }
  };
}

export async function startDaemon(options: DaemonOptions = {}): Promise<Daemon> {
  const env = options.env ?? process.env;
  const log: LogFn = typeof options.log === 'function' ? options.log : options.log === false ? () => {} : fileLogger(options.log ?? defaultLogPath(env));
  const socketPath = options.socketPath ?? defaultSocketPath(env);
  const ownCore = !options.core;
  const core =
    options.core ??
    createCore({
      dbPath: options.dbPath ?? defaultDbPath(env),
      settingsPath: options.settingsPath ?? defaultSettingsPath(env),
      env,
      sources: options.sources,
      cacheKiB: DAEMON_CACHE_KIB,
      onError: (err) => log('error', `indexing: ${err.message}`),
    });

  // The first suggest reads the 5 MB word table: read while the socket is set up, off the event loop.
  void core.prefetch();
  let socket;
  try {
    socket = await startSocketServer({ socketPath, api: core.api, activity: core.activity(), log, timeoutMs: options.timeoutMs });
  } catch (err) {
    if (ownCore) core.close();
    throw err;
  }
  core.setSocketPath(socketPath);
  log('info', `serving agents on ${socketPath} (pid ${process.pid})`);

  let http: { url: string; close(): Promise<void> } | null = null;
  if (options.http) {
    try {
      // Loaded only when asked for, so the plain daemon starts without the UI bridge's code.
      const { startHttpBridge } = await import('../server/http.js');
      http = await startHttpBridge(core.api, options.http);
      // The log is no place for the token (it is kept, rotated, pasted into bug reports).
      log('info', `UI at ${http.url.replace(/\?token=.*$/, '')} (the token was printed to the terminal only)`);
    } catch (err) {
      await socket.close();
      if (ownCore) core.close();
      throw err;
    }
  }

  // Recall's reads move to their own threads once these are up (the calls before that are answered here).
  // The heaps' growth held from here on (heap-growth.ts), and again after each reader's start.
  holdHeapGrowth();
  const readers = core.startReaders(options.readers ?? defaultReaderCount(env), log, READERS_DELAY_MS, holdHeapGrowth);
  void readers?.ready().then((n) => log('info', `${n} reader thread${n === 1 ? '' : 's'} answering recall's reads`));

  let stopped = false;
  let watchTimer: NodeJS.Timeout | null = null;
  if (options.watch !== false) {
    // Started a moment later: finding the session files is one synchronous walk (hundreds of ms on a
    // large corpus), and an agent already waiting for the socket should be answered before it.
    watchTimer = setTimeout(() => {
      watchTimer = null;
      const started = Date.now();
      core.watch().then(
        () => log('info', `initial scan done in ${Date.now() - started} ms; watching for changes`),
        (err: Error) => {
          if (!stopped) log('error', `indexing failed: ${err.stack ?? err.message}`);
        },
      );
    }, WATCH_DELAY_MS);
  }

  let closing: Promise<void> | null = null;
  return {
    socketPath,
    core,
    httpUrl: http?.url ?? null,
    log,
    readers,
    close() {
      closing ??= (async () => {
        stopped = true;
        if (watchTimer) clearTimeout(watchTimer);
        await http?.close().catch((err: Error) => log('warn', `UI bridge close: ${err.message}`));
        await socket.close();
        core.setSocketPath(null);
        // The app's core outlives its daemon: the readers this daemon started stop with it.
        if (ownCore) core.close();
        else await readers?.close();
        log('info', 'stopped');
      })();
      return closing;
    },
  };
}
