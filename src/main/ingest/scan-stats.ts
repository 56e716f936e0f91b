// What a scan tells its caller: counts, the problems found (file and line), and progress on the way.
import type { LineProblem } from '../store/writer.js';
import type { IngestOp } from './types.js';

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

/** At most this many problems are returned from one scan; all of them are recorded in the index. */
const MAX_REPORTED = 200;

export function emptyStats(): ScanStats {
  return { files: 0, parsedFiles: 0, entries: 0, conversations: 0, bytes: 0, skippedLines: 0, missing: 0, errors: [], ms: 0 };
}

export function report(stats: ScanStats, problem: IngestProblem): void {
  if (stats.errors.length < MAX_REPORTED) stats.errors.push(problem);
}

/**
 * Counts a committed batch of `file`: its skipped lines, its entries (and, for a document, its
 * records) and the conversations it touched (added to `touched`, counted once per file).
 */
export function countBatch(stats: ScanStats, file: string, ops: readonly IngestOp[], problems: readonly LineProblem[], touched: Set<string>, records: boolean): void {
  for (const p of problems) report(stats, { path: file, ...p });
  stats.skippedLines += problems.length;
  for (const op of ops) {
    if (op.op === 'entry' || (records && op.op === 'record')) stats.entries++;
    touched.add(op.conv);
  }
}

export function progressOf(stats: ScanStats, done: number, total: number, t0: number): ScanProgress {
  return { filesDone: done, filesTotal: total, entries: stats.entries, bytes: stats.bytes, elapsedMs: performance.now() - t0 };
}
