// The writer's source-file rows: how far each file has been read (committed with the batch that read
// it), its status, the problems found in it, and a reset that drops everything it produced.
import type { SourceKind } from '../../shared/types.js';
import type { WritableDb } from './db.js';
import type { FileProgress, FileRow, LineProblem } from './interface.js';
import { writeTransaction } from './write-lock.js';
import type { FtsWrites } from './fts-writes.js';

export interface FileRows {
  fileRow(path: string): FileRow | undefined;
  /** How far the file's row says it was read (undefined: no row), from the covering index alone. */
  committedOffset(path: string): number | undefined;
  /** The file's row, inserted if new (its own transaction, or part of the caller's). */
  ensureFile(path: string, kind: SourceKind, likelyNew?: boolean): FileRow;
  /** The file's progress, in the caller's transaction. */
  commitProgress(file: FileRow, progress: FileProgress): void;
  /** Drops everything the file produced, keeping conversation rows (and so their ids); in the caller's transaction. */
  reset(file: FileRow): void;
  recordProblems(path: string, problems: readonly LineProblem[]): void;
  touchFile(file: FileRow, size: number, mtimeMs: number): void;
  setFileStatus(file: FileRow, status: FileRow['status'], error: string | null): void;
}

/** A new source_files row's columns but its id, path and kind: the table's defaults (schema.ts). */
const NEW_FILE = { size: 0, mtime_ms: 0, inode: 0, committed_offset: 0, committed_line: 0, parser_state: null, status: 'ok', error: null, indexed_at: null } as const;

export function createFileRows(db: WritableDb, fts: FtsWrites): FileRows {
  const s = {
    file: db.prepare<[string], FileRow>('SELECT * FROM source_files WHERE path = ?'),
    // Not the whole row: it carries the parser state, often in overflow pages.
    offset: db.prepare<[string], number>('SELECT committed_offset FROM source_files INDEXED BY source_files_state WHERE path = ?').pluck(),
    // Another process (a second `index` run, the daemon) may insert the same file between our read
    // and this insert: theirs is as good as ours.
    insertFile: db.prepare('INSERT INTO source_files (path, kind) VALUES (?, ?) ON CONFLICT (path) DO NOTHING'),
    updateFile: db.prepare(
      `UPDATE source_files SET size = @size, mtime_ms = @mtimeMs, inode = @inode, committed_offset = @offset,
        committed_line = @line, parser_state = @state, status = 'ok', error = NULL, indexed_at = @now WHERE id = @id`,
    ),
    rewindFile: db.prepare('UPDATE source_files SET committed_offset = 0, committed_line = 0, parser_state = NULL WHERE id = ?'),
    touchFile: db.prepare("UPDATE source_files SET size = ?, mtime_ms = ?, status = 'ok' WHERE id = ?"),
    fileStatus: db.prepare('UPDATE source_files SET status = ?, error = ? WHERE id = ?'),
    error: db.prepare('INSERT INTO ingest_errors (path, line, reason, at) VALUES (?, ?, ?, ?)'),
    fileConvs: db.prepare<[number], { id: number }>('SELECT id FROM conversations WHERE file_id = ?'),
    convEntries: db.prepare<[number], { id: number; text: string }>('SELECT id, text FROM entries WHERE conversation_id = ? AND indexed = 1'),
    ftsDelete: db.prepare("INSERT INTO entries_fts (entries_fts, rowid, text) VALUES ('delete', ?, ?)"),
    deleteEntries: db.prepare('DELETE FROM entries WHERE conversation_id = ?'),
    convFtsDelete: db.prepare('DELETE FROM conversations_fts WHERE rowid = ?'),
    termsDelete: db.prepare('DELETE FROM conversation_terms WHERE rowid = ?'),
    resetConv: db.prepare(
      'UPDATE conversations SET title = \'\', title_rank = 0, summary = NULL, derived_summary = NULL, entry_count = 0, leaf_source_id = NULL WHERE id = ?',
    ),
  };

  // One statement each, atomic by itself: part of the caller's transaction when there is one (see write-lock.ts).
  const inline = { inline: true };
  const insertFile = writeTransaction(db, (path: string, kind: SourceKind) => s.insertFile.run(path, kind), inline);

  return {
    fileRow: (path) => s.file.get(path),
    committedOffset: (path) => s.offset.get(path),
    ensureFile(path, kind, likelyNew = false) {
      // A file the caller found no row for is inserted first rather than looked up first, and looked
      // up only if another process inserted it meanwhile.
      const existing = likelyNew ? undefined : s.file.get(path);
      if (existing) return existing;
      // Inserted now: the row is the table's defaults, no need to read it back.
      const { changes, lastInsertRowid } = insertFile(path, kind);
      if (changes === 1) return { id: Number(lastInsertRowid), path, kind, ...NEW_FILE };
      return s.file.get(path)!;
    },
    commitProgress(file, progress) {
      s.updateFile.run({ ...progress, state: JSON.stringify(progress.state ?? null), id: file.id, now: Date.now() });
    },
    reset(file) {
      for (const conv of s.fileConvs.all(file.id)) {
        for (const e of s.convEntries.all(conv.id)) fts.run(s.ftsDelete, e.id, e.text);
        s.deleteEntries.run(conv.id);
        fts.run(s.convFtsDelete, conv.id);
        fts.run(s.termsDelete, conv.id);
        s.resetConv.run(conv.id);
      }
      s.rewindFile.run(file.id);
    },
    recordProblems: writeTransaction(db, (path: string, problems: readonly LineProblem[]): void => {
      const now = Date.now();
      for (const p of problems) s.error.run(path, p.line, p.reason, now);
    }),
    /** The file is unchanged but its mtime moved (e.g. touched): remember it so the next scan skips it. */
    touchFile: writeTransaction(db, (file: FileRow, size: number, mtimeMs: number) => void s.touchFile.run(size, mtimeMs, file.id), inline),
    setFileStatus: writeTransaction(db, (file: FileRow, status: FileRow['status'], error: string | null) => void s.fileStatus.run(status, error, file.id), inline),
  };
}
