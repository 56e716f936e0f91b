// What agents asked and were given, kept for the activity view with a retention limit.
import type { ActivityItem } from '../../shared/api.js';
import type { Db } from './db.js';
import { writeTransaction } from './write-lock.js';

export const ACTIVITY_RETENTION = 5000;

export type ActivityLog = ReturnType<typeof createActivityLog>;

export function createActivityLog(db: Db, retention = ACTIVITY_RETENTION) {
  const insert = db.prepare('INSERT INTO activity (at, client, method, params, conversations, bytes) VALUES (?, ?, ?, ?, ?, ?)');
  const prune = db.prepare('DELETE FROM activity WHERE id <= (SELECT max(id) FROM activity) - ?');
  const recent = db.prepare<[number], { id: number; at: number; client: string; method: string; params: string; conversations: string; bytes: number }>(
    'SELECT * FROM activity ORDER BY id DESC LIMIT ?',
  );
  let sincePrune = 0;
  return {
    record: writeTransaction(db, (client: string, method: string, paramsSummary: string, conversations: number[], bytes: number): void => {
      insert.run(Date.now(), client.slice(0, 200), method, paramsSummary.slice(0, 500), JSON.stringify(conversations.slice(0, 100)), bytes);
      if (++sincePrune >= 100) {
        sincePrune = 0;
        prune.run(retention);
      }
    }),
    recent(limit: number): ActivityItem[] {
      return recent.all(limit).map((r) => ({ ...r, conversations: JSON.parse(r.conversations) as number[] }));
    },
  };
}
