// Reading for the hook without streams: the first lines of a transcript, and stdin. Node's stream and
// readline modules cost more to load than the hook's whole common path takes to run, and it runs on
// every prompt.
import type { Stats } from 'node:fs';
import { fs } from '../builtins.js';

const CHUNK = 64 * 1024;

/**
 * Calls `onLine` for each line of a regular file, from the start, until it returns true (stop) or
 * `limit` bytes are read. Resolves to whether the whole file was read. Not for FIFOs or devices
 * (the caller checks): a read of those could block.
 */
export function eachLine(file: string, limit: number, onLine: (line: string) => boolean): boolean {
  const fd = fs.openSync(file, 'r');
  try {
    const buf = Buffer.alloc(CHUNK);
    let rest = '';
    let read = 0;
    for (;;) {
      const n = fs.readSync(fd, buf, 0, Math.min(CHUNK, limit - read), read);
      if (n <= 0) break;
      read += n;
      const text = rest + buf.toString('utf8', 0, n);
      const lines = text.split('\n');
      rest = lines.pop()!;
      for (const line of lines) if (onLine(line)) return false;
      if (read >= limit) return false;
    }
    if (rest && onLine(rest)) return false;
    return true;
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * A transcript as the hooks find it: not written yet, not a regular file (a FIFO or a device: a read
 * would block, and no agent writes its transcript there), or a file of `size` bytes.
 */
export type Transcript = { kind: 'absent' } | { kind: 'special' } | { kind: 'file'; size: number };

export function transcriptAt(file: string): Transcript {
  let st: Stats;
  try {
    st = fs.statSync(file);
  } catch {
    return { kind: 'absent' };
  }
  return st.isFile() ? { kind: 'file', size: st.size } : { kind: 'special' };
}

/**
 * True when a JSONL transcript, read from its start, ends within `limit` bytes with no record that
 * `isOtherPrompt` takes for an earlier prompt of the person's (only lines holding `marker` are
 * parsed). A head longer than `limit` is a session past its start: false.
 */
export function noOtherPrompt(file: string, limit: number, marker: string, isOtherPrompt: (record: unknown) => boolean): boolean {
  let earlier = false;
  const whole = eachLine(file, limit, (line) => {
    if (!line.includes(marker)) return false;
    let record: unknown;
    try {
      record = JSON.parse(line);
    } catch {
      return false;
    }
    earlier = isOtherPrompt(record);
    return earlier;
  });
  return !earlier && whole;
}

/** All of stdin (at most `max` bytes), read asynchronously so a deadline timer can still fire. */
export function readStdin(max: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const next = () =>
      fs.read(0, Buffer.alloc(CHUNK), 0, CHUNK, null, (err, n, buf) => {
        if (err) {
          if ((err as NodeJS.ErrnoException).code === 'EAGAIN') return setTimeout(next, 5);
          if ((err as NodeJS.ErrnoException).code === 'EOF') return resolve(Buffer.concat(chunks).toString('utf8'));
          return reject(err);
        }
        if (n === 0) return resolve(Buffer.concat(chunks).toString('utf8'));
        size += n;
        if (size > max) return reject(new Error(`hook input over ${max} bytes`));
        chunks.push(buf.subarray(0, n));
        next();
      });
    next();
  });
}
