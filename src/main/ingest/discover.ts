// Finding the session files under each source, a chunk at a time with the stored rows of those
// already indexed, and marking the files that disappeared as missing. Nothing here holds every
// file's path or row at once: the walk is a generator, the rows are read per chunk, and the files
// that disappeared are told by a count (see markMissingUnder).
import fs from 'node:fs';
import path from 'node:path';
import type { SourceKind } from '../../shared/types.js';
import type { Db } from '../store/db.js';
import { createFileStates, type FileState } from '../store/file-states.js';
import type { KnownFiles } from './index-file.js';
import { report, type ScanStats } from './scan-stats.js';
import type { Adapter, StoredStates } from './types.js';

export interface Source {
  kind: SourceKind;
  root: string;
}

/** A file to index and the kind of source it was found under. */
export interface WorkItem {
  kind: SourceKind;
  file: string;
}

/** Files found in walk order, with the rows of those already indexed. */
export interface Chunk {
  work: WorkItem[];
  known: KnownFiles;
}

/** Files looked up in the index at once (one statement): a scan holds at most this many rows. */
export const CHUNK_FILES = 500;
/** Rows read at once when looking for the files that disappeared. */
const MISSING_PAGE = 500;
/** Folder listings kept while looking for those: the folders on the way to the current path. */
const LISTINGS_KEPT = 64;

export interface Discovery {
  /**
   * The session files under `sources`, in walk order, a chunk at a time. `expect` is told at the start
   * how many files the round is expected to hold (for progress), and again whenever more are found.
   */
  discover(sources: readonly Source[], stats: ScanStats, expect?: (files: number) => void): Generator<Chunk>;
}

export function createDiscovery(db: Db, adapters: ReadonlyMap<SourceKind, Adapter>, excluded: (file: string) => boolean): Discovery {
  const states = createFileStates(db);

  /** The states stored under a folder, parsed; a damaged one is left out (its file is then read). */
  const stored: StoredStates = (folder) => {
    const out = new Map<string, unknown>();
    for (const row of states.parserStatesUnder(path.resolve(folder))) {
      try {
        out.set(row.path, JSON.parse(row.parser_state) as unknown);
      } catch {
        // read afresh by the adapter
      }
    }
    return out;
  };

  /**
   * The session files under `dir`, depth first. `ordered`: in name order, or the adapter's (agents
   * that spread a conversation over many files, OpenCode, append its entries in the order their
   * files are read); a walk that only counts skips that. Problems are reported when `stats` is given.
   */
  function* walk(dir: string, adapter: Adapter, stats: ScanStats | null, ordered: boolean): Generator<string> {
    let items: fs.Dirent[];
    try {
      items = fs.readdirSync(dir, { withFileTypes: true });
    } catch (err) {
      if (stats) report(stats, { path: dir, line: null, reason: `cannot read folder: ${(err as Error).message}` });
      return;
    }
    if (ordered) {
      items.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      if (adapter.orderFolder) {
        const byName = new Map(items.map((item) => [item.name, item]));
        items = adapter.orderFolder(dir, items.map((item) => item.name), stored).map((name) => byName.get(name)!);
      }
    }
    // `dir` is resolved and a listed name holds no separator: joined without path.join's normalizing
    // (a tenth of an unchanged re-scan's walk at 10k).
    const prefix = dir.endsWith(path.sep) ? dir : dir + path.sep;
    for (const item of items) {
      const full = prefix + item.name;
      // Directory symlinks are not followed: they can loop, and agents do not write them.
      if (item.isDirectory()) {
        if (!adapter.skipFolder?.(item.name)) yield* walk(full, adapter, stats, ordered);
      }
      // Anything else named like a session (a file, a link, a FIFO…) goes to indexFile, which reads only
      // regular files and records the rest.
      else if (adapter.isSessionFile(full) && !excluded(full)) yield full;
    }
  }

  /** The session files of one source: its root itself when that is a file. */
  function* filesOf(root: string, adapter: Adapter, stats: ScanStats | null, ordered: boolean): Generator<string> {
    if (!fs.existsSync(root)) return;
    if (fs.statSync(root).isFile()) yield root;
    else yield* walk(root, adapter, stats, ordered);
  }

  function count(files: Iterable<string>): number {
    let n = 0;
    for (const _ of files) n++;
    return n;
  }

  /**
   * Whether the walk finds `file` (under `root`): each folder on the way listed in its parent as a
   * folder and not skipped, the file listed as no folder, named as a session and not excluded. Reads
   * each folder's listing once while its paths come by (they come in path order).
   */
  function foundCheck(root: string, adapter: Adapter): (file: string) => boolean {
    const listings = new Map<string, Map<string, boolean> | null>();
    const listing = (dir: string): Map<string, boolean> | null => {
      let names = listings.get(dir);
      if (names !== undefined) return names;
      try {
        names = new Map(fs.readdirSync(dir, { withFileTypes: true }).map((d) => [d.name, d.isDirectory()]));
      } catch {
        names = null;
      }
      if (listings.size >= LISTINGS_KEPT) listings.delete(listings.keys().next().value!);
      listings.set(dir, names);
      return names;
    };
    const walked = (dir: string): boolean => {
      if (dir === root) return true;
      const parent = path.dirname(dir);
      const name = path.basename(dir);
      return parent !== dir && walked(parent) && listing(parent)?.get(name) === true && !adapter.skipFolder?.(name);
    };
    return (file) => walked(path.dirname(file)) && listing(path.dirname(file))?.get(path.basename(file)) === false && adapter.isSessionFile(file) && !excluded(file);
  }

  /**
   * Marks missing the rows under `root` whose file the walk did not find, reading them a page at a
   * time. Called only when the rows found do not account for every row present (see discover).
   */
  function markMissingUnder(root: string, adapter: Adapter, stats: ScanStats): void {
    const found = foundCheck(root, adapter);
    for (let after = root, page = states.presentAfter(root, after, MISSING_PAGE); page.length; page = states.presentAfter(root, after, MISSING_PAGE)) {
      for (const row of page) {
        if (found(row.path)) continue;
        states.markMissing(row.id);
        stats.missing++;
      }
      after = page.at(-1)!.path;
    }
  }

  function* discover(sources: readonly Source[], stats: ScanStats, expect?: (files: number) => void): Generator<Chunk> {
    const roots = sources.map((source) => {
      const adapter = adapters.get(source.kind);
      if (!adapter) throw new Error(`No adapter for source kind ${source.kind}`);
      const root = path.resolve(source.root);
      return { source, adapter, root, before: states.countUnder(root) };
    });
    // Progress wants a total: the rows already there, or, for a folder never indexed, a count of its
    // files (a walk that holds nothing and reads no file; a first index takes far longer than it).
    const expected = roots.map((r) => (r.before.rows > 0 ? r.before.present : count(filesOf(r.root, r.adapter, null, false))));
    const total = () => expected.reduce((a, b) => a + b, 0);
    expect?.(total());
    for (const [i, { source, adapter, root, before }] of roots.entries()) {
      let found = 0;
      let matched = 0;
      const files = filesOf(root, adapter, stats, true);
      for (let chunk = take(files, CHUNK_FILES); chunk.length; chunk = take(files, CHUNK_FILES)) {
        const known = new Map<string, FileState>();
        for (const row of states.of(chunk)) {
          known.set(row.path, row);
          if (row.status !== 'missing' && row.id <= before.maxId) matched++;
        }
        found += chunk.length;
        if (found > expected[i]!) {
          expected[i] = found;
          expect?.(total());
        }
        yield { work: chunk.map((file) => ({ kind: source.kind, file })), known };
      }
      // A session file that disappeared keeps its conversations; only the file is marked missing.
      // Every row present at the start whose file was found is counted: when they are all of them,
      // none disappeared, and the rows are not read again (the common re-scan). A row changed by
      // another writer meanwhile only makes this look again, or leaves a mark to the next scan.
      if (matched !== before.present) markMissingUnder(root, adapter, stats);
    }
  }

  return { discover };
}

/** The next `n` items of an iterator (fewer at its end). */
function take<T>(it: Iterator<T>, n: number): T[] {
  const out: T[] = [];
  while (out.length < n) {
    const next = it.next();
    if (next.done) break;
    out.push(next.value);
  }
  return out;
}
