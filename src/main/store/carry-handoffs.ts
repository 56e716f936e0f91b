// `index --rebuild` builds a new index from the agents' files. A handoff written through
// history_handoff by an agent Throughline cannot restart (Claude Code, Codex over MCP, the socket) is
// in no file: the old index holds the only copy. The rebuild carries each one over to the same
// conversation (same agent, same key) at the same place (entries are numbered the same from the same file).
import type { Db } from './db.js';
import { openDb } from './db.js';
import { writeTransaction } from './write-lock.js';

export interface Carried {
  kept: number;
  /** Handoffs whose conversation the rebuilt index does not have (its file gone, or excluded since). */
  lost: number;
}

interface OldHandoff {
  source: string;
  key: string;
  before_seq: number;
  text: string;
  at: number;
}

/** Copies the handoffs of the index at `oldFile` into `db`; nothing when the old index cannot be read. */
export function carryHandoffs(oldFile: string, db: Db): Carried {
  let rows: OldHandoff[];
  try {
    const old = openDb(oldFile, { readonly: true });
    try {
      rows = old
        .prepare<[], OldHandoff>('SELECT c.source, c.key, h.before_seq, h.text, h.at FROM handoffs h JOIN conversations c ON c.id = h.conversation_id ORDER BY h.id')
        .all();
    } finally {
      old.close();
    }
  } catch {
    // No old index, or a damaged one (the reason to rebuild): it has nothing readable to carry.
    return { kept: 0, lost: 0 };
  }
  const idOf = db.prepare<[string, string], number>('SELECT id FROM conversations WHERE source = ? AND key = ?').pluck();
  const insert = db.prepare('INSERT INTO handoffs (conversation_id, before_seq, text, at) VALUES (?, ?, ?, ?)');
  let kept = 0;
  writeTransaction(db, () => {
    for (const r of rows) {
      const id = idOf.get(r.source, r.key);
      if (id === undefined) continue;
      insert.run(id, r.before_seq, r.text, r.at);
      kept++;
    }
  })();
  return { kept, lost: rows.length - kept };
}
