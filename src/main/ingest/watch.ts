// Live indexing: a file change under a source root re-indexes that file within a moment.
// fs.watch gives the fast path; a periodic full scan catches anything it missed (network file
// systems, editors that replace files, events dropped under load).
//
// On Linux, Node 20 emulates fs.watch({ recursive: true }) with one inotify watch per file and per
// folder, set up synchronously with a stat of every file: 1.0 s with the event loop blocked at 10k
// session files, 2.9 s at 50k (BENCHMARKS.md). Agents write their files into a few hundred
// folders, and a folder's watch reports changes to the files in it: so there, each folder is
// watched on its own, and a folder that appears (a new project, Codex's folder for a new day) is
// added with the session files already in it. Elsewhere the platform's recursive watch is used.
//
// The folders are walked a slice at a time (SLICE_MS), so that the daemon keeps answering while the
// watches are set: the walk of 9,500 folders at 10k blocked its event loop ~0.5 s in one piece, and
// another client's status waited that long. A folder the agent writes into only briefly (OpenCode's
// folder per message: 38,852 of the 42,898 folders at 50k, +54 MB of RSS for their watches) is
// watched only when it appears while the watcher runs, and until it has been quiet for
// BRIEF_QUIET_MS; the ones already there are left to the periodic scan.
import fs from 'node:fs';
import path from 'node:path';
import type { Adapter } from './types.js';
import type { Source } from './scan.js';
import type { SourceKind } from '../../shared/types.js';

/** The walk that sets the watches yields to the event loop after this long. */
const SLICE_MS = 5;
/** A brief folder's watch is closed after this long without a change in it. */
export const BRIEF_QUIET_MS = 10 * 60_000;
/**
 * The periodic scan comes rescanMs after the last one ended, or later when scans are long: a scan
 * takes at most 1/RESCAN_SPACING of the time (an unchanged re-scan at 50k is seconds of the main
 * thread's CPU), but never waits more than RESCAN_MAX_MS.
 */
export const RESCAN_SPACING = 20;
export const RESCAN_MAX_MS = 5 * 60_000;

export interface WatchOptions {
  /** Called with a changed session file. */
  onFile: (kind: SourceKind, file: string) => void;
  /** Called for the periodic full scan, and when a root's watch fails; the scan's promise spaces the next one. */
  onRescan: () => void | Promise<unknown>;
  debounceMs?: number;
  rescanMs?: number;
  /** Watch each folder on its own rather than recursively (default: on Linux). */
  perFolder?: boolean;
  /** A brief folder's watch is closed after this long without a change (default BRIEF_QUIET_MS). */
  briefQuietMs?: number;
}

export interface Watcher {
  close(): void;
  /** The folders watched one by one now (tests, the memory bench). */
  folders(): number;
  /** Resolves once the walk that sets the watches has reached every folder found so far. */
  settled(): Promise<void>;
}

/** The session file a changed path stands for (itself, or e.g. the database of a `-wal` file). */
function sessionFileOf(adapter: Adapter, file: string): string | undefined {
  if (adapter.sessionFileOf) return adapter.sessionFileOf(file);
  return adapter.isSessionFile(file) ? file : undefined;
}

/**
 * A folder to watch: `announce` schedules the session files found in it (it appeared while watched);
 * `brief`: one the agent writes into only for a short while (see Adapter.briefFolders).
 */
interface Folder {
  dir: string;
  kind: SourceKind;
  adapter: Adapter;
  announce: boolean;
  brief?: boolean;
}

export function watchSources(sources: readonly Source[], adapters: ReadonlyMap<SourceKind, Adapter>, options: WatchOptions): Watcher {
  const debounceMs = options.debounceMs ?? 100;
  const rescanMs = options.rescanMs ?? 30_000;
  const perFolder = options.perFolder ?? process.platform === 'linux';
  const briefQuietMs = options.briefQuietMs ?? BRIEF_QUIET_MS;
  const pending = new Map<string, { kind: SourceKind; timer: NodeJS.Timeout }>();
  const watchers = new Map<string, fs.FSWatcher>();
  /** Brief folders watched, with when each last changed. */
  const brief = new Map<string, number>();
  const queue: Folder[] = [];
  let walking: Promise<void> | null = null;
  let endWalk = () => {};
  let closed = false;

  const schedule = (kind: SourceKind, file: string) => {
    const prev = pending.get(file);
    if (prev) clearTimeout(prev.timer);
    const timer = setTimeout(() => {
      pending.delete(file);
      options.onFile(kind, file);
    }, debounceMs);
    pending.set(file, { kind, timer });
  };

  const forget = (dir: string) => {
    watchers.get(dir)?.close();
    watchers.delete(dir);
    brief.delete(dir);
  };

  /** Watches one folder and queues the folders in it. */
  const watchFolder = ({ dir, kind, adapter, announce, brief: isBrief }: Folder): void => {
    if (watchers.has(dir)) return;
    const briefInside = adapter.briefFolders?.(dir) === true;
    let items: fs.Dirent[];
    try {
      const w = fs.watch(dir, { persistent: false }, (event, name) => {
        if (brief.has(dir)) brief.set(dir, Date.now());
        if (!name) return void options.onRescan();
        const full = path.join(dir, name.toString());
        const target = sessionFileOf(adapter, full);
        if (target) schedule(kind, target);
        else if (event === 'rename') addedFolder(full, kind, adapter);
      });
      w.on('error', () => {
        // The folder went away (or the watch broke): forget it; the periodic scan covers the rest.
        forget(dir);
        void options.onRescan();
      });
      watchers.set(dir, w);
      if (isBrief) brief.set(dir, Date.now());
      // Its folders already there are left to the periodic scan: not listed (35,766 names at 50k, ~120 ms).
      if (briefInside && !announce) return;
      items = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      return; // gone already, or unreadable: the scan reports what it cannot read
    }
    for (const item of items) {
      const full = path.join(dir, item.name);
      // Folder symlinks are not followed, as in the scan: they can loop.
      if (item.isDirectory()) {
        if (!adapter.skipFolder?.(item.name)) queue.push({ dir: full, kind, adapter, announce, brief: briefInside });
      }
      else if (announce && adapter.isSessionFile(full)) schedule(kind, full);
    }
  };

  /** Watches the queued folders, a slice at a time; the first slice runs at once (a small tree is done in it). */
  const walkSlice = (): void => {
    const started = performance.now();
    while (queue.length && !closed) {
      watchFolder(queue.pop()!);
      if (performance.now() - started >= SLICE_MS && queue.length) {
        setImmediate(walkSlice);
        return;
      }
    }
    queue.length = 0;
    walking = null;
    endWalk();
  };

  /** Watches `dir` and the folders under it. */
  const watchTree = (folder: Folder): void => {
    queue.push(folder);
    if (walking) return;
    walking = new Promise((resolve) => (endWalk = resolve));
    walkSlice();
  };

  /** A name in a watched folder appeared or went away: watch a new folder, forget a removed one. */
  const addedFolder = (full: string, kind: SourceKind, adapter: Adapter): void => {
    let isDir = false;
    try {
      isDir = fs.lstatSync(full).isDirectory();
    } catch {
      // removed: so are the folders under it
      for (const dir of [...watchers.keys()]) {
        if (dir === full || dir.startsWith(full + path.sep)) forget(dir);
      }
    }
    // Files may have been written into it before its watch was set: they are announced.
    if (isDir && !adapter.skipFolder?.(path.basename(full))) watchTree({ dir: full, kind, adapter, announce: true, brief: adapter.briefFolders?.(path.dirname(full)) === true });
  };

  /** A root that is one file (a database): its folder is watched for it and its companions (-wal). */
  const watchFile = (file: string, kind: SourceKind, adapter: Adapter): void => {
    const dir = path.dirname(file);
    try {
      const w = fs.watch(dir, { persistent: false }, (_event, name) => {
        if (!name) return void options.onRescan();
        if (sessionFileOf(adapter, path.join(dir, name.toString())) === file) schedule(kind, file);
      });
      w.on('error', () => void options.onRescan());
      watchers.set(file, w);
    } catch {
      // the periodic scan below still keeps the index current
    }
  };

  for (const source of sources) {
    const adapter = adapters.get(source.kind);
    if (!adapter || !fs.existsSync(source.root)) continue;
    if (fs.statSync(source.root).isFile()) {
      watchFile(source.root, source.kind, adapter);
      continue;
    }
    // A tree that is not the agent's (a folder of repositories for Aider): the periodic scan walks it,
    // and the files it finds come back here one by one.
    if (adapter.sparse) continue;
    if (perFolder) {
      watchTree({ dir: source.root, kind: source.kind, adapter, announce: false });
      continue;
    }
    try {
      const w = fs.watch(source.root, { recursive: true, persistent: false }, (_event, name) => {
        if (!name) return void options.onRescan();
        const target = sessionFileOf(adapter, path.join(source.root, name.toString()));
        if (target) schedule(source.kind, target);
      });
      w.on('error', () => void options.onRescan());
      watchers.set(source.root, w);
    } catch {
      // No recursive watch here: the periodic scan below still keeps the index current.
    }
  }

  /** Closes the watches of brief folders quiet for briefQuietMs. */
  const sweep = setInterval(() => {
    const quietSince = Date.now() - briefQuietMs;
    for (const [dir, changed] of brief) if (changed < quietSince) forget(dir);
  }, Math.min(briefQuietMs, 60_000));
  sweep.unref();

  let rescan: NodeJS.Timeout | null = null;
  const nextRescan = (ms: number) => {
    if (closed) return;
    rescan = setTimeout(periodicScan, ms);
    rescan.unref();
  };
  function periodicScan(): void {
    const started = performance.now();
    void Promise.resolve(options.onRescan())
      .catch(() => {}) // the caller reports its own failures
      .then(() => nextRescan(Math.min(RESCAN_MAX_MS, Math.max(rescanMs, (performance.now() - started) * RESCAN_SPACING))));
  }
  nextRescan(rescanMs);

  return {
    close() {
      closed = true;
      if (rescan) clearTimeout(rescan);
      clearInterval(sweep);
      for (const p of pending.values()) clearTimeout(p.timer);
      pending.clear();
      for (const w of watchers.values()) w.close();
      watchers.clear();
      brief.clear();
      queue.length = 0;
    },
    folders: () => watchers.size,
    settled: () => walking ?? Promise.resolve(),
  };
}
