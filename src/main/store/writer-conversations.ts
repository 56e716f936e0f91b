// The writer's conversation rows: found or inserted by (source, key), their metadata merged and
// written once per batch, their leaf, and sub-agent conversations linked to their parents.
import type { Statement } from 'better-sqlite3';
import type { WritableDb } from './db.js';
import type { ConvRow, FileRow } from './interface.js';
import type { ConversationMeta } from './ops.js';
import { redactPrivate } from '../privacy.js';

export interface ConversationRows {
  /** The row stored under (source, key), if any. */
  byKey(source: string, key: string): ConvRow | undefined;
  /** A new row for the file's conversation `key`. */
  insert(file: FileRow, key: string, sessionId: string): ConvRow;
  /** Writes a (merged) meta into the row, and the file it now comes from. */
  applyMeta(row: ConvRow, meta: ConversationMeta, fileId: number): void;
  setLeaf(convId: number, leafSourceId: string): void;
  /** Links every conversation whose parent (by key) is now in the index; a cheap read when none waits. */
  linkParents(): void;
}

/** `next` applied after `acc`, as one meta: the same result as applying both in turn. */
export function mergeMeta(acc: ConversationMeta | undefined, next: ConversationMeta): ConversationMeta {
  if (!acc) return { ...next };
  const out: ConversationMeta = { ...acc };
  for (const k of ['sessionId', 'workspace', 'summary', 'parentKey'] as const) if (next[k] !== undefined) out[k] = next[k];
  if (next.isSubagent !== undefined) out.isSubagent = next.isSubagent;
  if (next.createdAt !== undefined) out.createdAt = out.createdAt === undefined ? next.createdAt : Math.min(out.createdAt, next.createdAt);
  if (next.updatedAt !== undefined) out.updatedAt = out.updatedAt === undefined ? next.updatedAt : Math.max(out.updatedAt, next.updatedAt);
  // A title replaces one of the same or lower rank: the stored title_rank decides the rest in SQL.
  if (next.title !== undefined && (out.title === undefined || (next.titleRank ?? 0) >= (out.titleRank ?? 0))) {
    out.title = next.title;
    out.titleRank = next.titleRank ?? 0;
  }
  return out;
}

/**
 * The conversations waiting for their parent, through the partial index conversations_unlinked (named:
 * since migration 9 SQLite took conversations_parent for `parent_id IS NULL`, which is nearly every
 * row, so each new conversation of a cold index read the whole table: quadratic, ~1/3 of a 10k index).
 */
export const ANY_UNLINKED_SQL = 'SELECT 1 FROM conversations INDEXED BY conversations_unlinked WHERE parent_key IS NOT NULL AND parent_id IS NULL LIMIT 1';
export const LINK_PARENTS_SQL = `UPDATE conversations INDEXED BY conversations_unlinked
  SET parent_id = (SELECT p.id FROM conversations p WHERE p.source = conversations.source AND p.key = conversations.parent_key)
  WHERE parent_key IS NOT NULL AND parent_id IS NULL`;

export function createConversationRows(db: WritableDb): ConversationRows {
  const s = {
    conv: db.prepare<[string, string], ConvRow>(
      'SELECT id, title, summary, workspace, file_id, session_id, parent_key FROM conversations WHERE source = ? AND key = ?',
    ),
    insertConv: db.prepare('INSERT INTO conversations (source, key, session_id, file_id, path) VALUES (?, ?, ?, ?, ?)'),
    setLeaf: db.prepare('UPDATE conversations SET leaf_source_id = ? WHERE id = ?'),
    anyUnlinked: db.prepare(ANY_UNLINKED_SQL),
    linkParents: db.prepare(LINK_PARENTS_SQL),
  };
  // applyMeta's UPDATE depends on which fields are set: a handful of shapes, each prepared once.
  const metaStatements = new Map<string, Statement>();

  function applyMeta(row: ConvRow, meta: ConversationMeta, fileId: number): void {
    // file_id is written only when it changes. An UPDATE that writes a foreign-key column runs in a
    // statement journal, and opening one makes FTS5 flush its pending rows into a new segment: done
    // on every batch, that is a segment per file per FTS table for the merges to work through.
    const sets: string[] = row.file_id === fileId ? [] : ['file_id = @fileId'];
    const params: Record<string, unknown> = { id: row.id, fileId };
    const plain: [keyof ConversationMeta, string][] = [
      ['sessionId', 'session_id'],
      ['workspace', 'workspace'],
      ['summary', 'summary'],
      ['parentKey', 'parent_key'],
    ];
    for (const [field, column] of plain) {
      if (meta[field] !== undefined) {
        sets.push(`${column} = @${field}`);
        params[field] = field === 'summary' ? redactPrivate(String(meta[field])) : meta[field];
      }
    }
    if (meta.isSubagent !== undefined) {
      sets.push('is_subagent = @isSubagent');
      params.isSubagent = meta.isSubagent ? 1 : 0;
    }
    if (meta.createdAt !== undefined) {
      sets.push('created_at = min(coalesce(created_at, @createdAt), @createdAt)');
      params.createdAt = meta.createdAt;
    }
    if (meta.updatedAt !== undefined) {
      sets.push('updated_at = max(coalesce(updated_at, 0), @updatedAt)');
      params.updatedAt = meta.updatedAt;
    }
    if (meta.title !== undefined) {
      // A title only replaces one of the same or lower rank (custom name > generated title > first prompt).
      const rank = meta.titleRank ?? 0;
      sets.push('title = CASE WHEN title_rank <= @rank THEN @title ELSE title END');
      sets.push('title_rank = max(title_rank, @rank)');
      params.title = redactPrivate(meta.title);
      params.rank = rank;
    }
    if (sets.length === 0) return;
    const sql = `UPDATE conversations SET ${sets.join(', ')} WHERE id = @id`;
    let stmt = metaStatements.get(sql);
    if (!stmt) metaStatements.set(sql, (stmt = db.prepare(sql)));
    stmt.run(params);
  }

  return {
    byKey: (source, key) => s.conv.get(source, key),
    insert(file, key, sessionId) {
      const id = Number(s.insertConv.run(file.kind, key, sessionId, file.id, file.path).lastInsertRowid);
      return { id, title: '', summary: null, workspace: null, file_id: file.id, session_id: sessionId, parent_key: null };
    },
    applyMeta,
    setLeaf: (convId, leaf) => void s.setLeaf.run(leaf, convId),
    // The UPDATE also writes a foreign-key column: see applyMeta for why that is not done for nothing.
    linkParents() {
      if (s.anyUnlinked.get()) s.linkParents.run();
    },
  };
}
