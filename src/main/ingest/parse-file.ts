// Parsing a session file into batches of ops, apart from writing them: the same code runs on the
// scan's own thread (index-file.ts) and on its parse worker (parse-worker.ts), which parses the
// files of a cold index ahead while the scan's thread writes (parse-ahead.ts).
import type { LineProblem } from '../store/interface.js';
import { MAX_LINE, readLines, type SkippedLine } from './read-lines.js';
import { LineError, type DocumentReader, type IngestOp, type LineParser } from './types.js';

/** One batch of a file read by line: what a commit writes, and where it leaves the file. */
export interface ParsedBatch {
  ops: IngestOp[];
  problems: LineProblem[];
  /** Byte offset just past the batch's last line. */
  endOffset: number;
  /** The number of the batch's last line. */
  line: number;
  /** The parser's state after the batch. */
  state: unknown;
  /** Another batch of this file follows. */
  more: boolean;
}

/** What a document read whole holds: nothing of a malformed one (its problem says why). */
export interface ParsedDocument {
  ops: IngestOp[];
  problems: LineProblem[];
  state: unknown;
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

/**
 * The batches of `fd` from byte `offset` (after line `line`) up to `size`, parsed by `parser`.
 * Throws what an adapter throws outside a line (the caller sets the file aside).
 */
export function* lineBatches(parser: LineParser, fd: number, offset: number, line: number, size: number): Generator<ParsedBatch> {
  const chunks = readLines(fd, offset, size);
  let lineNo = line;
  try {
    for (let next = chunks.next(); !next.done; ) {
      const chunk = next.value;
      const { ops, problems } = parseLines(parser, chunk.lines, lineNo + 1);
      lineNo += chunk.lines.length;
      // Read ahead before committing: the last batch is the one that rebuilds conversation_terms.
      next = chunks.next();
      if (parser.unfinished) {
        try {
          for (const op of parser.unfinished(next.done === true)) ops.push(op);
        } catch (err) {
          problems.push({ line: lineNo, reason: `adapter error: ${(err as Error).message}` });
        }
      }
      yield { ops, problems, endOffset: chunk.endOffset, line: lineNo, state: parser.state(), more: next.done !== true };
    }
  } finally {
    chunks.return(undefined); // gives the read buffer back if a commit threw
  }
}

/** A source read whole (see DocumentReader); a malformed one gives no ops and its problem. */
export function readDocument(reader: DocumentReader, fd: number, size: number, previous: unknown): ParsedDocument {
  try {
    const ops = reader.read(fd, size);
    return { ops, problems: [], state: reader.state() };
  } catch (err) {
    if (!(err instanceof LineError)) throw err;
    // Its stamp is kept so it is read again once it changes.
    return { ops: [], problems: [{ line: err.line ?? null, reason: err.message }], state: previous };
  }
}
