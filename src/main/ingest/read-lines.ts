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
 * Yields batches of complete lines from `start` up to `end` (the size seen by stat).
 * Lines are decoded as UTF-8; invalid bytes become U+FFFD rather than stopping the read.
 */
export function* readLines(fd: number, start: number, end: number): Generator<LineChunk> {
  let offset = start;
  let carry: Buffer | null = null;
  while (offset < end) {
    const want = Math.min(CHUNK, end - offset);
    const buf = Buffer.allocUnsafe(want);
    const got = fs.readSync(fd, buf, 0, want, offset);
    if (got <= 0) break;
    offset += got;
    const data: Buffer = carry ? Buffer.concat([carry, buf.subarray(0, got)]) : buf.subarray(0, got);
    const lastNl = data.lastIndexOf(0x0a);
    if (lastNl < 0) {
      carry = data;
      continue;
    }
    const complete = data.subarray(0, lastNl);
    carry = lastNl + 1 < data.length ? Buffer.from(data.subarray(lastNl + 1)) : null;
    const lines = complete.toString('utf8').split('\n');
    yield { lines, endOffset: offset - (carry?.length ?? 0) };
  }
}
