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
/**
 * A folder listing is read this many names at a time, with a pause between (see Pause): OpenCode's
 * part folder holds a folder per message, 7,600 names at 10k and 35,800 at 50k, and listing it in one
 * call held the daemon's event loop 10-70 ms at 10k and 170-190 ms at 50k.
 */
const LISTING_PIECE = 2048;
/** Stored states read at once for an adapter's order (see orderStatesFolder). */
const STATES_PAGE = 1000;
/**
 * Finding files goes on this long before discover hands a pause on (null): with the chunk's rows read
 * after it, a step of finding stays well under the ~20 ms an event loop may be held.
 */
const DISCOVER_SLICE_MS = 8;

/**
 * Where the walk may stop for a moment without losing its place: after a piece of a long listing, after
 * a large folder was ordered. scanAsync yields to the event loop there (discover hands it on as null).
 */
const PAUSE: unique symbol = Symbol('pause');
type Pause = typeof PAUSE;

export interface Discovery {
  /**
   * The session files under `sources`, in walk order, a chunk at a time, and null where the walk paused
   * (nothing to index yet: a caller may yield to the event loop). `expect` is told before the first
   * chunk how many files the round is expected to hold (for progress), and again whenever more are found.
   */
  discover(sources: readonly Source[], stats: ScanStats, expect?: (files: number) => void): Generator<Chunk | null>;
}

export function createDiscovery(db: Db, adapters: ReadonlyMap<SourceKind, Adapter>, excluded: (file: string) => boolean): Discovery {
  const states = createFileStates(db);

  /** The states stored under `folder`, parsed, a page at a time with a pause after each; a damaged one is left out (its file is then read). */
  function* storedPaged(folder: string): Generator<Pause, Map<string, unknown>> {
    const root = path.resolve(folder);
    const out = new Map<string, unknown>();
    for (let page = states.parserStatesAfter(root, root, STATES_PAGE); page.length; page = states.parserStatesAfter(root, page.at(-1)!.path, STATES_PAGE)) {
      for (const row of page) {
        try {
          out.set(row.path, JSON.parse(row.parser_state) as unknown);
        } catch {
          // read afresh by the adapter
        }
      }
      yield PAUSE;
    }
    return out;
  }

  /** The same at once, for an adapter's orderFolder. */
  const stored: StoredStates = (folder) => {
    const pages = storedPaged(folder);
    for (;;) {
      const next = pages.next();
      if (next.done) return next.value;
    }
  };

  /**
   * The entries of `dir`, null when it cannot be read. A folder of many brief folders (OpenCode's part
   * folder, see Adapter.briefFolders) is read a piece at a time with a pause between pieces; others at
   * once (readdirSync: a third of opendir's cost for the thousands of small folders).
   */
  function* list(dir: string, adapter: Adapter, stats: ScanStats | null): Generator<Pause, fs.Dirent[] | null> {
    let handle: fs.Dir | null = null;
    try {
      if (adapter.briefFolders?.(dir) !== true) return fs.readdirSync(dir, { withFileTypes: true });
      const items: fs.Dirent[] = [];
      handle = fs.opendirSync(dir, { bufferSize: 256 });
      for (let item = handle.readSync(); item; item = handle.readSync()) {
        if (items.push(item) % LISTING_PIECE === 0) yield PAUSE;
      }
      return items;
    } catch (err) {
      if (stats) report(stats, { path: dir, line: null, reason: `cannot read folder: ${(err as Error).message}` });
      return null;
    } finally {
      // Also when the walk is given up at a pause (a scan stopped by an error).
      handle?.closeSync();
    }
  }

  /** The folder's entries in the adapter's order (see Adapter.orderFolder), the states it reads read ahead with pauses. */
  function* ordered(dir: string, adapter: Adapter, items: fs.Dirent[]): Generator<Pause, fs.Dirent[]> {
    if (!adapter.orderFolder) return items;
    const statesFolder = adapter.orderStatesFolder?.(dir);
    const ahead = statesFolder === undefined ? null : yield* storedPaged(statesFolder);
    const given: StoredStates = (folder) => (ahead && folder === statesFolder ? ahead : stored(folder));
    const byName = new Map(items.map((item) => [item.name, item]));
    const order = adapter.orderFolder(dir, items.map((item) => item.name), given).map((name) => byName.get(name)!);
    if (items.length >= LISTING_PIECE) yield PAUSE;
    return order;
  }

  /**
   * The session files under `dir`, depth first, with a pause after each folder listed (and within a
   * long listing or ordering). `ordered`: in name order, or the adapter's (agents that spread a
   * conversation over many files, OpenCode, append its entries in the order their files are read); a
   * walk that only counts skips that. Problems are reported when `stats` is given.
   */
  function* walk(dir: string, adapter: Adapter, stats: ScanStats | null, inOrder: boolean): Generator<string | Pause> {
    let items = yield* list(dir, adapter, stats);
    if (!items) return;
    if (inOrder) {
      items.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      items = yield* ordered(dir, adapter, items);
    }
    yield PAUSE;
    // `dir` is resolved and a listed name holds no separator: joined without path.join's normalizing
    // (a tenth of an unchanged re-scan's walk at 10k).
    const prefix = dir.endsWith(path.sep) ? dir : dir + path.sep;
    for (const item of items) {
      const full = prefix + item.name;
      // Directory symlinks are not followed: they can loop, and agents do not write them.
      if (item.isDirectory()) {
        if (!adapter.skipFolder?.(item.name)) yield* walk(full, adapter, stats, inOrder);
      }
      // Anything else named like a session (a file, a link, a FIFO…) goes to indexFile, which reads only
      // regular files and records the rest.
      else if (adapter.isSessionFile(full) && !excluded(full)) yield full;
    }
  }

  /** The session files of one source, with pauses: its root itself when that is a file. */
  function* filesOf(root: string, adapter: Adapter, stats: ScanStats | null, ordered: boolean): Generator<string | Pause> {
    if (!fs.existsSync(root)) return;
    if (fs.statSync(root).isFile()) yield root;
    else yield* walk(root, adapter, stats, ordered);
  }

  /** How many files `files` gives, pausing where it pauses. */
  function* count(files: Iterable<string | Pause>): Generator<Pause, number> {
    let n = 0;
    for (const file of files) {
      if (file === PAUSE) yield PAUSE;
      else n++;
    }
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

  function* discover(sources: readonly Source[], stats: ScanStats, expect?: (files: number) => void): Generator<Chunk | null> {
    const roots = sources.map((source) => {
      const adapter = adapters.get(source.kind);
      if (!adapter) throw new Error(`No adapter for source kind ${source.kind}`);
      const root = path.resolve(source.root);
      return { source, adapter, root, before: states.countUnder(root) };
    });
    // Progress wants a total: the rows already there, or, for a folder never indexed, a count of its
    // files (a walk that holds nothing and reads no file; a first index takes far longer than it).
    const expected: number[] = [];
    for (const r of roots) {
      if (r.before.rows > 0) expected.push(r.before.present);
      else expected.push(yield* nulls(count(filesOf(r.root, r.adapter, null, false))));
    }
    const total = () => expected.reduce((a, b) => a + b, 0);
    expect?.(total());
    for (const [i, { source, adapter, root, before }] of roots.entries()) {
      let found = 0;
      let matched = 0;
      let chunk: string[] = [];
      const chunkOf = (files: string[]): Chunk => {
        const known = new Map<string, FileState>();
        for (const row of states.of(files)) {
          known.set(row.path, row);
          if (row.status !== 'missing' && row.id <= before.maxId) matched++;
        }
        found += files.length;
        if (found > expected[i]!) {
          expected[i] = found;
          expect?.(total());
        }
        return { work: files.map((file) => ({ kind: source.kind, file })), known };
      };
      let resumed = performance.now();
      for (const file of filesOf(root, adapter, stats, true)) {
        if (file === PAUSE) {
          if (performance.now() - resumed < DISCOVER_SLICE_MS) continue;
          yield null;
        } else if (chunk.push(file) < CHUNK_FILES) continue;
        else {
          yield chunkOf(chunk);
          chunk = [];
        }
        resumed = performance.now();
      }
      if (chunk.length) yield chunkOf(chunk);
      // A session file that disappeared keeps its conversations; only the file is marked missing.
      // Every row present at the start whose file was found is counted: when they are all of them,
      // none disappeared, and the rows are not read again (the common re-scan). A row changed by
      // another writer meanwhile only makes this look again, or leaves a mark to the next scan.
      if (matched !== before.present) markMissingUnder(root, adapter, stats);
    }
  }

  return { discover };
}

/** `steps`'s result, its pauses given on as null once DISCOVER_SLICE_MS have gone by since the last. */
function* nulls<T>(steps: Generator<Pause, T>): Generator<null, T> {
  let resumed = performance.now();
  for (;;) {
    const next = steps.next();
    if (next.done) return next.value;
    if (performance.now() - resumed < DISCOVER_SLICE_MS) continue;
    yield null;
    resumed = performance.now();
  }
}
