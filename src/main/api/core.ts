// The core behind every transport: the index, the indexer and watcher, settings, recall, activity.
// No Electron here: the app, the headless daemon, the CLI and the tests all run this same object.
import fs from 'node:fs';
import type { Access, Api, IndexStatus } from '../../shared/api.js';
import type { SourceKind } from '../../shared/types.js';
import { createRecall, createRecallWrites } from '../recall/index.js';
import { prefetchWordTable } from '../recall/word-neighbors.js';
import { createIndexer, type Indexer, type ScanProgress, type ScanStats, type Source } from '../ingest/scan.js';
import { ADAPTERS, aiderSources, defaultSources } from '../ingest/sources.js';
import { watchSources, type Watcher } from '../ingest/watch.js';
import { ACTIVITY_FLUSH_MS, createActivityLog, type ActivityLog } from '../store/activity.js';
import { openDb, requireWritable, type ReadableDb, type WritableDb } from '../store/db.js';
import { createReader } from '../store/read.js';
import { memoByContent } from '../store/content-version.js';
import { createCounts, createSourceFileCounts, indexBytes, indexStats, keptCounts, recentErrors } from '../store/stats.js';
import { carryHandoffs, type Carried } from '../store/carry-handoffs.js';
import { createStemmer, type Stemmer } from '../store/search.js';
import type { Counts } from '../store/interface.js';
import { createWriter } from '../store/writer.js';
import { createSettingsStore } from '../settings.js';
import { createExclusions, type Exclusions } from '../privacy.js';
import { createExclusionKeeper } from '../store/exclusions.js';
import { scrub } from '../store/forget.js';
import { createApi, type WriteSide } from './methods.js';
import { localReads, type Reads } from './read-calls.js';
import { releaseAfterScan } from './after-scan.js';
import { createReadPool, type PoolLog, type ReadPool } from './read-pool.js';
import { checkpointOnReaders, type WalCheckpoints } from './checkpoints.js';

export interface CoreOptions {
  dbPath: string;
  settingsPath: string;
  env?: NodeJS.ProcessEnv;
  /**
   * Explicit sources; otherwise the agents' defaults, the enabled sources in settings and the Aider
   * histories in the workspaces the index knows.
   */
  sources?: Source[];
  readonly?: boolean;
  /**
   * Every call is a person's own request (the CLI): autoRecall, which governs what is offered to
   * agents unasked, does not hold back `suggest`.
   */
  explicitRequests?: boolean;
  nativeBinding?: string;
  /** SQLite's page cache for the core's connection, KiB (openDb's default when absent; the daemon keeps less). */
  cacheKiB?: number;
  /**
   * Where failures of background indexing (the watcher, the periodic rescan) go, e.g. the daemon's
   * log. They never end the process: a full disk or a read-only index must not take the socket down.
   */
  onError?: (err: Error) => void;
}

export interface Core {
  api: Api;
  /**
   * The index as a readable handle, for tests to look inside; nothing in src/ reads it outside this
   * file (test/structure/sql-in-store.test.ts): the core's parts are the store's declared ones.
   */
  db: ReadableDb;
  /** What the index holds, counted (store/interface.ts Counts). */
  counts: Counts;
  /** The index's own stems for tokens, to match a query in a text as recall matches it. */
  stem: Stemmer;
  /** Copies the handoffs of the old index at `oldFile` into this one (a rebuild): they are in no session file. Writable cores only. */
  carryHandoffs(oldFile: string): Carried;
  /** The log of agents' calls a socket server records into (writable cores only: StoreError 'readonly' otherwise). */
  activity(): ActivityLog;
  sources(): Source[];
  /**
   * Indexes everything new (yielding to the event loop between files). `onProgress` hears this scan
   * only: a call made while one runs joins it (and queues another) without hearing it.
   */
  scan(options?: { onProgress?: (p: ScanProgress) => void }): Promise<ScanStats>;
  /** Scans once, then keeps the index current as files change: resolves once every folder found is watched. */
  watch(): Promise<void>;
  setSocketPath(path: string | null): void;
  /**
   * Moves recall's read calls onto `count` reader threads (read-pool.ts); the daemon does this. The
   * same pool on a second call; none for 0 or an in-memory index. Closed with the core.
   */
  startReaders(count: number, log?: PoolLog, startDelayMs?: number, afterReaderStart?: () => void): ReadPool | null;
  /** Reads ahead, off the event loop, what a first recall call needs (the word table); the daemon does this as it starts. */
  prefetch(): Promise<void>;
  close(): void;
}

function isDirectory(p: string): boolean {
  try {
    return fs.statSync(p).isDirectory();
  } catch {
    return false;
  }
}

function isFile(p: string): boolean {
  try {
    return fs.statSync(p).isFile();
  } catch {
    return false;
  }
}

export function createCore(options: CoreOptions): Core {
  const env = options.env ?? process.env;
  const db = openDb(options.dbPath, { readonly: options.readonly, nativeBinding: options.nativeBinding, cacheKiB: options.cacheKiB });
  const settings = createSettingsStore(options.settingsPath);
  let exclusions: Exclusions = createExclusions(settings.get().exclusions);
  const current = () => exclusions;
  const reader = createReader(db);
  let writeSide: WriteSide | null = null;
  const writes = once(() => (writeSide = createWriteSide(requireWritable(db), current, (err) => options.onError?.(err))));
  const flushActivity = (): void => writeSide?.activity.flush();
  // Nothing seen yet: the first answer or file takes in the settings as they are, so an exclusion
  // written while no daemon ran (a hand edit) removes what it covers before anything is answered.
  let settingsSeen: string | null = null;

  /**
   * Takes in a settings change made elsewhere (a CLI `forget`, a hand edit, another window) before
   * the next answer or file: the exclusions are re-read, what they newly cover leaves the index, and
   * what an exclusion no longer covers is read again. One stat when nothing changed. Called between
   * calls and files, never inside a transaction.
   */
  function applySettings(): void {
    if (takeInSettings()) void scan().catch(backgroundError);
  }
  /** applySettings without the scan: true when what an exclusion no longer covers is to be read again. */
  function takeInSettings(): boolean {
    const stamp = settingsStamp(options.settingsPath);
    if (stamp === settingsSeen) return false;
    settingsSeen = stamp;
    exclusions = createExclusions(settings.get().exclusions);
    if (options.readonly) return false;
    const side = writes();
    const { forgotten, lifted } = side.keeper.reconcile(exclusions);
    if (forgotten.conversations.length) scrub(side.db);
    return lifted > 0;
  }
  const recall = createRecall(db);
  const local = localReads(recall);
  let pool: ReadPool | null = null;
  let walCheckpoints: WalCheckpoints | null = null;
  const reads = (): Reads => pool?.reads ?? local;
  let progress: ScanProgress | null = null;
  let scanning: Promise<ScanStats> | null = null;
  let rescanQueued = false;
  let watcher: Watcher | null = null;
  let socketPath: string | null = null;
  const backgroundError = (err: unknown): void => options.onError?.(err as Error);

  /** Aider's history files found by the last scan in the index's workspaces (see aider-sources.ts). */
  let aiderFound: Source[] = [];
  const disabledSources = () => new Set(settings.get().sources.filter((s) => !s.enabled).map((s) => `${s.kind}:${s.path}`));
  const sources = (): Source[] => {
    if (options.sources) return options.sources;
    const configured = settings.get().sources.filter((s) => s.enabled);
    const fromSettings = configured.map((s) => ({ kind: s.kind, root: s.path }));
    const disabled = disabledSources();
    const found = [...defaultSources(env), ...aiderFound].filter((s) => !disabled.has(`${s.kind}:${s.root}`));
    const seen = new Set<string>();
    return [...found, ...fromSettings].filter((s) => !seen.has(`${s.kind}:${s.root}`) && seen.add(`${s.kind}:${s.root}`));
  };
  /** Asked once a scan has indexed the other sources: their workspaces may hold Aider histories. */
  const findAider = (): Source[] => {
    const disabled = disabledSources();
    aiderFound = aiderSources(db, env).filter((s) => !disabled.has(`${s.kind}:${s.root}`));
    return aiderFound;
  };

  function scan(scanOptions: { onProgress?: (p: ScanProgress) => void } = {}): Promise<ScanStats> {
    if (scanning) {
      rescanQueued = true;
      return scanning;
    }
    let indexer: Indexer;
    try {
      // This scan reads again whatever a lifted exclusion frees: no second one for it (it would race this one).
      takeInSettings();
      indexer = writes().indexer;
    } catch (err) {
      return Promise.reject(err);
    }
    const onProgress = (p: ScanProgress) => {
      progress = p;
      scanOptions.onProgress?.(p);
    };
    scanning = indexer
      .scanAsync(sources(), { onProgress, followUp: options.sources ? undefined : findAider })
      .then((stats) => {
        // The daemon re-scans every 30 s or more: the page cache it filled is handed back (after-scan.ts).
        releaseAfterScan(db, stats.files);
        return stats;
      })
      .finally(() => {
        scanning = null;
        progress = null;
        // A scan may have found sources the watcher does not watch yet (an Aider history in a new workspace).
        if (watcher && watchedKey !== sourcesKey()) startWatcher();
        if (rescanQueued) {
          rescanQueued = false;
          void scan().catch(backgroundError);
        }
      });
    return scanning;
  }

  const fileCounts = createSourceFileCounts(db);
  // The counts are kept by the index itself (store/stats.ts keptCounts) and read again only once
  // something was written (content-version.ts), so a status between two writes costs microseconds and
  // one right after a write a few rows.
  const counted = memoByContent(db, () => {
    const kept = keptCounts(db);
    // The same counts as `throughline index` and `stats` (store/stats.ts).
    return { stats: indexStats(db, options.dbPath, kept), fileRows: kept.fileRows, errors: recentErrors(db, 50) };
  });
  // The files under each folder, counted over the path index (5 ms for OpenCode's 34,000 at 10k):
  // again only once a file's row was added or removed, not after each append or commit.
  let folderFiles = { fileRows: -1, under: new Map<string, number>() };
  function status(): IndexStatus {
    const bytes = progress?.bytes ?? 0;
    const secs = (progress?.elapsedMs ?? 0) / 1000;
    const now = counted.get();
    if (folderFiles.fileRows !== now.fileRows) folderFiles = { fileRows: now.fileRows, under: new Map() };
    const { errors: errorCount, ...stats } = now.stats;
    return {
      db: options.dbPath,
      ...stats,
      bytes: indexBytes(options.dbPath),
      errors: now.errors,
      errorCount,
      indexing: progress
        ? { active: true, filesDone: progress.filesDone, filesTotal: progress.filesTotal, entries: progress.entries, bytes, rateMBps: secs > 0 ? bytes / 1048576 / secs : 0 }
        : null,
      socket: socketPath,
      folders: sources().map((s) => folderStatus(s, folderFiles.under)),
    };
  }

  /** A source as the status shows it: a folder (its indexed files, counted once per change of the files' rows), or one file (a database, a history). */
  function folderStatus(s: Source, files: Map<string, number>): IndexStatus['folders'][number] {
    if (isFile(s.root)) return { kind: s.kind, path: s.root, found: true, files: fileCounts.indexed(s.root) ? 1 : 0 };
    let n = files.get(s.root);
    if (n === undefined) files.set(s.root, (n = fileCounts.under(s.root)));
    return { kind: s.kind, path: s.root, found: isDirectory(s.root), files: n };
  }

  const api = afterSettings(createApi({ db, reader, writes, recall, reads, settings, status, flushActivity, env, explicitRequests: options.explicitRequests }), applySettings);

  let watchedKey = '';
  const sourcesKey = () => JSON.stringify(sources());
  function startWatcher(): void {
    watcher?.close();
    watchedKey = sourcesKey();
    watcher = watchSources(sources(), ADAPTERS, {
      onFile: (kind: SourceKind, file: string) => {
        try {
          applySettings();
          if (fs.existsSync(file)) writes().indexer.indexFile(kind, file);
          else void scan().catch(backgroundError);
        } catch (err) {
          backgroundError(err);
        }
      },
      onRescan: () => scan().catch(backgroundError),
    });
  }

  return {
    api,
    db,
    counts: createCounts(db),
    stem: createStemmer(db),
    carryHandoffs: (oldFile) => carryHandoffs(oldFile, writes().db),
    activity: () => writes().activity,
    sources,
    scan,
    async watch() {
      await scan();
      startWatcher();
      // The watches are set a slice at a time (watch.ts): a file written to after this resolves must
      // be in a watched folder, or its change waits for the periodic scan.
      await watcher?.settled();
    },
    setSocketPath(path) {
      socketPath = path;
    },
    startReaders(count, log, startDelayMs, afterReaderStart) {
      if (pool || count < 1 || options.dbPath === ':memory:' || options.dbPath === '') return pool;
      let wal: WalCheckpoints | null = null;
      pool = createReadPool({
        dbPath: options.dbPath,
        nativeBinding: options.nativeBinding,
        size: count,
        fallback: local,
        log,
        startDelayMs,
        afterReaderStart,
        onReadyChange: (ready) => wal?.readersReady(ready),
        onCheckpoint: (result) => wal?.checkpointed(result),
      });
      // The writer's checkpoints move to the readers while one is ready (checkpoints.ts).
      if (!options.readonly) walCheckpoints = wal = checkpointOnReaders(requireWritable(db), pool, log);
      return pool;
    },
    prefetch: prefetchWordTable,
    close() {
      watcher?.close();
      walCheckpoints?.close();
      void pool?.close();
      pool = null;
      try {
        flushActivity();
      } catch (err) {
        backgroundError(err);
      }
      db.close();
    },
  };
}

function createWriteSide(db: WritableDb, exclusions: () => Exclusions, onError: (err: Error) => void): WriteSide {
  const writer = createWriter(db, { exclusions });
  return {
    db,
    writer,
    keeper: createExclusionKeeper(db, writer),
    indexer: createIndexer(db, ADAPTERS, { exclusions }),
    recall: createRecallWrites(db),
    // Held a moment and written together: the daemon notes every call it answers.
    activity: createActivityLog(db, { flushMs: ACTIVITY_FLUSH_MS, onError }),
  };
}

/** `make`'s value, made on the first call; a failure is not kept (the next call tries again). */
function once<T>(make: () => T): () => T {
  let made: { value: T } | null = null;
  return () => (made ??= { value: make() }).value;
}

/** The settings file as last written: a change of any kind (they are replaced by rename) changes it. */
function settingsStamp(file: string): string {
  try {
    const st = fs.statSync(file);
    return `${st.ino}:${st.size}:${st.mtimeMs}`;
  } catch {
    return 'none';
  }
}

/** Every method, with the settings taken in before it runs and after (it may have changed them). */
function afterSettings(api: Api, apply: () => void): Api {
  const wrapped: Record<string, (params: unknown, access?: Access) => Promise<unknown>> = {};
  for (const [name, method] of Object.entries(api) as [string, (params: unknown, access?: Access) => Promise<unknown>][]) {
    wrapped[name] = async (params, access) => {
      apply();
      try {
        return await method(params, access);
      } finally {
        apply();
      }
    };
  }
  return wrapped as unknown as Api;
}
