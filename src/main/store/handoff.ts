// Stores a history_handoff. It is a reset boundary of its conversation: nothing before it is in the
// agent's new context. It is kept in its own table rather than as an entry, because the agent's
// session file goes on numbering its own entries and the next one would take (and replace) the
// handoff's number.
import type { Db } from './db.js';
import { writeTransaction } from './write-lock.js';

export interface HandoffStored {
  /** Entries numbered below this are before the handoff. */
  seq: number;
}

export function appendHandoff(db: Db, conversationId: number, text: string, now: number = Date.now()): HandoffStored {
  return writeTransaction(db, (): HandoffStored => {
    const max = db.prepare('SELECT max(seq) FROM entries WHERE conversation_id = ?').pluck().get(conversationId) as number | null;
    const seq = (max ?? -1) + 1;
    db.prepare('INSERT INTO handoffs (conversation_id, before_seq, text, at) VALUES (?, ?, ?, ?)').run(conversationId, seq, text, now);
    return { seq };
  })();
}
