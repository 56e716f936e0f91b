import type { Db } from '../../src/main/store/db.js';

/** Everything the index holds about conversations and entries, in a stable order, for equality checks. */
export function dumpIndex(db: Db) {
  const conversations = db
    .prepare('SELECT source, key, session_id, workspace, title, summary, entry_count, is_subagent, parent_key FROM conversations ORDER BY source, key')
    .all();
  const entries = db
    .prepare(
      `SELECT c.key, e.seq, e.source_id, e.parent_source_id, e.role, e.kind, e.text, e.indexed, e.tool_name, e.tool_status, e.off_path
       FROM entries e JOIN conversations c ON c.id = e.conversation_id ORDER BY c.source, c.key, e.seq`,
    )
    .all();
  const fts = db.prepare('SELECT count(*) FROM entries_fts').pluck().get();
  return { conversations, entries, fts };
}
