// OpenCode's SQLite database (opencode.db), opened read-only. Tables (drizzle, packages/opencode
// src/session/session.sql.ts): session(id, parent_id, directory, title, time_created, time_updated, …),
// message(id, session_id, time_created, time_updated, data), part(id, message_id, session_id,
// time_created, time_updated, data). Each read takes the rows updated since the last one; the
// entries they yield are keyed by OpenCode's ids, so a row read twice is one entry.
import Database from 'better-sqlite3';
import { LineError, type DocumentReader, type IngestOp } from '../types.js';
import { messageInfo, partOps, sessionOps } from './opencode-parts.js';
import { toMessage, toPart, toSession } from './opencode-shapes.js';
import { isObject, putCapped, type Json } from './text.js';
import { Stateful } from './stateful.js';

/** Sessions whose first prompt already named them (the first-prompt title is set once). */
const TITLED_CAP = 5000;

interface DbState {
  v: 'opencode-db-1';
  /** The newest time_updated read, per table. */
  session: number;
  part: number;
  titled: Record<string, 1>;
}

function restore(raw: unknown): DbState {
  if (isObject(raw) && raw.v === 'opencode-db-1' && typeof raw.session === 'number' && typeof raw.part === 'number' && isObject(raw.titled)) {
    return structuredClone(raw) as unknown as DbState;
  }
  return { v: 'opencode-db-1', session: 0, part: 0, titled: {} };
}

interface SessionRow {
  id: string;
  parent_id: string | null;
  directory: string | null;
  title: string | null;
  time_created: number | null;
  time_updated: number;
}

interface PartRow {
  id: string;
  session_id: string;
  part: string;
  message: string;
  time_updated: number;
}

function parse(text: string): Json | undefined {
  try {
    const v: unknown = JSON.parse(text);
    return isObject(v) ? v : undefined;
  } catch {
    return undefined;
  }
}

class OpencodeDbReader extends Stateful<DbState> implements DocumentReader {
  constructor(file: string, state: unknown) {
    super(file, state, restore);
  }

  read(): IngestOp[] {
    let db: Database.Database;
    try {
      // Read-only, and never creating the file: Throughline does not write an agent's database.
      db = new Database(this.file, { readonly: true, fileMustExist: true });
    } catch (err) {
      throw new LineError(`opencode: cannot open the database read-only: ${(err as Error).message}`);
    }
    try {
      db.pragma('busy_timeout = 2000');
      return this.rows(db);
    } catch (err) {
      if (err instanceof LineError) throw err;
      throw new LineError(`opencode: cannot read the database: ${(err as Error).message}`);
    } finally {
      db.close();
    }
  }

  private rows(db: Database.Database): IngestOp[] {
    const next = structuredClone(this.s);
    const ops: IngestOp[] = [];
    // `>=`: rows written in the same millisecond as the last one read are read again (harmless: by id).
    const sessions = db
      .prepare('SELECT id, parent_id, directory, title, time_created, time_updated FROM session WHERE time_updated >= ? ORDER BY time_updated')
      .all(this.s.session) as SessionRow[];
    for (const r of sessions) {
      ops.push(...sessionOps(toSession({ id: r.id, parentID: r.parent_id, directory: r.directory, title: r.title, time: { created: r.time_created, updated: r.time_updated } })));
      next.session = Math.max(next.session, r.time_updated);
    }
    const parts = db
      .prepare(
        `SELECT p.id, p.session_id, p.data AS part, m.data AS message, p.time_updated
         FROM part p JOIN message m ON m.id = p.message_id
         WHERE p.time_updated >= ? ORDER BY m.time_created, m.id, p.id`,
      )
      .all(this.s.part) as PartRow[];
    for (const r of parts) {
      next.part = Math.max(next.part, r.time_updated);
      const part = parse(r.part);
      const message = parse(r.message);
      const info = message ? messageInfo(toMessage(message)) : undefined;
      if (!part || !info) continue;
      const titleWanted = info.role === 'user' && !next.titled[r.session_id];
      const out = partOps(r.session_id, toPart({ ...part, id: r.id }), info, titleWanted);
      if (titleWanted && out.some((op) => op.op === 'conversation' && op.meta.titleRank === 1)) putCapped(next.titled, r.session_id, 1, TITLED_CAP);
      ops.push(...out);
    }
    this.s = next;
    return ops;
  }
}

export function readOpencodeDb(file: string, state: unknown): DocumentReader {
  return new OpencodeDbReader(file, state);
}
