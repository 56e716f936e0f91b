// Indexing one session file: whatever is new in it since its committed offset (a file read by line),
// or all of it again when its stamp changed (a file read whole). A bad file never stops a scan.
import fs from 'node:fs';
import type { SourceKind } from '../../shared/types.js';
import { storeErrorFrom, type Db } from '../store/db.js';
import type { FileState } from '../store/file-states.js';
import { StaleFileError, type FileRow, type LineProblem, type Writer } from '../store/writer.js';
import { type BatchGroup, guard, RetryGroup } from './batch-group.js';
import { lineBatches, readDocument, type ParsedBatch, type ParsedDocument } from './parse-file.js';
import type { ParseReply } from './parse-protocol.js';
import { openRegular } from './regular-file.js';
import { countBatch, emptyStats, report, type ScanStats } from './scan-stats.js';
import type { Adapter, DocumentAdapter, LineParser } from './types.js';

type CreateParser = (path: string, state: unknown) => LineParser;

/**
 * Whether a file's row says it was read as it is now. A function of its own rather than a closure
 * made per file: an unchanged re-scan asks it for every file (~40,000 at 10k).
 */
function unchanged(r: FileState | undefined, size: number, mtimeMs: number, inode: number): boolean {
  return r !== undefined && r.status === 'ok' && r.size === size && r.mtime_ms === mtimeMs && r.inode === inode;
}

/** The rows of the files a scan discovered (see discover.ts); an empty map outside a scan. */
export type KnownFiles = ReadonlyMap<string, FileState>;
const NONE: KnownFiles = new Map();

/**
 * A new file parsed on the scan's parse worker (parse-ahead.ts): its stat as sent, whether it was
 * read whole, and its replies in order, waited for (null when the worker stopped first).
 */
export interface ParsedAhead {
  st: fs.Stats;
  whole: boolean;
  reply(index: number): ParseReply | null;
}

/** A file the parse worker could not parse: set aside with `reason`, as if parsed here. */
class ParseFailed extends Error {}

export interface FileIndexer {
  /**
   * Indexes whatever is new in one file. Never throws for a bad file: problems go into `stats`.
   * Throws a StoreError when the index itself cannot be written: then no other file could be either.
   * `ahead`: the file as the parse worker parsed it, used if the index still holds no row for it.
   */
  indexFile(kind: SourceKind, file: string, stats?: ScanStats, known?: KnownFiles, st?: fs.Stats, ahead?: ParsedAhead): ScanStats;
}

export function createFileIndexer(
  db: Db,
  adapters: ReadonlyMap<SourceKind, Adapter>,
  writer: Writer,
  group: BatchGroup,
  excluded: (file: string) => boolean,
): FileIndexer {
  /**
   * Indexes whatever is new in one file. Never throws for a bad file: problems go into `stats`.
   * Throws a StoreError when the index itself cannot be written: then no other file could be either.
   */
  function indexFile(kind: SourceKind, file: string, stats: ScanStats = emptyStats(), known: KnownFiles = NONE, st?: fs.Stats, ahead?: ParsedAhead): ScanStats {
    return guard(db, () => indexOne(kind, file, stats, known, st, ahead));
  }

  /** `taken`: the file's stat when the caller (a scan) has just taken it. */
  function indexOne(kind: SourceKind, file: string, stats: ScanStats, known: KnownFiles, taken: fs.Stats | undefined, parsed: ParsedAhead | undefined): ScanStats {
    const adapter = adapters.get(kind);
    if (!adapter) throw new Error(`No adapter for source kind ${kind}`);
    if (excluded(file)) return stats;
    // Another process (or the watcher, between two slices of a scan) indexed it since it was sent:
    // it is read here, from its row and a stat of now.
    const ahead = parsed && !writer.fileRow(file) ? parsed : undefined;
    let st: fs.Stats;
    try {
      st = ahead?.st ?? taken ?? fs.statSync(file);
    } catch (err) {
      report(stats, { path: file, line: null, reason: `cannot stat: ${(err as Error).message}` });
      return stats;
    }
    stats.files++;
    if (!st.isFile()) {
      report(stats, { path: file, line: null, reason: 'not a regular file (a FIFO, socket, device or folder): not read' });
      return stats;
    }
    const whole = adapter.createReader && (adapter.readsWhole?.(file) ?? true) ? adapter : null;
    // A document's stamp may be another file's (its sidecar, a database's journal): see DocumentAdapter.stamp.
    const stamp = whole?.stamp ? whole.stamp(file, st) : st;
    const mtimeMs = Math.floor(stamp.mtimeMs);
    if (unchanged(known.get(file), stamp.size, mtimeMs, st.ino)) return stats;
    let row = writer.fileRow(file);
    if (unchanged(row, stamp.size, mtimeMs, st.ino)) return stats;
    const createParser = adapter.createParser?.bind(adapter);
    if (!whole && !createParser) throw new Error(`The ${kind} adapter reads ${file} neither whole nor by line`);
    row ??= group.newRow(file, whole ? whole.kind : kind);
    // A document is never reset: its records are found by their source ids, and reading it again
    // replaces them in place. A file read by line that was replaced or truncated is read from the start.
    if (!whole && row.inode !== 0 && (row.inode !== st.ino || st.size < row.committed_offset)) {
      writer.resetFile(row);
      row = writer.fileRow(file)!;
    }
    if (ahead) {
      settle(row, stats, () => writeParsed(ahead, row!, st, { size: stamp.size, mtimeMs }, stats));
      return stats;
    }
    let fd: number;
    try {
      fd = openRegular(file); // read-only: Throughline never writes an agent's files
    } catch (err) {
      setAside(row, `cannot open: ${(err as Error).message}`, stats);
      return stats;
    }
    try {
      const opened = row;
      settle(row, stats, () => (whole ? readWhole(whole, opened, fd, st, { size: stamp.size, mtimeMs }, stats) : parseFrom(createParser!, opened, fd, st, stats)));
    } finally {
      fs.closeSync(fd);
    }
    return stats;
  }

  /** Runs the reading of one file: a bad file is set aside, a failure of the index goes up. */
  function settle(row: FileRow, stats: ScanStats, read: () => void): void {
    try {
      read();
    } catch (err) {
      if (err instanceof RetryGroup || storeErrorFrom(err, db.name)) throw err;
      // Another process (the daemon, a CLI run) is indexing this file right now: it is theirs.
      if (err instanceof StaleFileError) return;
      // An adapter or data bug in this one file: its batch rolled back, the file is marked and tried
      // again on the next scan, and the other files are indexed meanwhile.
      setAside(row, `not indexed further: ${(err as Error).message}`, stats);
    }
  }

  /** Writes what the parse worker made of a new file, as readWhole or parseFrom would have. */
  function writeParsed(ahead: ParsedAhead, row: FileRow, st: fs.Stats, stamp: { size: number; mtimeMs: number }, stats: ScanStats): void {
    const first = ahead.reply(0);
    if (first?.error?.opening) return setAside(row, `cannot open: ${first.error.reason}`, stats);
    if (!ahead.whole) return writeBatches(row, repliedBatches(ahead), st, stats);
    if (!first?.document) throw new ParseFailed(first?.error?.reason ?? 'the parse worker stopped');
    writeDocument(row, first.document, st, stamp, stats);
  }

  /** A new file's batches as the parse worker sends them; throws where its parsing failed. */
  function* repliedBatches(ahead: ParsedAhead): Generator<ParsedBatch> {
    for (let i = 0; ; i++) {
      const reply = ahead.reply(i);
      if (!reply) throw new ParseFailed('the parse worker stopped');
      if (reply.batch) yield reply.batch;
      if (reply.error) throw new ParseFailed(reply.error.reason);
      if (reply.done) return;
    }
  }

  function setAside(row: FileRow, reason: string, stats: ScanStats): void {
    writer.setFileStatus(group.stored(row), 'error', reason);
    report(stats, { path: row.path, line: null, reason });
  }

  /** A source read whole (see DocumentReader); nothing of a malformed one is applied. */
  function readWhole(adapter: DocumentAdapter, row: FileRow, fd: number, st: fs.Stats, stamp: { size: number; mtimeMs: number }, stats: ScanStats): void {
    const previous = restoredState(row);
    writeDocument(row, readDocument(adapter.createReader(row.path, previous), fd, st.size, previous), st, stamp, stats);
  }

  function writeDocument(row: FileRow, parsed: ParsedDocument, st: fs.Stats, stamp: { size: number; mtimeMs: number }, stats: ScanStats): void {
    const { ops, problems, state } = parsed;
    group.commit(row, ops, { offset: stamp.size, line: 0, state, size: stamp.size, mtimeMs: stamp.mtimeMs, inode: st.ino }, problems, false);
    const touched = new Set<string>();
    countBatch(stats, row.path, ops, problems, touched, true);
    stats.parsedFiles++;
    stats.bytes += st.size;
    stats.conversations += touched.size;
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
    const { parser, row } = resume(createParser, from);
    writeBatches(row, lineBatches(parser, fd, row.committed_offset, row.committed_line, st.size), st, stats);
  }

  /** Commits a file's batches one by one as they come (held, in a group: see batch-group.ts). */
  function writeBatches(from: FileRow, batches: Iterable<ParsedBatch>, st: fs.Stats, stats: ScanStats): void {
    let row = from;
    let committed = false;
    const touched = new Set<string>();
    for (const batch of batches) {
      // The stat is stored with the last batch only: a run stopped before it must not leave the file
      // looking unchanged (size, mtime and inode as seen), or the next scan would skip the rest.
      const size = batch.more ? batch.endOffset : st.size;
      const progress = { offset: batch.endOffset, line: batch.line, state: batch.state, size, mtimeMs: Math.floor(st.mtimeMs), inode: st.ino };
      group.commit(row, batch.ops, progress, batch.problems, batch.more);
      committed = true;
      countBatch(stats, row.path, batch.ops, batch.problems, touched, false);
      stats.bytes += batch.endOffset - row.committed_offset;
      row = { ...row, committed_offset: batch.endOffset, committed_line: batch.line };
    }
    stats.parsedFiles++;
    stats.conversations += touched.size;
    // Only a partial line (or nothing) was new: remember the size so an unchanged file is skipped.
    if (!committed) writer.touchFile(group.stored(row), st.size, Math.floor(st.mtimeMs));
  }

  return { indexFile };
}
