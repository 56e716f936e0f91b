// Stores a history_handoff as a `reset` entry of its conversation, through the writer, so the
// boundary rule (read.ts boundary(): the latest reset keeps nothing before itself) applies to it.
//
// The writer commits ops together with a file's progress; a handoff is not a line of that file,
// so the file's committed offset, line and parser state are passed back unchanged.
// Known limit (told to the lead): adapters number new entries from their own parser state, so when
// the agent appends to the same session file the next parsed entry takes this seq and replaces the
// handoff entry (writer upsert by (conversation, seq)).
import type { Db } from './db.js';
import { createWriter, type FileProgress, type FileRow } from './writer.js';

interface ConvKeyRow {
  source: FileRow['kind'];
  key: string;
  path: string;
  file_id: number | null;
}

export interface HandoffStored {
  seq: number;
}

export function appendHandoff(db: Db, conversationId: number, text: string, now: number = Date.now()): HandoffStored {
  const writer = createWriter(db);
  const conv = db.prepare<[number], ConvKeyRow>('SELECT source, key, path, file_id FROM conversations WHERE id = ?').get(conversationId);
  if (!conv) throw new Error(`No conversation ${conversationId}`);
  const fileById = db.prepare<[number], FileRow>('SELECT * FROM source_files WHERE id = ?');
  const maxSeq = db.prepare<[number], { m: number | null }>('SELECT max(seq) AS m FROM entries WHERE conversation_id = ?');
  return db
    .transaction((): HandoffStored => {
      const file = (conv.file_id !== null ? fileById.get(conv.file_id) : undefined) ?? writer.ensureFile(conv.path, conv.source);
      const seq = (maxSeq.get(conversationId)?.m ?? -1) + 1;
      let state: unknown = null;
      try {
        state = file.parser_state ? JSON.parse(file.parser_state) : null;
      } catch {
        state = null;
      }
      const progress: FileProgress = {
        offset: file.committed_offset,
        line: file.committed_line,
        state,
        size: file.size,
        mtimeMs: file.mtime_ms,
        inode: file.inode,
      };
      writer.commitBatch(
        file,
        [{ op: 'entry', conv: conv.key, entry: { seq, role: 'user', kind: 'reset', text, indexed: false, ts: now } }],
        progress,
      );
      return { seq };
    })
    .immediate();
}
