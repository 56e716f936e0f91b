// Removing conversations from the index for good: entries, every full-text row, sub-agents, what the
// activity log and the problem list say about them, and (scrub) every trace in the index's files.
import type { Db } from './db.js';
import { writeTransaction } from './write-lock.js';

export interface ForgottenConversation {
  id: number;
  title: string;
  workspace: string | null;
  path: string;
}

export interface Forgotten {
  conversations: ForgottenConversation[];
  entries: number;
}

export const nothingForgotten = (): Forgotten => ({ conversations: [], entries: 0 });

interface ConvRow extends ForgottenConversation {
  source: string;
  key: string;
  session_id: string;
}

/** Forgetting conversations and keeping them out: every call inside the caller's write transaction. */
export interface Forgetter {
  /** Forgets one conversation and its sub-agents, each kept out by `exclusion` from now on; adds them to `out`. */
  forget(id: number, exclusion: string, out?: Forgotten): Forgotten;
  /** Keeps (source, key) out of the index until `exclusion` is removed from the settings. */
  tombstone(source: string, key: string, exclusion: string, path: string): void;
  /** The exclusion keeping (source, key) out, if any. */
  exclusionOf(source: string, key: string): string | undefined;
}

/**
 * A string as the activity log holds it in a request's summary (api/access-policy.ts summarizeParams:
 * JSON, strings cut at 80 characters): quoted, so the key "1" does not match every request with a 1.
 */
function asLogged(value: string): string {
  return value.length > 80 ? JSON.stringify(value.slice(0, 80)).slice(0, -1) : JSON.stringify(value);
}

export function createForgetter(db: Db): Forgetter {
  const conv = db.prepare<[number], ConvRow>('SELECT id, source, key, session_id, title, workspace, path FROM conversations WHERE id = ?');
  const children = db.prepare<[number], { id: number }>('SELECT id FROM conversations WHERE parent_id = ?');
  const indexed = db.prepare<[number], { id: number; text: string }>('SELECT id, text FROM entries WHERE conversation_id = ? AND indexed = 1');
  const ftsDelete = db.prepare("INSERT INTO entries_fts (entries_fts, rowid, text) VALUES ('delete', ?, ?)");
  const convFtsDelete = db.prepare('DELETE FROM conversations_fts WHERE rowid = ?');
  const termsDelete = db.prepare('DELETE FROM conversation_terms WHERE rowid = ?');
  const entriesDelete = db.prepare('DELETE FROM entries WHERE conversation_id = ?');
  const convDelete = db.prepare('DELETE FROM conversations WHERE id = ?');
  // What agents asked about it (its id among the answer's conversations) or from it (its session id,
  // key or path as a string in the request: history_* calls, handoffs, suggest from inside it).
  const activityDelete = db.prepare(
    `DELETE FROM activity WHERE EXISTS (SELECT 1 FROM json_each(activity.conversations) WHERE value = @id)
       OR instr(params, @session) > 0 OR instr(params, @key) > 0 OR instr(params, @path) > 0`,
  );
  const errorsDelete = db.prepare('DELETE FROM ingest_errors WHERE path = ?');
  const tombstoneUpsert = db.prepare(
    `INSERT INTO forgotten (source, key, exclusion, path, at) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (source, key) DO UPDATE SET exclusion = excluded.exclusion, path = excluded.path`,
  );
  const tombstoneGet = db.prepare<[string, string], { exclusion: string }>('SELECT exclusion FROM forgotten WHERE source = ? AND key = ?');
  // FTS5 normally records a deletion as a marker beside the old postings, which keep every word
  // until a merge reaches them; with secure-delete the postings themselves are removed. It slows
  // deletes down, so it is on only while forgetting (the setting is stored in the table's config).
  // (A literal: FTS5 wants an integer, and a bound JavaScript number arrives as a real.)
  const secure = [0, 1].map((on) => [
    db.prepare(`INSERT INTO entries_fts (entries_fts, rank) VALUES ('secure-delete', ${on})`),
    db.prepare(`INSERT INTO conversations_fts (conversations_fts, rank) VALUES ('secure-delete', ${on})`),
  ]);
  const secureFts = (on: 0 | 1) => {
    for (const st of secure[on]!) st.run();
  };

  /** Keeps (source, key) out of the index until `exclusion` is removed from the settings. */
  function tombstone(source: string, key: string, exclusion: string, path: string): void {
    tombstoneUpsert.run(source, key, exclusion, path, Date.now());
  }

  function remove(c: ConvRow, exclusion: string, out: Forgotten): void {
    for (const child of children.all(c.id)) {
      const row = conv.get(child.id);
      if (row) remove(row, exclusion, out);
    }
    for (const e of indexed.all(c.id)) ftsDelete.run(e.id, e.text);
    convFtsDelete.run(c.id);
    termsDelete.run(c.id);
    out.entries += entriesDelete.run(c.id).changes;
    // Handoffs go with the row (ON DELETE CASCADE).
    convDelete.run(c.id);
    activityDelete.run({ id: c.id, session: asLogged(c.session_id), key: asLogged(c.key), path: asLogged(c.path) });
    errorsDelete.run(c.path);
    tombstone(c.source, c.key, exclusion, c.path);
    out.conversations.push({ id: c.id, title: c.title, workspace: c.workspace, path: c.path });
  }

  /**
   * Forgets one conversation and its sub-agents, each kept out by `exclusion` from now on. Call
   * inside a write transaction; call scrub() after it commits to clear the index's files too.
   */
  function forget(id: number, exclusion: string, out: Forgotten = nothingForgotten()): Forgotten {
    const c = conv.get(id);
    if (!c) return out;
    secureFts(1);
    try {
      remove(c, exclusion, out);
    } finally {
      secureFts(0);
    }
    return out;
  }

  return {
    forget,
    tombstone,
    exclusionOf: (source, key) => tombstoneGet.get(source, key)?.exclusion,
  };
}

/**
 * After forgetting: the words must be gone from the files, not just from the tables. The
 * contentless conversation_terms table can only drop a deleted document's words by merging its
 * segments (optimize); VACUUM rewrites the file without its free pages (which may hold text freed
 * before secure_delete was on); the WAL is emptied so no old page image stays in it.
 * It rewrites the whole index, so it is for a person's deliberate forget, not for every batch.
 */
export function scrub(db: Db): void {
  writeTransaction(db, () => db.exec("INSERT INTO conversation_terms (conversation_terms) VALUES ('optimize')"))();
  db.exec('VACUUM');
  db.pragma('wal_checkpoint(TRUNCATE)');
}
