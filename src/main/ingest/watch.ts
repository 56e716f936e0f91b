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
import fs from 'node:fs';
import path from 'node:path';
import type { Adapter } from './types.js';
import type { Source } from './scan.js';
import type { SourceKind } from '../../shared/types.js';

export interface WatchOptions {
  /** Called with a changed session file. */
  onFile: (kind: SourceKind, file: string) => void;
  /** Called for the periodic full scan, and when a root's watch fails. */
  onRescan: () => void;
  debounceMs?: number;
  rescanMs?: number;
  /** Watch each folder on its own rather than recursively (default: on Linux). */
  perFolder?: boolean;
}

export interface Watcher {
  close(): void;
}

/** The session file a changed path stands for (itself, or e.g. the database of a `-wal` file). */
function sessionFileOf(adapter: Adapter, file: string): string | undefined {
  if (adapter.sessionFileOf) return adapter.sessionFileOf(file);
  return adapter.isSessionFile(file) ? file : undefined;
}

export function watchSources(sources: readonly Source[], adapters: ReadonlyMap<SourceKind, Adapter>, options: WatchOptions): Watcher {
  const debounceMs = options.debounceMs ?? 100;
  const perFolder = options.perFolder ?? process.platform === 'linux';
  const pending = new Map<string, { kind: SourceKind; timer: NodeJS.Timeout }>();
  const watchers = new Map<string, fs.FSWatcher>();

  const schedule = (kind: SourceKind, file: string) => {
    const prev = pending.get(file);
    if (prev) clearTimeout(prev.timer);
    const timer = setTimeout(() => {
      pending.delete(file);
      options.onFile(kind, file);
    }, debounceMs);
    pending.set(file, { kind, timer });
  };

  /** Watches `dir` and the folders under it; with `announce`, schedules the session files found there. */
  const watchTree = (dir: string, kind: SourceKind, adapter: Adapter, announce: boolean): void => {
    if (watchers.has(dir)) return;
    let items: fs.Dirent[];
    try {
      const w = fs.watch(dir, { persistent: false }, (event, name) => {
        if (!name) return options.onRescan();
        const full = path.join(dir, name.toString());
        const target = sessionFileOf(adapter, full);
        if (target) schedule(kind, target);
        else if (event === 'rename') addedFolder(full, kind, adapter);
      });
      w.on('error', () => {
        // The folder went away (or the watch broke): forget it; the periodic scan covers the rest.
        w.close();
        watchers.delete(dir);
        options.onRescan();
      });
      watchers.set(dir, w);
      items = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      return; // gone already, or unreadable: the scan reports what it cannot read
    }
    for (const item of items) {
      const full = path.join(dir, item.name);
      // Folder symlinks are not followed, as in the scan: they can loop.
      if (item.isDirectory()) {
        if (!adapter.skipFolder?.(item.name)) watchTree(full, kind, adapter, announce);
      }
      else if (announce && adapter.isSessionFile(full)) schedule(kind, full);
    }
  };

  /** A name in a watched folder appeared or went away: watch a new folder, forget a removed one. */
  const addedFolder = (full: string, kind: SourceKind, adapter: Adapter): void => {
    let isDir = false;
    try {
      isDir = fs.lstatSync(full).isDirectory();
    } catch {
      // removed: so are the folders under it
      for (const [dir, w] of watchers) {
        if (dir === full || dir.startsWith(full + path.sep)) {
          w.close();
          watchers.delete(dir);
        }
      }
    }
    // Files may have been written into it before its watch was set: they are announced.
    if (isDir && !adapter.skipFolder?.(path.basename(full))) watchTree(full, kind, adapter, true);
  };

  /** A root that is one file (a database): its folder is watched for it and its companions (-wal). */
  const watchFile = (file: string, kind: SourceKind, adapter: Adapter): void => {
    const dir = path.dirname(file);
    try {
      const w = fs.watch(dir, { persistent: false }, (_event, name) => {
        if (!name) return options.onRescan();
        if (sessionFileOf(adapter, path.join(dir, name.toString())) === file) schedule(kind, file);
      });
      w.on('error', () => options.onRescan());
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
      watchTree(source.root, source.kind, adapter, false);
      continue;
    }
    try {
      const w = fs.watch(source.root, { recursive: true, persistent: false }, (_event, name) => {
        if (!name) return options.onRescan();
        const target = sessionFileOf(adapter, path.join(source.root, name.toString()));
        if (target) schedule(source.kind, target);
      });
      w.on('error', () => options.onRescan());
      watchers.set(source.root, w);
    } catch {
      // No recursive watch here: the periodic scan below still keeps the index current.
    }
  }
  const rescan = setInterval(options.onRescan, options.rescanMs ?? 30_000);
  rescan.unref();

  return {
    close() {
      clearInterval(rescan);
      for (const p of pending.values()) clearTimeout(p.timer);
      pending.clear();
      for (const w of watchers.values()) w.close();
      watchers.clear();
    },
  };
}
