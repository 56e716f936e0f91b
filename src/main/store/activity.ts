// What agents asked and were given, kept for the activity view with a retention limit.
import type { ActivityItem } from '../../shared/api.js';
import type { ReadableDb, WritableDb } from './db.js';
import { ownChangesOutsideContent } from './content-version.js';
import { writeTransaction } from './write-lock.js';

export const ACTIVITY_RETENTION = 5000;

export interface ActivityLog {
  record(client: string, method: string, paramsSummary: string, conversations: number[], bytes: number): void;
  recent(limit: number): ActivityItem[];
  /** Writes the notes still held (see flushMs); a no-op when there are none. */
  flush(): void;
}

export interface ActivityOptions {
  retention?: number;
  /**
   * Notes are held this long and written together in one transaction (0: each at once). The daemon
   * notes every call it answers: one commit per call was ~0.35 ms of its event loop and 2-3 WAL pages,
   * so a checkpoint every ~420 calls (BENCHMARKS.md, "The daemon, stop 27").
   */
  flushMs?: number;
  /** A write of held notes failed (they are dropped: the activity view is a record, not the index). */
  onError?: (err: Error) => void;
}

/** The daemon's hold on its activity notes (see ActivityOptions.flushMs). */
export const ACTIVITY_FLUSH_MS = 250;
/** Held notes are written at once when this many wait. */
const FLUSH_AT = 100;

type ActivityRow = { id: number; at: number; client: string; method: string; params: string; conversations: string; bytes: number };

/** The latest calls, newest first: a read, for a caller that records none. */
export function recentActivity(db: ReadableDb, limit: number): ActivityItem[] {
  return db
    .prepare<[number], ActivityRow>('SELECT * FROM activity ORDER BY id DESC LIMIT ?')
    .all(limit)
    .map((r) => ({ ...r, conversations: JSON.parse(r.conversations) as number[] }));
}

export function createActivityLog(db: WritableDb, options: ActivityOptions = {}): ActivityLog {
  const retention = options.retention ?? ACTIVITY_RETENTION;
  const flushMs = options.flushMs ?? 0;
  const insert = db.prepare('INSERT INTO activity (at, client, method, params, conversations, bytes) VALUES (?, ?, ?, ?, ?, ?)');
  const prune = db.prepare('DELETE FROM activity WHERE id <= (SELECT max(id) FROM activity) - ?');
  let sincePrune = 0;
  type Note = [at: number, client: string, method: string, params: string, conversations: string, bytes: number];
  const write = writeTransaction(db, (notes: readonly Note[]): void => {
    let rows = 0;
    for (const note of notes) rows += insert.run(...note).changes;
    sincePrune += notes.length;
    if (sincePrune >= 100) {
      sincePrune = 0;
      rows += prune.run(retention).changes;
    }
    // Not the index's content: status keeps its counts (content-version.ts).
    ownChangesOutsideContent(db, rows);
  });
  let held: Note[] = [];
  let timer: NodeJS.Timeout | null = null;
  const flush = (): void => {
    if (timer) clearTimeout(timer);
    timer = null;
    if (!held.length || !db.open) return;
    const notes = held;
    held = [];
    write(notes);
  };
  return {
    record(client, method, paramsSummary, conversations, bytes) {
      const note: Note = [Date.now(), client.slice(0, 200), method, paramsSummary.slice(0, 500), JSON.stringify(conversations.slice(0, 100)), bytes];
      if (!flushMs) return write([note]);
      held.push(note);
      if (held.length >= FLUSH_AT) flush();
      else if (!timer) {
        timer = setTimeout(() => {
          try {
            flush();
          } catch (err) {
            options.onError?.(err as Error);
          }
        }, flushMs);
        timer.unref();
      }
    },
    recent(limit) {
      flush();
      return recentActivity(db, limit);
    },
    flush,
  };
}
