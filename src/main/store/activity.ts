// What agents asked and were given, kept for the activity view with a retention limit.
import type { ActivityItem } from '../../shared/api.js';
import type { ReadableDb, WritableDb } from './db.js';
import { ownChangesOutsideContent } from './content-version.js';
import { writeTransaction } from './write-lock.js';

export const ACTIVITY_RETENTION = 5000;

export interface ActivityLog {
  record(client: string, method: string, paramsSummary: string, conversations: number[], bytes: number): void;
  recent(limit: number): ActivityItem[];
}

type ActivityRow = { id: number; at: number; client: string; method: string; params: string; conversations: string; bytes: number };

/** The latest calls, newest first: a read, for a caller that records none. */
export function recentActivity(db: ReadableDb, limit: number): ActivityItem[] {
  return db
    .prepare<[number], ActivityRow>('SELECT * FROM activity ORDER BY id DESC LIMIT ?')
    .all(limit)
    .map((r) => ({ ...r, conversations: JSON.parse(r.conversations) as number[] }));
}

export function createActivityLog(db: WritableDb, retention = ACTIVITY_RETENTION): ActivityLog {
  const insert = db.prepare('INSERT INTO activity (at, client, method, params, conversations, bytes) VALUES (?, ?, ?, ?, ?, ?)');
  const prune = db.prepare('DELETE FROM activity WHERE id <= (SELECT max(id) FROM activity) - ?');
  let sincePrune = 0;
  return {
    record: writeTransaction(db, (client: string, method: string, paramsSummary: string, conversations: number[], bytes: number): void => {
      let rows = insert.run(Date.now(), client.slice(0, 200), method, paramsSummary.slice(0, 500), JSON.stringify(conversations.slice(0, 100)), bytes).changes;
      if (++sincePrune >= 100) {
        sincePrune = 0;
        rows += prune.run(retention).changes;
      }
      // Not the index's content: status keeps its counts (content-version.ts).
      ownChangesOutsideContent(db, rows);
    }),
    recent: (limit: number): ActivityItem[] => recentActivity(db, limit),
  };
}
