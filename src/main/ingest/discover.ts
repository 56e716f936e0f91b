// Finding the session files under each source, and marking the files that disappeared as missing.
import fs from 'node:fs';
import path from 'node:path';
import type { SourceKind } from '../../shared/types.js';
import type { Db } from '../store/db.js';
import { createFileStates, type FileState } from '../store/file-states.js';
import type { KnownFiles } from './index-file.js';
import { report, type ScanStats } from './scan-stats.js';
import type { Adapter } from './types.js';

export interface Source {
  kind: SourceKind;
  root: string;
}

/** A file to index and the kind of source it was found under. */
export interface WorkItem {
  kind: SourceKind;
  file: string;
}

export function createDiscovery(db: Db, adapters: ReadonlyMap<SourceKind, Adapter>, excluded: (file: string) => boolean) {
  const states = createFileStates(db);

  function walk(dir: string, adapter: Adapter, out: string[], stats: ScanStats): void {
    let items: fs.Dirent[];
    try {
      items = fs.readdirSync(dir, { withFileTypes: true });
    } catch (err) {
      report(stats, { path: dir, line: null, reason: `cannot read folder: ${(err as Error).message}` });
      return;
    }
    // In name order, or the adapter's: agents that spread a conversation over many files (OpenCode)
    // append its entries in the order their files are read.
    items.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    if (adapter.orderFolder) {
      const byName = new Map(items.map((item) => [item.name, item]));
      items = adapter.orderFolder(dir, items.map((item) => item.name)).map((name) => byName.get(name)!);
    }
    for (const item of items) {
      const full = path.join(dir, item.name);
      // Directory symlinks are not followed: they can loop, and agents do not write them.
      if (item.isDirectory()) {
        if (!adapter.skipFolder?.(item.name)) walk(full, adapter, out, stats);
      }
      // Anything else named like a session (a file, a link, a FIFO…) goes to indexFile, which reads only
      // regular files and records the rest.
      else if (adapter.isSessionFile(full) && !excluded(full)) out.push(full);
    }
  }

  /**
   * The session files under each source, in order, and the stored rows of those already indexed (a
   * row that changes meanwhile no longer matches the file's stat and is read afresh, so a stale one
   * can only cost a query, not a skip).
   */
  function discover(sources: readonly Source[], stats: ScanStats): { work: WorkItem[]; known: KnownFiles } {
    const work: WorkItem[] = [];
    const known = new Map<string, FileState>();
    for (const source of sources) {
      const adapter = adapters.get(source.kind);
      if (!adapter) throw new Error(`No adapter for source kind ${source.kind}`);
      const root = path.resolve(source.root);
      const found: string[] = [];
      if (fs.existsSync(root)) {
        if (fs.statSync(root).isFile()) found.push(root);
        else walk(root, adapter, found, stats);
      }
      const seen = new Set(found);
      // A session file that disappeared keeps its conversations; only the file is marked missing.
      for (const f of states.under(root)) {
        if (seen.has(f.path)) known.set(f.path, f);
        else if (f.status !== 'missing') {
          states.markMissing(f.id);
          stats.missing++;
        }
      }
      for (const file of found) work.push({ kind: source.kind, file });
    }
    return { work, known };
  }

  return { discover };
}
