// Incremental indexing of session files: each file is read from its committed byte offset, a
// replaced or truncated file is re-indexed from the start, an unchanged file is not opened at all.
// The parts: discover.ts finds the files, index-file.ts indexes one, batch-group.ts commits a
// group of small files in one transaction; here, the order of a run and its two drivers.
import fs from 'node:fs';
import path from 'node:path';
import type { SourceKind } from '../../shared/types.js';
import type { Db } from '../store/db.js';
import { writeTransaction } from '../store/write-lock.js';
import { createWriter } from '../store/writer.js';
import { NO_EXCLUSIONS, type Exclusions } from '../privacy.js';
import { BatchGroup, guard, RetryGroup } from './batch-group.js';
import { createDiscovery, type Source, type WorkItem } from './discover.js';
import { createFileIndexer, type FileIndexer, type KnownFiles } from './index-file.js';
import { emptyStats, progressOf, type ScanProgress, type ScanStats } from './scan-stats.js';
import type { Adapter } from './types.js';

export type { Source } from './discover.js';
export type { IngestProblem, ScanProgress, ScanStats } from './scan-stats.js';

export interface ScanOptions {
  onProgress?: (p: ScanProgress) => void;
  /**
   * More sources, asked for once the given ones are indexed and scanned after them in the same run:
   * those found from what the index now holds (Aider's history files in the workspaces it knows).
   */
  followUp?: () => readonly Source[];
}

/** A scan commits after at most this many files or bytes (see indexGroup), and after GROUP_MS (batch-group.ts). */
const GROUP_FILES = 64;
const GROUP_BYTES = 32 << 20;
/** A file with more than this left to read is indexed outside any group: each batch commits alone. */
const SOLO_BYTES = 1 << 20;
/**
 * scanAsync yields to the event loop after this long: one transaction per time slice, never open
 * across the yield, where other callers (the watcher, ingest.append) may write.
 */
const SLICE_MS = 15;

/** Indexing runs over sources, and one file as the watcher sees it change. */
export interface Indexer {
  /** Indexes everything new in `sources` at once, telling progress whenever more bytes were read. */
  scan(sources: readonly Source[], options?: ScanOptions): ScanStats;
  /** The same scan, yielding to the event loop between time slices so a server keeps answering meanwhile. */
  scanAsync(sources: readonly Source[], options?: ScanOptions): Promise<ScanStats>;
  /** Whatever is new in one file; a bad file never throws (its problems go into the stats). */
  indexFile: FileIndexer['indexFile'];
}

export interface IndexerOptions {
  /**
   * The exclusions in force (see privacy.ts), asked for at every file: excluded files are not read,
   * excluded conversations not kept.
   */
  exclusions?: () => Exclusions;
}

/**
 * Where a run stands after one step: files of the current round done, of how many (the files the
 * index held under its sources, or those counted in a folder never indexed; more once more are
 * found), and whether the round goes on.
 */
interface Step {
  done: number;
  total: number;
  more: boolean;
}

export function createIndexer(db: Db, adapters: ReadonlyMap<SourceKind, Adapter>, options: IndexerOptions = {}): Indexer {
  const exclusions = options.exclusions ?? (() => NO_EXCLUSIONS);
  const excluded = (file: string): boolean => exclusions().path(file) !== null;
  const writer = createWriter(db, { exclusions, sharesConversations: (kind) => adapters.get(kind)?.sharesConversations === true });
  const group = new BatchGroup(db, writer);
  const files = createFileIndexer(db, adapters, writer, group, excluded);
  const discovery = createDiscovery(db, adapters, excluded);

  /** Indexes work[from…] until `more` or a bound says stop; returns where it stopped. */
  function indexFiles(work: readonly WorkItem[], known: KnownFiles, from: number, stats: ScanStats, more: (next: number) => boolean): number {
    let i = from;
    const bytes0 = stats.bytes;
    do {
      index(work[i]!, stats, known);
      i++;
    } while (i < work.length && i - from < GROUP_FILES && stats.bytes - bytes0 < GROUP_BYTES && more(i));
    return i;
  }
  /** The same in ONE transaction, each file's batches as savepoints: a group's careful second attempt. */
  const indexGroup = writeTransaction(db, indexFiles);

  /**
   * The stat pendingBytes took last, handed to indexFile for the same file so that a file is stat-ed
   * once per scan, not twice (~260 ms CPU of an unchanged 10k re-scan). Taken anew at every indexNext:
   * a stat is never carried across a yield of scanAsync.
   */
  let peeked: { file: string; st: fs.Stats } | null = null;
  const index = (item: WorkItem, stats: ScanStats, known: KnownFiles) => {
    const st = peeked?.file === item.file ? peeked.st : undefined;
    peeked = null;
    files.indexFile(item.kind, item.file, stats, known, st);
  };

  /**
   * Bytes of `file` not indexed yet (0 when it cannot be read: indexFile reports that), as far as the
   * rows discovery read say: a file another process indexed since is only taken for a larger one.
   */
  function pendingBytes(file: string, known: KnownFiles): number {
    let st: fs.Stats;
    try {
      st = fs.statSync(file);
    } catch {
      return 0;
    }
    peeked = { file, st };
    return st.size - (known.get(file)?.committed_offset ?? 0);
  }

  /**
   * Indexes work[from…] and returns where it stopped: a large file alone (its batches commit one by
   * one), else a group of small files committed in one IMMEDIATE transaction (see writer.ts), ending
   * once `more` or the time bound says so.
   *
   * A transaction per small file rewrote the same b-tree and FTS structure pages to the WAL over and
   * over, and a savepoint per file made FTS5 flush a segment per file: grouping files without
   * savepoints made a cold index markedly faster (BENCHMARKS.md). The group's files are parsed first
   * and their batches applied after, so the write lock is held only while they are applied: between
   * two groups another writer (which polls for the lock) gets its turn during the parsing.
   */
  function indexNext(work: readonly WorkItem[], known: KnownFiles, from: number, stats: ScanStats, more: () => boolean): number {
    peeked = null;
    if (pendingBytes(work[from]!.file, known) > SOLO_BYTES) {
      index(work[from]!, stats, known);
      return from + 1;
    }
    const started = performance.now();
    const keepGoing = (next: number) => more() && group.withinTime(performance.now() - started) && pendingBytes(work[next]!.file, known) <= SOLO_BYTES;
    const saved = { ...stats, errors: [...stats.errors] };
    try {
      return group.parseThenApply(() => indexFiles(work, known, from, stats, keepGoing));
    } catch (err) {
      if (!(err instanceof RetryGroup)) throw err;
      // A batch failed: the group is done again the careful way, each file's batches in their own
      // savepoints, so that a bad file is set aside alone.
      Object.assign(stats, saved);
      return guard(db, () => indexGroup(work, known, from, stats, keepGoing));
    }
  }

  /** The given sources, then (asked for only once they are indexed) the follow-up ones not among them. */
  function* rounds(sources: readonly Source[], options: ScanOptions): Generator<readonly Source[]> {
    yield sources;
    if (!options.followUp) return;
    const given = new Set(sources.map((s) => `${s.kind}:${path.resolve(s.root)}`));
    const more = guard(db, () => options.followUp!()).filter((s) => !given.has(`${s.kind}:${path.resolve(s.root)}`));
    if (more.length) yield more;
  }

  /**
   * A run, one step at a time, for both drivers: each step indexes the next files (until `slice()`'s
   * answer says stop) or finds the next ones, and yields where the round stands; a round with no files
   * yields once, 0 of 0. The files come a chunk at a time (discover.ts): a scan never holds every
   * file's row. Finding a chunk is a step of its own, apart from indexing it, and so is each piece of
   * a long folder listing: an unchanged re-scan's steps each stay short (scanAsync yields between).
   */
  function* steps(sources: readonly Source[], options: ScanOptions, stats: ScanStats, slice: () => () => boolean): Generator<Step> {
    guard(db, () => writer.refreshStaleTerms());
    for (const round of rounds(sources, options)) {
      let total = 0;
      let done = 0;
      const chunks = discovery.discover(round, stats, (files) => (total = files));
      try {
        for (let chunk = guard(db, () => chunks.next()); !chunk.done; chunk = guard(db, () => chunks.next())) {
          yield { done, total: Math.max(total, done), more: true };
          const { work, known } = chunk.value ?? { work: [], known: new Map() };
          for (let i = 0; i < work.length; ) {
            const next = indexNext(work, known, i, stats, slice());
            done += next - i;
            i = next;
            yield { done, total: Math.max(total, done), more: true };
          }
        }
      } finally {
        // A run stopped by an error: the walk closes the folder it was listing.
        chunks.return(undefined);
      }
      yield { done, total: done, more: false };
    }
  }

  const always = () => true;

  /** Indexes everything new in `sources` at once, telling progress whenever more bytes were read. */
  function scan(sources: readonly Source[], options: ScanOptions = {}): ScanStats {
    const t0 = performance.now();
    const stats = emptyStats();
    let bytesBefore = -1;
    for (const { done, total, more } of steps(sources, options, stats, () => always)) {
      if (options.onProgress && total > 0 && (stats.bytes !== bytesBefore || !more)) {
        bytesBefore = stats.bytes;
        options.onProgress(progressOf(stats, done, total, t0));
      }
    }
    stats.ms = Math.round(performance.now() - t0);
    return stats;
  }

  /** The same scan, yielding to the event loop between time slices so a server keeps answering meanwhile. */
  async function scanAsync(sources: readonly Source[], options: ScanOptions = {}): Promise<ScanStats> {
    const t0 = performance.now();
    const stats = emptyStats();
    const timeSlice = () => {
      const slice = performance.now();
      return () => performance.now() - slice <= SLICE_MS;
    };
    for (const { done, total, more } of steps(sources, options, stats, timeSlice)) {
      options.onProgress?.(progressOf(stats, done, total, t0));
      if (more) await new Promise((resolve) => setImmediate(resolve));
    }
    stats.ms = Math.round(performance.now() - t0);
    return stats;
  }

  return { scan, scanAsync, indexFile: files.indexFile };
}
