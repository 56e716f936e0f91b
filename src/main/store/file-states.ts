// What a scan reads of the session files under a folder, and the mark of a file that disappeared.
import path from 'node:path';
import type { Db } from './db.js';
import type { FileRow } from './writer.js';

/** A file's row as a scan compares it with the file's stat. */
export type FileState = Pick<FileRow, 'id' | 'path' | 'status' | 'size' | 'mtime_ms' | 'inode' | 'committed_offset'>;

export function createFileStates(db: Db) {
  // Read from the covering index source_files_state: the table rows carry the parser state (often in
  // overflow pages), and reading them one file at a time made an unchanged re-scan of 10k files take
  // ~1 s (BENCHMARKS.md).
  const statesUnder = db.prepare<[string, string], FileState>(
    'SELECT id, path, status, size, mtime_ms, inode, committed_offset FROM source_files WHERE path >= ? AND path < ?',
  );
  const markMissing = db.prepare("UPDATE source_files SET status = 'missing' WHERE id = ?");
  return {
    /** The rows of every file under the folder `root` (an absolute path). */
    under(root: string): FileState[] {
      return statesUnder.all(root + path.sep, root + String.fromCharCode(path.sep.charCodeAt(0) + 1));
    },
    /** The file is gone: its conversations are kept, only the file is marked. */
    markMissing(id: number): void {
      markMissing.run(id);
    },
  };
}
