// Indexing one session file: whatever is new in it since its committed offset (a file read by line),
// or all of it again when its stamp changed (a file read whole). A bad file never stops a scan.
import fs from 'node:fs';
import type { SourceKind } from '../../shared/types.js';
import { storeErrorFrom, type Db } from '../store/db.js';
import type { FileState } from '../store/file-states.js';
import { StaleFileError, type FileRow, type LineProblem, type Writer } from '../store/writer.js';
import { type BatchGroup, guard, RetryGroup } from './batch-group.js';
import { MAX_LINE, readLines, type SkippedLine } from './read-lines.js';
import { openRegular } from './regular-file.js';
import { countBatch, emptyStats, report, type ScanStats } from './scan-stats.js';
import { LineError, type Adapter, type DocumentAdapter, type IngestOp, type LineParser } from './types.js';

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

export interface FileIndexer {
  /**
   * Indexes whatever is new in one file. Never throws for a bad file: problems go into `stats`.
   * Throws a StoreError when the index itself cannot be written: then no other file could be either.
   */
  indexFile(kind: SourceKind, file: string, stats?: ScanStats, known?: KnownFiles, st?: fs.Stats): ScanStats;
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
  function indexFile(kind: SourceKind, file: string, stats: ScanStats = emptyStats(), known: KnownFiles = NONE, st?: fs.Stats): ScanStats {
    return guard(db, () => indexOne(kind, file, stats, known, st));
  }

  /** `taken`: the file's stat when the caller (a scan) has just taken it. */
  function indexOne(kind: SourceKind, file: string, stats: ScanStats, known: KnownFiles, taken: fs.Stats | undefined): ScanStats {
    const adapter = adapters.get(kind);
    if (!adapter) throw new Error(`No adapter for source kind ${kind}`);
    if (excluded(file)) return stats;
    let st: fs.Stats;
    try {
      st = taken ?? fs.statSync(file);
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
    const found = known.get(file);
    if (unchanged(found, stamp.size, mtimeMs, st.ino)) return stats;
    // A file discovery found no row for is new (read from its start, inserted with its first batch): if
    // another process indexed it since, that batch finds their row and leaves the file to them.
    let row = found || known === NONE ? writer.fileRow(file) : undefined;
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
    let fd: number;
    try {
      fd = openRegular(file); // read-only: Throughline never writes an agent's files
    } catch (err) {
      setAside(row, `cannot open: ${(err as Error).message}`, stats);
      return stats;
    }
    try {
      if (whole) readDocument(whole, row, fd, st, { size: stamp.size, mtimeMs }, stats);
      else parseFrom(createParser!, row, fd, st, stats);
    } catch (err) {
      if (err instanceof RetryGroup || storeErrorFrom(err, db.name)) throw err;
      // Another process (the daemon, a CLI run) is indexing this file right now: it is theirs.
      if (err instanceof StaleFileError) return stats;
      // An adapter or data bug in this one file: its batch rolled back, the file is marked and tried
      // again on the next scan, and the other files are indexed meanwhile.
      setAside(row, `not indexed further: ${(err as Error).message}`, stats);
    } finally {
      fs.closeSync(fd);
    }
    return stats;
  }

  function setAside(row: FileRow, reason: string, stats: ScanStats): void {
    writer.setFileStatus(group.stored(row), 'error', reason);
    report(stats, { path: row.path, line: null, reason });
  }

  /** A source read whole (see DocumentReader); nothing of a malformed one is applied. */
  function readDocument(adapter: DocumentAdapter, row: FileRow, fd: number, st: fs.Stats, stamp: { size: number; mtimeMs: number }, stats: ScanStats): void {
    const previous = restoredState(row);
    const reader = adapter.createReader(row.path, previous);
    const problems: LineProblem[] = [];
    let ops: IngestOp[] = [];
    let state: unknown = previous;
    try {
      ops = reader.read(fd, st.size);
      state = reader.state();
    } catch (err) {
      if (!(err instanceof LineError)) throw err;
      // Its stamp is kept so it is read again once it changes.
      problems.push({ line: err.line ?? null, reason: err.message });
    }
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

  /** The lines of one read-ahead chunk as ops, and the problems of the lines that could not be read. */
  function parseLines(parser: LineParser, lines: readonly (string | SkippedLine)[], firstLine: number): { ops: IngestOp[]; problems: LineProblem[] } {
    const ops: IngestOp[] = [];
    const problems: LineProblem[] = [];
    let lineNo = firstLine - 1;
    for (const raw of lines) {
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
    return { ops, problems };
  }

  function parseFrom(createParser: CreateParser, from: FileRow, fd: number, st: fs.Stats, stats: ScanStats): void {
    const { parser, row: resumed } = resume(createParser, from);
    let row = resumed;
    let committed = false;
    const touched = new Set<string>();
    const chunks = readLines(fd, row.committed_offset, st.size);
    try {
      for (let next = chunks.next(); !next.done; ) {
        const chunk = next.value;
        const { ops, problems } = parseLines(parser, chunk.lines, row.committed_line + 1);
        const lineNo = row.committed_line + chunk.lines.length;
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
        group.commit(row, ops, progress, problems, !next.done);
        committed = true;
        countBatch(stats, row.path, ops, problems, touched, false);
        stats.bytes += chunk.endOffset - row.committed_offset;
        row = { ...row, committed_offset: chunk.endOffset, committed_line: lineNo };
      }
    } finally {
      chunks.return(undefined); // gives the read buffer back if a commit threw
    }
    stats.parsedFiles++;
    stats.conversations += touched.size;
    // Only a partial line (or nothing) was new: remember the size so an unchanged file is skipped.
    if (!committed) writer.touchFile(group.stored(row), st.size, Math.floor(st.mtimeMs));
  }

  return { indexFile };
}
