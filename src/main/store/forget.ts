// Removing conversations from the index for good: entries, every full-text row, and sub-agents.
import type { Db } from './db.js';

export interface Forgotten {
  conversations: { id: number; title: string; workspace: string | null; path: string }[];
  entries: number;
}

export function createForgetter(db: Db) {
  const conv = db.prepare<[number], { id: number; title: string; workspace: string | null; path: string }>(
    'SELECT id, title, workspace, path FROM conversations WHERE id = ?',
  );
  const children = db.prepare<[number], { id: number }>('SELECT id FROM conversations WHERE parent_id = ?');
  const indexed = db.prepare<[number], { id: number; text: string }>('SELECT id, text FROM entries WHERE conversation_id = ? AND indexed = 1');
  const ftsDelete = db.prepare("INSERT INTO entries_fts (entries_fts, rowid, text) VALUES ('delete', ?, ?)");
  const convFtsDelete = db.prepare('DELETE FROM conversations_fts WHERE rowid = ?');
  const termsDelete = db.prepare('DELETE FROM conversation_terms WHERE rowid = ?');
  const entriesDelete = db.prepare('DELETE FROM entries WHERE conversation_id = ?');
  const convDelete = db.prepare('DELETE FROM conversations WHERE id = ?');

  /** Forgets one conversation and its sub-agents. Call inside a transaction. */
  function forget(id: number, out: Forgotten = { conversations: [], entries: 0 }): Forgotten {
    const c = conv.get(id);
    if (!c) return out;
    for (const child of children.all(id)) forget(child.id, out);
    for (const e of indexed.all(id)) ftsDelete.run(e.id, e.text);
    convFtsDelete.run(id);
    termsDelete.run(id);
    out.entries += entriesDelete.run(id).changes;
    convDelete.run(id);
    out.conversations.push({ id: c.id, title: c.title, workspace: c.workspace, path: c.path });
    return out;
  }

  return { forget };
}
