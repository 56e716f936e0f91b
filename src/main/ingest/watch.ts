// Live indexing: a file change under a source root re-indexes that file within a moment.
// fs.watch (recursive) gives the fast path; a periodic full scan catches anything it missed
// (network file systems, editors that replace files, events dropped under load).
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
}

export interface Watcher {
  close(): void;
}

export function watchSources(sources: readonly Source[], adapters: ReadonlyMap<SourceKind, Adapter>, options: WatchOptions): Watcher {
  const debounceMs = options.debounceMs ?? 100;
  const pending = new Map<string, { kind: SourceKind; timer: NodeJS.Timeout }>();
  const watchers: fs.FSWatcher[] = [];

  const schedule = (kind: SourceKind, file: string) => {
    const prev = pending.get(file);
    if (prev) clearTimeout(prev.timer);
    const timer = setTimeout(() => {
      pending.delete(file);
      options.onFile(kind, file);
    }, debounceMs);
    pending.set(file, { kind, timer });
  };

  for (const source of sources) {
    const adapter = adapters.get(source.kind);
    if (!adapter || !fs.existsSync(source.root)) continue;
    try {
      const w = fs.watch(source.root, { recursive: true, persistent: false }, (_event, name) => {
        if (!name) return options.onRescan();
        const full = path.join(source.root, name.toString());
        if (adapter.isSessionFile(full)) schedule(source.kind, full);
      });
      w.on('error', () => options.onRescan());
      watchers.push(w);
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
      for (const w of watchers) w.close();
    },
  };
}
