// What a scan reads of the session files under a folder, and the mark of a file that disappeared.
// A scan reads these rows a chunk of files at a time (ingest/discover.ts), never every file's at once.
import path from 'node:path';
import type { Db } from './db.js';
import type { FileRow } from './writer.js';

/** A file's row as a scan compares it with the file's stat. */
export type FileState = Pick<FileRow, 'id' | 'path' | 'status' | 'size' | 'mtime_ms' | 'inode' | 'committed_offset'>;

/** The rows under a folder when a scan of it starts: how many, how many not missing, and the highest id. */
export interface RowsUnder {
  rows: number;
  present: number;
  maxId: number;
}

/** The range of paths under the folder `root` (an absolute path): [root/, root0). */
function rangeUnder(root: string): [string, string] {
  return [root + path.sep, root + String.fromCharCode(path.sep.charCodeAt(0) + 1)];
}

/** The rows of a list of paths (a JSON array), from the covering index source_files_state. */
export const FILE_STATES_SQL = `SELECT j.key AS i, s.id, s.status, s.size, s.mtime_ms, s.inode, s.committed_offset
  FROM json_each(?) j JOIN source_files s INDEXED BY source_files_state ON s.path = j.value`;

export function createFileStates(db: Db) {
  // Read from the covering index source_files_state: the table rows carry the parser state (often in
  // overflow pages), and reading them one file at a time made an unchanged re-scan of 10k files take
  // ~1 s (BENCHMARKS.md).
  // Named: SQLite took the path's unique index and read each table row. Each row comes back with its
  // place in the list asked for rather than its path: decoding 42,777 paths again cost ~1/4 of these
  // reads on a re-scan of the 10k corpus (test/store/file-states-plan.test.ts).
  // As arrays (raw): made into objects by name, then copied with their path, the rows cost another
  // third of these reads.
  const statesOf = db.prepare<[string], [number, number, FileState['status'], number, number, number, number]>(FILE_STATES_SQL).raw();
  const rowsUnder = db.prepare<[string, string], RowsUnder>(
    "SELECT count(*) AS rows, coalesce(sum(status <> 'missing'), 0) AS present, coalesce(max(id), 0) AS maxId FROM source_files WHERE path >= ? AND path < ?",
  );
  const presentPage = db.prepare<[string, string, number], Pick<FileState, 'id' | 'path'>>(
    "SELECT id, path FROM source_files WHERE path > ? AND path < ? AND status <> 'missing' ORDER BY path LIMIT ?",
  );
  // Only under a folder an adapter asks for (OpenCode's message files: many small states), a page at a
  // time: each row is a lookup in the table (the states are not in an index), 7,600 of them at 10k.
  const parserStatesPage = db.prepare<[string, string, number], { path: string; parser_state: string }>(
    'SELECT path, parser_state FROM source_files WHERE path > ? AND path < ? AND parser_state IS NOT NULL ORDER BY path LIMIT ?',
  );
  const markMissing = db.prepare("UPDATE source_files SET status = 'missing' WHERE id = ?");
  return {
    /** The rows of those of `files` that have one. */
    of(files: readonly string[]): FileState[] {
      const out: FileState[] = [];
      for (const [i, id, status, size, mtime_ms, inode, committed_offset] of statesOf.all(JSON.stringify(files))) {
        out.push({ id, path: files[i]!, status, size, mtime_ms, inode, committed_offset });
      }
      return out;
    },
    /** The next `limit` parser states (JSON text) stored for files under the folder `root`, by path, after the path `after` (root itself to start). */
    parserStatesAfter(root: string, after: string, limit: number): { path: string; parser_state: string }[] {
      const [from, to] = rangeUnder(root);
      return parserStatesPage.all(after > from ? after : from, to, limit);
    },
    /** How many rows there are under the folder `root` (an absolute path). */
    countUnder(root: string): RowsUnder {
      return rowsUnder.get(...rangeUnder(root))!;
    },
    /** The next `limit` rows not marked missing under `root`, by path, after the path `after` (root itself to start). */
    presentAfter(root: string, after: string, limit: number): Pick<FileState, 'id' | 'path'>[] {
      const [from, to] = rangeUnder(root);
      return presentPage.all(after > from ? after : from, to, limit);
    },
    /** The file is gone: its conversations are kept, only the file is marked. */
    markMissing(id: number): void {
      markMissing.run(id);
    },
  };
}
