// Incremental indexing of session files: each file is read from its committed byte offset, a
// replaced or truncated file is re-indexed from the start, an unchanged file is not opened at all.
import fs from 'node:fs';
import path from 'node:path';
import type { SourceKind } from '../../shared/types.js';
import type { Db } from '../store/db.js';
import { createWriter, type FileRow, type LineProblem } from '../store/writer.js';
import type { ExclusionMatcher } from '../privacy.js';
import { readLines } from './read-lines.js';
import { LineError, type Adapter, type IngestOp } from './types.js';

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
}

/** At most this many problems are returned from one scan; all of them are recorded in the index. */
const MAX_REPORTED = 200;

export type Indexer = ReturnType<typeof createIndexer>;

export interface IndexerOptions {
  /** Excluded paths and workspaces (see privacy.ts): such files are not read, such conversations not kept. */
  excluded?: ExclusionMatcher;
}

export function createIndexer(db: Db, adapters: ReadonlyMap<SourceKind, Adapter>, options: IndexerOptions = {}) {
  const excluded = options.excluded ?? (() => false);
  const writer = createWriter(db, { excluded });
  const filesUnder = db.prepare<[string, string], { id: number; path: string }>(
    "SELECT id, path FROM source_files WHERE status != 'missing' AND path >= ? AND path < ?",
  );
  const markMissing = db.prepare("UPDATE source_files SET status = 'missing' WHERE id = ?");

  function emptyStats(): ScanStats {
    return { files: 0, parsedFiles: 0, entries: 0, conversations: 0, bytes: 0, skippedLines: 0, missing: 0, errors: [], ms: 0 };
  }

  function report(stats: ScanStats, problem: IngestProblem): void {
    if (stats.errors.length < MAX_REPORTED) stats.errors.push(problem);
  }

  /** Indexes whatever is new in one file. Never throws for a bad file: problems go into `stats`. */
  function indexFile(kind: SourceKind, file: string, stats: ScanStats = emptyStats()): ScanStats {
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
    let row = writer.fileRow(file);
    const mtimeMs = Math.floor(st.mtimeMs);
    if (row && row.status === 'ok' && row.size === st.size && row.mtime_ms === mtimeMs && row.inode === st.ino) return stats;
    row ??= writer.ensureFile(file, kind);
    const replaced = row.inode !== 0 && (row.inode !== st.ino || st.size < row.committed_offset);
    if (replaced) {
      writer.resetFile(row);
      row = writer.fileRow(file)!;
    }
    let fd: number;
    try {
      fd = fs.openSync(file, 'r'); // read-only: Throughline never writes an agent's files
    } catch (err) {
      const reason = `cannot open: ${(err as Error).message}`;
      writer.setFileStatus(row, 'error', reason);
      report(stats, { path: file, line: null, reason });
      return stats;
    }
    try {
      parseFrom(adapter, row, fd, st, stats);
    } finally {
      fs.closeSync(fd);
    }
    return stats;
  }

  function parseFrom(adapter: Adapter, row: FileRow, fd: number, st: fs.Stats, stats: ScanStats): void {
    const state: unknown = row.parser_state ? JSON.parse(row.parser_state) : undefined;
    const parser = adapter.createParser(row.path, state);
    let lineNo = row.committed_line;
    let committed = false;
    const touched = new Set<string>();
    for (const chunk of readLines(fd, row.committed_offset, st.size)) {
      const ops: IngestOp[] = [];
      const problems: LineProblem[] = [];
      for (const raw of chunk.lines) {
        lineNo++;
        const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
        if (line.trim() === '') continue;
        try {
          for (const op of parser.line(line, lineNo)) ops.push(op);
        } catch (err) {
          // A bad line costs only itself; an adapter bug is reported the same way, never fatal.
          const reason = err instanceof LineError ? err.message : `adapter error: ${(err as Error).message}`;
          problems.push({ line: lineNo, reason });
        }
      }
      writer.commitBatch(row, ops, { offset: chunk.endOffset, line: lineNo, state: parser.state(), size: st.size, mtimeMs: Math.floor(st.mtimeMs), inode: st.ino });
      committed = true;
      if (problems.length) writer.recordProblems(row.path, problems);
      for (const p of problems) report(stats, { path: row.path, ...p });
      stats.skippedLines += problems.length;
      stats.bytes += chunk.endOffset - row.committed_offset;
      for (const op of ops) {
        if (op.op === 'entry') stats.entries++;
        touched.add(op.conv);
      }
      row = { ...row, committed_offset: chunk.endOffset, committed_line: lineNo };
    }
    stats.parsedFiles++;
    stats.conversations += touched.size;
    // Only a partial line (or nothing) was new: remember the size so an unchanged file is skipped.
    if (!committed) writer.touchFile(row, st.size, Math.floor(st.mtimeMs));
  }

  function walk(dir: string, adapter: Adapter, out: string[], stats: ScanStats): void {
    let items: fs.Dirent[];
    try {
      items = fs.readdirSync(dir, { withFileTypes: true });
    } catch (err) {
      report(stats, { path: dir, line: null, reason: `cannot read folder: ${(err as Error).message}` });
      return;
    }
    for (const item of items) {
      const full = path.join(dir, item.name);
      // Directory symlinks are not followed: they can loop, and agents do not write them.
      if (item.isDirectory()) walk(full, adapter, out, stats);
      else if ((item.isFile() || item.isSymbolicLink()) && adapter.isSessionFile(full) && !excluded(full)) out.push(full);
    }
  }

  /** The session files under each source, marking files that disappeared as missing. */
  function discover(sources: readonly Source[], stats: ScanStats): { kind: SourceKind; file: string }[] {
    const work: { kind: SourceKind; file: string }[] = [];
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
      for (const f of filesUnder.all(root + path.sep, root + String.fromCharCode(path.sep.charCodeAt(0) + 1))) {
        if (!seen.has(f.path)) {
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

  function scan(sources: readonly Source[], options: ScanOptions = {}): ScanStats {
    const t0 = performance.now();
    const stats = emptyStats();
    const work = discover(sources, stats);
    let bytesBefore = -1;
    work.forEach(({ kind, file }, i) => {
      indexFile(kind, file, stats);
      if (options.onProgress && (stats.bytes !== bytesBefore || i === work.length - 1)) {
        bytesBefore = stats.bytes;
        options.onProgress(progress(stats, i + 1, work.length, t0));
      }
    });
    stats.ms = Math.round(performance.now() - t0);
    return stats;
  }

  /** The same scan, yielding to the event loop between files so a server keeps answering meanwhile. */
  async function scanAsync(sources: readonly Source[], options: ScanOptions = {}): Promise<ScanStats> {
    const t0 = performance.now();
    const stats = emptyStats();
    const work = discover(sources, stats);
    let slice = performance.now();
    for (let i = 0; i < work.length; i++) {
      indexFile(work[i]!.kind, work[i]!.file, stats);
      if (performance.now() - slice > 15) {
        options.onProgress?.(progress(stats, i + 1, work.length, t0));
        await new Promise((resolve) => setImmediate(resolve));
        slice = performance.now();
      }
    }
    options.onProgress?.(progress(stats, work.length, work.length, t0));
    stats.ms = Math.round(performance.now() - t0);
    return stats;
  }

  return { scan, scanAsync, indexFile };
}
