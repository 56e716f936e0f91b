// The writer's entries: each row with its entries_fts row beside it, inserted, replaced in place or
// dropped together, so the full-text index never holds words its entries no longer have.
import type { WritableDb } from './db.js';
import type { EntryRecord, SourcedRecord } from './ops.js';
import { redactPrivate } from '../privacy.js';
import type { FtsWrites } from './fts-writes.js';

type Stored = { id: number; text: string; indexed: number };
/** All but the first two (conversation and seq) of a row's columns. */
type Tail<T extends unknown[]> = T extends [unknown, unknown, ...infer R] ? R : never;
/** An entry's columns in the order the insert and update statements take them. */
type EntryParams = [
  conversationId: number,
  seq: number,
  sourceId: string | null,
  parentSourceId: string | null,
  role: string,
  author: string | null,
  kind: string,
  text: string,
  indexed: number,
  toolName: string | null,
  toolStatus: string | null,
  ts: number | null,
  firstKeptSourceId: string | null,
];

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

export function createEntryRows(db: WritableDb, fts: FtsWrites): EntryRows {
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
    // Positional parameters: binding by name looked up each of the 13 names on the row object, a
    // fifth of the statement's cost (BENCHMARKS.md, ingest at the end of stop 22).
    insertEntry: db.prepare<EntryParams>(
      `INSERT INTO entries (conversation_id, seq, source_id, parent_source_id, role, author, kind, text, indexed,
        tool_name, tool_status, ts, first_kept_source_id)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    // Not conversation_id nor seq (the row keeps both): writing a foreign-key column opens a statement
    // journal, and with it FTS5 flushes its pending rows (see writer-conversations.ts, applyMeta).
    updateEntry: db.prepare<[...Tail<EntryParams>, number]>(
      `UPDATE entries SET source_id = ?, parent_source_id = ?, role = ?, author = ?,
        kind = ?, text = ?, indexed = ?, tool_name = ?, tool_status = ?, ts = ?, first_kept_source_id = ? WHERE id = ?`,
    ),
    ftsInsert: db.prepare('INSERT INTO entries_fts (rowid, text) VALUES (?, ?)'),
    ftsDelete: db.prepare("INSERT INTO entries_fts (entries_fts, rowid, text) VALUES ('delete', ?, ?)"),
  };

  function upsert(convId: number, e: EntryRecord): void {
    // Private spans are dropped before storage: what is never stored can never be searched or leaked.
    const text = redactPrivate(e.text);
    const indexed = e.indexed && e.text.length > 0 ? 1 : 0;
    const row: EntryParams = [
      convId,
      e.seq,
      e.sourceId ?? null,
      e.parentSourceId ?? null,
      e.role,
      e.author ?? null,
      e.kind,
      text,
      indexed,
      e.toolName ?? null,
      e.toolStatus ?? null,
      e.ts ?? null,
      e.firstKeptSourceId ?? null,
    ];
    const old = s.entry.get(convId, e.seq);
    if (old) {
      if (old.indexed) fts.run(s.ftsDelete, old.id, old.text);
      const [, , ...columns] = row;
      s.updateEntry.run(...columns, old.id);
      if (indexed) fts.run(s.ftsInsert, old.id, text);
    } else {
      const id = s.insertEntry.run(...row).lastInsertRowid;
      if (indexed) fts.run(s.ftsInsert, id, text);
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
        if (old.indexed) fts.run(s.ftsDelete, old.id, old.text);
        s.deleteEntry.run(old.id);
      }
    },
  };
}
