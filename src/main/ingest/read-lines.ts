// Reads a file's complete lines from a byte offset. A last line without its newline is not
// returned: it may still be being written, and is read once its newline arrives.
import fs from 'node:fs';

/** A line of MAX_LINE bytes or more: passed over, never held in memory, recorded as skipped. */
export interface SkippedLine {
  skippedBytes: number;
}

export interface LineChunk {
  lines: (string | SkippedLine)[];
  /** Byte offset just past the last complete line of this chunk. */
  endOffset: number;
}

/**
 * The longest line read. No real record comes near it (a session's largest tool outputs are a few
 * MB); a single 50 MB line used to take 1.45 GB and 5.5 s to parse, blocking the daemon.
 */
export const MAX_LINE = 16 << 20;

const CHUNK = 4 << 20;
/**
 * A batch (one commit, see scan.ts) holds at most about this many bytes of lines: a large file's
 * batches each commit alone, and every other writer of the index waits for the one in progress.
 */
const BATCH = 1 << 20;

// One read buffer reused from file to file: a fresh multi-MB buffer per file costs page faults on
// every read (see BENCHMARKS.md). A reader takes it while it runs and gives it back when done, so
// two readers alive at once never share it. Lines are decoded out of it: nothing yielded points in.
let spare: Buffer | null = null;

/**
 * Yields batches of complete lines from `start` up to `end` (the size seen by stat).
 * Lines are decoded as UTF-8; invalid bytes become U+FFFD rather than stopping the read.
 * A line of `maxLine` bytes or more comes as a SkippedLine: read past, in pieces, with the buffer
 * never growing beyond `maxLine`.
 */
export function* readLines(fd: number, start: number, end: number, maxLine = MAX_LINE): Generator<LineChunk> {
  let buf = spare ?? Buffer.allocUnsafe(CHUNK);
  spare = null;
  try {
    yield* readInto(buf, fd, start, end, maxLine, (b) => (buf = b));
  } finally {
    // A buffer grown for a giant line is not worth keeping around.
    spare = buf.length <= 4 * CHUNK ? buf : null;
  }
}

function* readInto(buf: Buffer, fd: number, start: number, end: number, maxLine: number, grown: (b: Buffer) => void): Generator<LineChunk> {
  let offset = start;
  let carry = 0; // bytes at the front of the buffer: the start of a line whose newline is not read yet
  let skipped = -1; // while >= 0: passing over a line of maxLine bytes or more, this many bytes of it so far (none kept)
  while (offset < end) {
    // A line longer than the buffer (and shorter than maxLine): grow it.
    if (carry === buf.length) {
      const bigger = Buffer.allocUnsafe(buf.length * 2);
      buf.copy(bigger, 0, 0, carry);
      buf = bigger;
      grown(bigger);
    }
    const want = Math.min(buf.length - carry, end - offset);
    const got = fs.readSync(fd, buf, carry, want, offset);
    if (got <= 0) break;
    offset += got;
    const filled = carry + got;
    const base = offset - filled; // the file offset of buf[0]
    let lines: (string | SkippedLine)[] = [];
    let s = 0;
    if (skipped >= 0) {
      const nl = buf.subarray(0, filled).indexOf(0x0a);
      if (nl < 0) {
        skipped += filled;
        continue;
      }
      lines.push({ skippedBytes: skipped + nl });
      skipped = -1;
      s = nl + 1;
    }
    // Decoding line by line rather than the whole chunk at once: an ASCII line then becomes a
    // one-byte string (a chunk with one non-ASCII character anywhere would make every line
    // two-byte), which halves the memory and speeds up JSON.parse.
    const lastNl = buf.lastIndexOf(0x0a, filled - 1);
    let from = s;
    while (s <= lastNl) {
      const nl = buf.indexOf(0x0a, s);
      lines.push(nl - s >= maxLine ? { skippedBytes: nl - s } : buf.toString('utf8', s, nl));
      s = nl + 1;
      if (s - from >= BATCH && s <= lastNl) {
        yield { lines, endOffset: base + s };
        lines = [];
        from = s;
      }
    }
    carry = filled - s;
    if (carry >= maxLine) {
      // No newline yet in maxLine bytes: drop what is held and read on to the newline.
      skipped = carry;
      carry = 0;
    } else if (carry > 0 && s > 0) buf.copy(buf, 0, s, filled);
    if (lines.length) yield { lines, endOffset: base + s };
  }
}
