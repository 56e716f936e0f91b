// Reads a file's complete lines from a byte offset. A last line without its newline is not
// returned: it may still be being written, and is read once its newline arrives.
import fs from 'node:fs';

export interface LineChunk {
  lines: string[];
  /** Byte offset just past the last complete line of this chunk. */
  endOffset: number;
}

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
 */
export function* readLines(fd: number, start: number, end: number): Generator<LineChunk> {
  let buf = spare ?? Buffer.allocUnsafe(CHUNK);
  spare = null;
  try {
    yield* readInto(buf, fd, start, end, (b) => (buf = b));
  } finally {
    // A buffer grown for a giant line is not worth keeping around.
    spare = buf.length <= 4 * CHUNK ? buf : null;
  }
}

function* readInto(buf: Buffer, fd: number, start: number, end: number, grown: (b: Buffer) => void): Generator<LineChunk> {
  let offset = start;
  let carry = 0; // bytes at the front of the buffer left over from the previous read
  while (offset < end) {
    // A line longer than the buffer: grow it.
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
    const lastNl = buf.lastIndexOf(0x0a, filled - 1);
    if (lastNl < 0) {
      carry = filled;
      continue;
    }
    // Decoding line by line rather than the whole chunk at once: an ASCII line then becomes a
    // one-byte string (a chunk with one non-ASCII character anywhere would make every line
    // two-byte), which halves the memory and speeds up JSON.parse.
    const base = offset - filled; // the file offset of buf[0]
    let lines: string[] = [];
    let s = 0;
    let from = 0;
    while (s <= lastNl) {
      const nl = buf.indexOf(0x0a, s);
      lines.push(buf.toString('utf8', s, nl));
      s = nl + 1;
      if (s - from >= BATCH && s <= lastNl) {
        yield { lines, endOffset: base + s };
        lines = [];
        from = s;
      }
    }
    carry = filled - (lastNl + 1);
    if (carry > 0) buf.copy(buf, 0, lastNl + 1, filled);
    yield { lines, endOffset: offset - carry };
  }
}
