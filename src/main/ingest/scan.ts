// Incremental indexing of session files: each file is read from its committed byte offset, a
// replaced or truncated file is re-indexed from the start, an unchanged file is not opened at all.
import fs from 'node:fs';
import path from 'node:path';
import type { SourceKind } from '../../shared/types.js';
import { storeErrorFrom, type Db } from '../store/db.js';
import { writeTransaction } from '../store/write-lock.js';
import { createWriter, StaleFileError, type FileProgress, type FileRow, type LineProblem } from '../store/writer.js';
import { NO_EXCLUSIONS, type Exclusions } from '../privacy.js';
import { MAX_LINE, readLines } from './read-lines.js';
import { openRegular } from './regular-file.js';
import { LineError, type Adapter, type DocumentAdapter, type IngestOp, type LineParser } from './types.js';

export interface Source {
  kind: SourceKind;
  root: string;
}

export interface IngestProblem {
  path: string;
  line: number | null;
  reason: string;
}

export interface ScanStats {
  files: number; // session files seen
  parsedFiles: number; // files that had new bytes
  entries: number; // entry ops applied
  conversations: number; // conversations touched
  bytes: number; // bytes parsed
  skippedLines: number;
  missing: number; // files marked missing in this scan
  errors: IngestProblem[];
  ms: number;
}

export interface ScanProgress {
  filesDone: number;
  filesTotal: number;
  entries: number;
  bytes: number;
  elapsedMs: number;
}

export interface ScanOptions {
  onProgress?: (p: ScanProgress) => void;
  /**
   * More sources, asked for once the given ones are indexed and scanned after them in the same run:
   * those found from what the index now holds (Aider's history files in the workspaces it knows).
   */
  followUp?: () => readonly Source[];
}

/** A scan commits after at most this many files or bytes (see indexGroup). */
const GROUP_FILES = 64;
const GROUP_BYTES = 32 << 20;
/**
 * …and after this long: every other writer of the index (the daemon's watcher, a CLI run,
 * ingest.append, forget) waits for the lock meanwhile, and gives up after busy_timeout (5 s) with
 * "database is locked". A group stays well under that on a slow, busy machine.
 */
const GROUP_MS = 250;
/** A file with more than this left to read is indexed outside any group: each batch commits alone. */
const SOLO_BYTES = 1 << 20;

/** At most this many problems are returned from one scan; all of them are recorded in the index. */
const MAX_REPORTED = 200;

export type Indexer = ReturnType<typeof createIndexer>;

type CreateParser = (path: string, state: unknown) => LineParser;

type FileState = Pick<FileRow, 'id' | 'path' | 'status' | 'size' | 'mtime_ms' | 'inode' | 'committed_offset'>;

/** A batch failed inside a group's savepoint-free first attempt: the group is redone with savepoints. */
class RetryGroup extends Error {
  constructor(cause: unknown) {
    super(`batch failed inside a group: ${(cause as Error)?.message ?? String(cause)}`, { cause });
    this.name = 'RetryGroup';
  }
}

export interface IndexerOptions {
  /**
   * The exclusions in force (see privacy.ts), asked for at every file: excluded files are not read,
   * excluded conversations not kept.
   */
  exclusions?: () => Exclusions;
}

export function createIndexer(db: Db, adapters: ReadonlyMap<SourceKind, Adapter>, options: IndexerOptions = {}) {
  const exclusions = options.exclusions ?? (() => NO_EXCLUSIONS);
  const excluded = (file: string): boolean => exclusions().path(file) !== null;
  const writer = createWriter(db, { exclusions, sharesConversations: (kind) => adapters.get(kind)?.sharesConversations === true });
  // What a scan needs of each file's row, read from the covering index source_files_state: the table
  // rows carry the parser state (often in overflow pages), and reading them one file at a time made an
  // unchanged re-scan of 10k files take ~1 s (BENCHMARKS.md).
  const statesUnder = db.prepare<[string, string], FileState>(
    'SELECT id, path, status, size, mtime_ms, inode, committed_offset FROM source_files WHERE path >= ? AND path < ?',
  );
  // The rows of the files the running scan discovered. A row that changes meanwhile no longer
  // matches the file's stat and is read afresh, so a stale entry can only cost a query, not a skip.
  let known = new Map<string, FileState>();
  const markMissing = db.prepare("UPDATE source_files SET status = 'missing' WHERE id = ?");
  // A batch's problems are recorded in the batch's own transaction: a crash between the two would
  // otherwise lose them (or, recorded first, count them twice on the re-read).
  const commitTx = writeTransaction(db, (row: FileRow, ops: IngestOp[], progress: FileProgress, problems: LineProblem[], more: boolean) => {
    writer.commitBatch(row, ops, progress, more);
    if (problems.length) writer.recordProblems(row.path, problems);
  });
  /**
   * During a group's first attempt its batches wait here, parsed, to be applied together in one
   * transaction without savepoints (see indexNext); otherwise null and each batch commits at once.
   */
  let queued: (() => void)[] | null = null;
  /** How long applying a group's batches takes per ms spent parsing them, as last measured. */
  let applyPerParse = 8;
  /** `more`: the next batch of this file follows at once (see writer.commitBatch). */
  const commit = (row: FileRow, ops: IngestOp[], progress: FileProgress, problems: LineProblem[], more: boolean): void => {
    if (!queued) return commitTx(row, ops, progress, problems, more);
    queued.push(() => {
      writer.commitBatchInTransaction(stored(row), ops, progress, more);
      if (problems.length) writer.recordProblems(row.path, problems);
    });
  };
  /** The row of a file not in the index yet, until its first batch writes it (id 0). */
  const newRow = (path: string, kind: SourceKind): FileRow => ({
    id: 0, path, kind, size: 0, mtime_ms: 0, inode: 0, committed_offset: 0, committed_line: 0, parser_state: null, status: 'ok',
  });
  /** `row` with the id of its stored row, written now if it is a new file's. */
  const stored = (row: FileRow): FileRow => (row.id ? row : { ...row, id: writer.ensureFile(row.path, row.kind).id });
  const applyQueued = writeTransaction(db, (batches: readonly (() => void)[]) => {
    try {
      for (const apply of batches) apply();
    } catch (err) {
      // Part of a batch may be written, and only rolling back the whole group undoes it.
      throw new RetryGroup(err);
    }
  });

  /** A failure of the index itself (disk full, read-only, damaged, busy) as a StoreError; anything else as is. */
  function guard<T>(fn: () => T): T {
    try {
      return fn();
    } catch (err) {
      throw storeErrorFrom(err, db.name) ?? err;
    }
  }

  function emptyStats(): ScanStats {
    return { files: 0, parsedFiles: 0, entries: 0, conversations: 0, bytes: 0, skippedLines: 0, missing: 0, errors: [], ms: 0 };
  }

  function report(stats: ScanStats, problem: IngestProblem): void {
    if (stats.errors.length < MAX_REPORTED) stats.errors.push(problem);
  }

  /**
   * Indexes whatever is new in one file. Never throws for a bad file: problems go into `stats`.
   * Throws a StoreError when the index itself cannot be written: then no other file could be either.
   */
  function indexFile(kind: SourceKind, file: string, stats: ScanStats = emptyStats()): ScanStats {
    return guard(() => indexOne(kind, file, stats));
  }

  function indexOne(kind: SourceKind, file: string, stats: ScanStats): ScanStats {
    const adapter = adapters.get(kind);
    if (!adapter) throw new Error(`No adapter for source kind ${kind}`);
    if (excluded(file)) return stats;
    let st: fs.Stats;
    try {
      st = fs.statSync(file);
    } catch (err) {
      report(stats, { path: file, line: null, reason: `cannot stat: ${(err as Error).message}` });
      return stats;
    }
    stats.files++;
    if (!st.isFile()) {
      report(stats, { path: file, line: null, reason: 'not a regular file (a FIFO, socket, device or folder): not read' });
      return stats;
    }
    if (adapter.createReader && (adapter.readsWhole?.(file) ?? true)) return indexDocument(adapter, file, st, stats);
    const createParser = adapter.createParser?.bind(adapter);
    if (!createParser) throw new Error(`The ${kind} adapter reads ${file} neither whole nor by line`);
    const mtimeMs = Math.floor(st.mtimeMs);
    const k = known.get(file);
    if (k && k.status === 'ok' && k.size === st.size && k.mtime_ms === mtimeMs && k.inode === st.ino) return stats;
    let row = writer.fileRow(file);
    if (row && row.status === 'ok' && row.size === st.size && row.mtime_ms === mtimeMs && row.inode === st.ino) return stats;
    // A new file's row is written with its first batch: in a group that is inside the group's one
    // transaction, rather than a transaction of its own per file before it.
    row ??= queued ? newRow(file, kind) : writer.ensureFile(file, kind);
    const replaced = row.inode !== 0 && (row.inode !== st.ino || st.size < row.committed_offset);
    if (replaced) {
      writer.resetFile(row);
      row = writer.fileRow(file)!;
    }
    let fd: number;
    try {
      fd = openRegular(file); // read-only: Throughline never writes an agent's files
    } catch (err) {
      const reason = `cannot open: ${(err as Error).message}`;
      writer.setFileStatus(stored(row), 'error', reason);
      report(stats, { path: file, line: null, reason });
      return stats;
    }
    try {
      parseFrom(createParser, row, fd, st, stats);
    } catch (err) {
      if (err instanceof RetryGroup || storeErrorFrom(err, db.name)) throw err;
      // Another process (the daemon, a CLI run) is indexing this file right now: it is theirs.
      if (err instanceof StaleFileError) return stats;
      // An adapter or data bug in this one file: its batch rolled back, the file is marked and tried
      // again on the next scan, and the other files are indexed meanwhile.
      const reason = `not indexed further: ${(err as Error).message}`;
      writer.setFileStatus(stored(row), 'error', reason);
      report(stats, { path: file, line: null, reason });
    } finally {
      fs.closeSync(fd);
    }
    return stats;
  }

  /**
   * A source read whole (see DocumentReader): read again only when its stamp changed, never reset,
   * since its records are found by their source ids and reading it again replaces them in place.
   */
  function indexDocument(adapter: DocumentAdapter, file: string, st: fs.Stats, stats: ScanStats): ScanStats {
    const stamp = adapter.stamp ? adapter.stamp(file, st) : st;
    const mtimeMs = Math.floor(stamp.mtimeMs);
    const same = (r: FileState | undefined) => r && r.status === 'ok' && r.size === stamp.size && r.mtime_ms === mtimeMs && r.inode === st.ino;
    if (same(known.get(file))) return stats;
    let row = writer.fileRow(file);
    if (same(row)) return stats;
    row ??= queued ? newRow(file, adapter.kind) : writer.ensureFile(file, adapter.kind);
    let fd: number;
    try {
      fd = openRegular(file); // read-only: Throughline never writes an agent's files
    } catch (err) {
      const reason = `cannot open: ${(err as Error).message}`;
      writer.setFileStatus(stored(row), 'error', reason);
      report(stats, { path: file, line: null, reason });
      return stats;
    }
    try {
      const previous = restoredState(row);
      const reader = adapter.createReader(file, previous);
      const problems: LineProblem[] = [];
      let ops: IngestOp[] = [];
      let state: unknown = previous;
      try {
        ops = reader.read(fd, st.size);
        state = reader.state();
      } catch (err) {
        if (!(err instanceof LineError)) throw err;
        // Nothing of a malformed document is applied; its stamp is kept so it is read again once it changes.
        problems.push({ line: err.line ?? null, reason: err.message });
      }
      commit(row, ops, { offset: stamp.size, line: 0, state, size: stamp.size, mtimeMs, inode: st.ino }, problems, false);
      for (const p of problems) report(stats, { path: file, ...p });
      stats.skippedLines += problems.length;
      stats.parsedFiles++;
      stats.bytes += st.size;
      const touched = new Set<string>();
      for (const op of ops) {
        if (op.op === 'entry' || op.op === 'record') stats.entries++;
        touched.add(op.conv);
      }
      stats.conversations += touched.size;
    } catch (err) {
      if (err instanceof RetryGroup || storeErrorFrom(err, db.name)) throw err;
      if (err instanceof StaleFileError) return stats;
      const reason = `not indexed further: ${(err as Error).message}`;
      writer.setFileStatus(stored(row), 'error', reason);
      report(stats, { path: file, line: null, reason });
    } finally {
      fs.closeSync(fd);
    }
    return stats;
  }

  /** A document's stored state, or undefined when there is none or it is damaged (the reader starts afresh). */
  function restoredState(row: FileRow): unknown {
    try {
      return row.parser_state ? (JSON.parse(row.parser_state) as unknown) : undefined;
    } catch {
      return undefined;
    }
  }

  /**
   * The parser, resumed from the stored state. A state the adapter does not take back unchanged
   * (damaged, or written by another version of the adapter) would make it start over mid-file,
   * numbering new entries from 0 over the stored ones: then the file is read again from the start.
   */
  function resume(createParser: CreateParser, row: FileRow): { parser: LineParser; row: FileRow } {
    if (row.committed_offset > 0 || row.parser_state) {
      try {
        const parser = createParser(row.path, JSON.parse(row.parser_state ?? 'null'));
        if (JSON.stringify(parser.state() ?? null) === row.parser_state) return { parser, row };
      } catch {
        // not resumable: read again below
      }
      writer.resetFile(row);
      row = writer.fileRow(row.path)!;
    }
    return { parser: createParser(row.path, undefined), row };
  }

  function parseFrom(createParser: CreateParser, from: FileRow, fd: number, st: fs.Stats, stats: ScanStats): void {
    const { parser, row: resumed } = resume(createParser, from);
    let row = resumed;
    let lineNo = row.committed_line;
    let committed = false;
    const touched = new Set<string>();
    const chunks = readLines(fd, row.committed_offset, st.size);
    try {
      for (let next = chunks.next(); !next.done; ) {
        const chunk = next.value;
        const ops: IngestOp[] = [];
        const problems: LineProblem[] = [];
        for (const raw of chunk.lines) {
          lineNo++;
          if (typeof raw !== 'string') {
            problems.push({ line: lineNo, reason: `line of ${(raw.skippedBytes / (1 << 20)).toFixed(1)} MB, over the ${MAX_LINE >> 20} MB limit: not read` });
            continue;
          }
          let line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
          // A byte-order mark (an editor on Windows) is not part of the first record.
          if (lineNo === 1 && line.charCodeAt(0) === 0xfeff) line = line.slice(1);
          if (line.trim() === '') continue;
          try {
            for (const op of parser.line(line, lineNo)) ops.push(op);
          } catch (err) {
            // A bad line costs only itself; an adapter bug is reported the same way, never fatal.
            const reason = err instanceof LineError ? err.message : `adapter error: ${(err as Error).message}`;
            problems.push({ line: lineNo, reason });
          }
        }
        // Read ahead before committing: the last batch is the one that rebuilds conversation_terms.
        next = chunks.next();
        if (parser.unfinished) {
          try {
            for (const op of parser.unfinished(next.done === true)) ops.push(op);
          } catch (err) {
            problems.push({ line: lineNo, reason: `adapter error: ${(err as Error).message}` });
          }
        }
        // The stat is stored with the last batch only: a run stopped before it must not leave the file
        // looking unchanged (size, mtime and inode as seen), or the next scan would skip the rest.
        const size = next.done ? st.size : chunk.endOffset;
        const progress = { offset: chunk.endOffset, line: lineNo, state: parser.state(), size, mtimeMs: Math.floor(st.mtimeMs), inode: st.ino };
        commit(row, ops, progress, problems, !next.done);
        committed = true;
        for (const p of problems) report(stats, { path: row.path, ...p });
        stats.skippedLines += problems.length;
        stats.bytes += chunk.endOffset - row.committed_offset;
        for (const op of ops) {
          if (op.op === 'entry') stats.entries++;
          touched.add(op.conv);
        }
        row = { ...row, committed_offset: chunk.endOffset, committed_line: lineNo };
      }
    } finally {
      chunks.return(undefined); // gives the read buffer back if a commit threw
    }
    stats.parsedFiles++;
    stats.conversations += touched.size;
    // Only a partial line (or nothing) was new: remember the size so an unchanged file is skipped.
    if (!committed) writer.touchFile(stored(row), st.size, Math.floor(st.mtimeMs));
  }

  function walk(dir: string, adapter: Adapter, out: string[], stats: ScanStats): void {
    let items: fs.Dirent[];
    try {
      items = fs.readdirSync(dir, { withFileTypes: true });
    } catch (err) {
      report(stats, { path: dir, line: null, reason: `cannot read folder: ${(err as Error).message}` });
      return;
    }
    // In name order: agents that spread a conversation over many files (OpenCode) name them by
    // time-ordered ids, and entries are appended in the order their files are read.
    items.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
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

  /** The session files under each source, marking files that disappeared as missing. */
  function discover(sources: readonly Source[], stats: ScanStats): { kind: SourceKind; file: string }[] {
    const work: { kind: SourceKind; file: string }[] = [];
    known = new Map();
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
      for (const f of statesUnder.all(root + path.sep, root + String.fromCharCode(path.sep.charCodeAt(0) + 1))) {
        if (seen.has(f.path)) known.set(f.path, f);
        else if (f.status !== 'missing') {
          markMissing.run(f.id);
          stats.missing++;
        }
      }
      for (const file of found) work.push({ kind: source.kind, file });
    }
    return work;
  }

  function progress(stats: ScanStats, done: number, total: number, t0: number): ScanProgress {
    return { filesDone: done, filesTotal: total, entries: stats.entries, bytes: stats.bytes, elapsedMs: performance.now() - t0 };
  }

  /** Indexes work[from…] until `more` or a bound says stop; returns where it stopped. */
  function indexFiles(work: readonly { kind: SourceKind; file: string }[], from: number, stats: ScanStats, more: (next: number) => boolean): number {
    let i = from;
    const bytes0 = stats.bytes;
    do {
      indexFile(work[i]!.kind, work[i]!.file, stats);
      i++;
    } while (i < work.length && i - from < GROUP_FILES && stats.bytes - bytes0 < GROUP_BYTES && more(i));
    return i;
  }
  /** The same in ONE transaction, each file's batches as savepoints: a group's careful second attempt. */
  const indexGroup = writeTransaction(db, indexFiles);

  /** Bytes of `file` not indexed yet (0 when it cannot be read: indexFile reports that). */
  function pendingBytes(file: string): number {
    try {
      return fs.statSync(file).size - (known.get(file)?.committed_offset ?? writer.fileRow(file)?.committed_offset ?? 0);
    } catch {
      return 0;
    }
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
  function indexNext(work: readonly { kind: SourceKind; file: string }[], from: number, stats: ScanStats, more: () => boolean): number {
    if (pendingBytes(work[from]!.file) > SOLO_BYTES) {
      indexFile(work[from]!.kind, work[from]!.file, stats);
      return from + 1;
    }
    const started = performance.now();
    // The time bound is on parsing and applying together: what parsing has taken, times the ratio the
    // last group measured, must stay under GROUP_MS.
    const keepGoing = (next: number) =>
      more() && (performance.now() - started) * (1 + applyPerParse) < GROUP_MS && pendingBytes(work[next]!.file) <= SOLO_BYTES;
    const saved = { ...stats, errors: [...stats.errors] };
    queued = [];
    let end: number;
    let batches: (() => void)[];
    try {
      end = indexFiles(work, from, stats, keepGoing);
    } finally {
      batches = queued;
      queued = null;
    }
    try {
      const parsed = performance.now() - started;
      if (!batches.length) return end; // nothing new in these files (a re-scan): no write lock taken
      guard(() => applyQueued(batches));
      if (parsed >= 1) applyPerParse = (applyPerParse + (performance.now() - started - parsed) / parsed) / 2;
      return end;
    } catch (err) {
      if (!(err instanceof RetryGroup)) throw err;
      // A batch failed: the group is done again the careful way, each file's batches in their own
      // savepoints, so that a bad file is set aside alone.
      Object.assign(stats, saved);
      return guard(() => indexGroup(work, from, stats, keepGoing));
    }
  }

  /** The given sources, then (asked for only once they are indexed) the follow-up ones not among them. */
  function* rounds(sources: readonly Source[], options: ScanOptions): Generator<readonly Source[]> {
    yield sources;
    if (!options.followUp) return;
    const given = new Set(sources.map((s) => `${s.kind}:${path.resolve(s.root)}`));
    const more = guard(() => options.followUp!()).filter((s) => !given.has(`${s.kind}:${path.resolve(s.root)}`));
    if (more.length) yield more;
  }

  function scan(sources: readonly Source[], options: ScanOptions = {}): ScanStats {
    const t0 = performance.now();
    const stats = emptyStats();
    guard(() => writer.refreshStaleTerms());
    for (const round of rounds(sources, options)) {
      const work = guard(() => discover(round, stats));
      let bytesBefore = -1;
      for (let i = 0; i < work.length; ) {
        i = indexNext(work, i, stats, () => true);
        if (options.onProgress && (stats.bytes !== bytesBefore || i === work.length)) {
          bytesBefore = stats.bytes;
          options.onProgress(progress(stats, i, work.length, t0));
        }
      }
    }
    known = new Map();
    stats.ms = Math.round(performance.now() - t0);
    return stats;
  }

  /** The same scan, yielding to the event loop between files so a server keeps answering meanwhile. */
  async function scanAsync(sources: readonly Source[], options: ScanOptions = {}): Promise<ScanStats> {
    const t0 = performance.now();
    const stats = emptyStats();
    guard(() => writer.refreshStaleTerms());
    for (const round of rounds(sources, options)) {
      const work = guard(() => discover(round, stats));
      for (let i = 0; i < work.length; ) {
        // One transaction per time slice: it never stays open across the yield, where other callers
        // (the watcher, ingest.append) may write.
        const slice = performance.now();
        i = indexNext(work, i, stats, () => performance.now() - slice <= 15);
        if (i < work.length) {
          options.onProgress?.(progress(stats, i, work.length, t0));
          await new Promise((resolve) => setImmediate(resolve));
        }
      }
      options.onProgress?.(progress(stats, work.length, work.length, t0));
    }
    known = new Map();
    stats.ms = Math.round(performance.now() - t0);
    return stats;
  }

  return { scan, scanAsync, indexFile };
}
