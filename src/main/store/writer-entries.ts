// The writer's entries: each row with its entries_fts row beside it, inserted, replaced in place or
// dropped together, so the full-text index never holds words its entries no longer have.
import type { WritableDb } from './db.js';
import type { EntryRecord, SourcedRecord } from './ops.js';
import { redactPrivate } from '../privacy.js';

type Stored = { id: number; text: string; indexed: number };

export interface EntryRows {
  /** The entry at its seq: inserted, or the one there replaced. */
  upsert(convId: number, e: EntryRecord): void;
  /** An entry found by its source id: it keeps its seq when the conversation has it, else goes last. */
  upsertRecord(convId: number, e: SourcedRecord): void;
  /** After the conversation's last entry as it stands now, in this batch's transaction. */
  append(convId: number, e: Omit<EntryRecord, 'seq'>): void;
  /** The entry with this source id, and with `parts` those of its parts (`<id>#…`) too. */
  drop(convId: number, sourceId: string, parts: boolean): void;
}

export function createEntryRows(db: WritableDb): EntryRows {
  const s = {
    entry: db.prepare<[number, number], Stored>('SELECT id, text, indexed FROM entries WHERE conversation_id = ? AND seq = ?'),
    bySource: db.prepare<[number, string], Stored & { seq: number }>(
      'SELECT id, seq, text, indexed FROM entries WHERE conversation_id = ? AND source_id = ? ORDER BY seq',
    ),
    // '$' follows '#': the range is every source id that starts with `<id>#`.
    byParts: db.prepare<[number, string, string], Stored & { seq: number }>(
      'SELECT id, seq, text, indexed FROM entries WHERE conversation_id = ? AND source_id > ? AND source_id < ?',
    ),
    lastSeq: db.prepare<[number], number | null>('SELECT max(seq) FROM entries WHERE conversation_id = ?').pluck(),
    deleteEntry: db.prepare('DELETE FROM entries WHERE id = ?'),
    insertEntry: db.prepare(
      `INSERT INTO entries (conversation_id, seq, source_id, parent_source_id, role, author, kind, text, indexed,
        tool_name, tool_status, ts, first_kept_source_id)
       VALUES (@conversation_id, @seq, @source_id, @parent_source_id, @role, @author, @kind, @text, @indexed,
        @tool_name, @tool_status, @ts, @first_kept_source_id)`,
    ),
    updateEntry: db.prepare(
      `UPDATE entries SET source_id = @source_id, parent_source_id = @parent_source_id, role = @role, author = @author,
        kind = @kind, text = @text, indexed = @indexed, tool_name = @tool_name, tool_status = @tool_status, ts = @ts,
        first_kept_source_id = @first_kept_source_id WHERE id = @id`,
    ),
    ftsInsert: db.prepare('INSERT INTO entries_fts (rowid, text) VALUES (?, ?)'),
    ftsDelete: db.prepare("INSERT INTO entries_fts (entries_fts, rowid, text) VALUES ('delete', ?, ?)"),
  };

  function upsert(convId: number, e: EntryRecord): void {
    const row = {
      conversation_id: convId,
      seq: e.seq,
      source_id: e.sourceId ?? null,
      parent_source_id: e.parentSourceId ?? null,
      role: e.role,
      author: e.author ?? null,
      kind: e.kind,
      // Private spans are dropped before storage: what is never stored can never be searched or leaked.
      text: redactPrivate(e.text),
      indexed: e.indexed && e.text.length > 0 ? 1 : 0,
      tool_name: e.toolName ?? null,
      tool_status: e.toolStatus ?? null,
      ts: e.ts ?? null,
      first_kept_source_id: e.firstKeptSourceId ?? null,
    };
    const old = s.entry.get(convId, e.seq);
    if (old) {
      if (old.indexed) s.ftsDelete.run(old.id, old.text);
      s.updateEntry.run({ ...row, id: old.id });
      if (row.indexed) s.ftsInsert.run(old.id, row.text);
    } else {
      const id = s.insertEntry.run(row).lastInsertRowid;
      if (row.indexed) s.ftsInsert.run(id, row.text);
    }
  }

  const nextSeq = (convId: number): number => (s.lastSeq.get(convId) ?? -1) + 1;

  return {
    upsert,
    upsertRecord(convId, e) {
      upsert(convId, { ...e, seq: s.bySource.get(convId, e.sourceId)?.seq ?? nextSeq(convId) });
    },
    append(convId, e) {
      upsert(convId, { ...e, seq: nextSeq(convId) });
    },
    drop(convId, sourceId, parts) {
      const rows = s.bySource.all(convId, sourceId);
      if (parts) rows.push(...s.byParts.all(convId, `${sourceId}#`, `${sourceId}$`));
      for (const old of rows) {
        if (old.indexed) s.ftsDelete.run(old.id, old.text);
        s.deleteEntry.run(old.id);
      }
    },
  };
}
