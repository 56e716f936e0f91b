// Session folders are written by other programs, and anything can be put there: a FIFO (or a link to
// one) opened the ordinary way blocks until someone writes to it, freezing the indexer and with it
// the daemon. Files are opened without blocking and read only when they are regular files.
import fs from 'node:fs';
import { NamedError } from '../../shared/errors.js';

export class NotRegularFileError extends NamedError {
  constructor(file: string) {
    super(`${file} is not a regular file (a FIFO, socket, device or folder): not read`);
  }
}

/**
 * Opens `file` read-only without blocking, and keeps it open only if it is a regular file (checked
 * on the open descriptor, after links: a file swapped for a FIFO after a stat is caught too).
 */
export function openRegular(file: string): number {
  const fd = fs.openSync(file, fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK ?? 0));
  let regular = false;
  try {
    regular = fs.fstatSync(fd).isFile();
  } finally {
    if (!regular) fs.closeSync(fd);
  }
  if (!regular) throw new NotRegularFileError(file);
  return fd;
}

/** The first `size` bytes of an open file as text (fewer when it shrank meanwhile). */
export function readText(fd: number, size: number): string {
  const buf = Buffer.alloc(size);
  let got = 0;
  while (got < size) {
    const n = fs.readSync(fd, buf, got, size - got, got);
    if (n <= 0) break;
    got += n;
  }
  return buf.toString('utf8', 0, got);
}

/** A small file beside a session (a sidecar), as text; undefined when absent, not regular or over `max` bytes. */
export function readRegularFile(file: string, max = 1 << 20): string | undefined {
  let fd: number;
  try {
    fd = openRegular(file);
  } catch {
    return undefined;
  }
  try {
    const size = fs.fstatSync(fd).size;
    return size > max ? undefined : readText(fd, size);
  } finally {
    fs.closeSync(fd);
  }
}
