// Which of some folders are workspaces of indexed conversations: the recorded project roots the
// workspace resolver (recall/workspace.ts) falls back on when a folder is not on this disk.
import type { ReadableDb } from './db.js';

/** A folder without its trailing separators ("/" stays "/"). */
export function normalizeFolder(p: string): string {
  const trimmed = p.replace(/[\\/]+$/, '');
  return trimmed === '' ? p.slice(0, 1) : trimmed;
}

export function createWorkspaceLookup(db: ReadableDb) {
  // One probe per candidate folder, on the conversations_workspace index.
  const known = db.prepare<[string], number>('SELECT 1 FROM conversations WHERE workspace = ? LIMIT 1').pluck();
  /** The candidates that are some conversation's workspace, in the order given. */
  return (candidates: readonly string[]): string[] => candidates.filter((c) => known.get(c) !== undefined);
}

/** Every workspace some conversation records, once each. */
export function indexedWorkspaces(db: ReadableDb): string[] {
  return db.prepare<[], string>("SELECT DISTINCT workspace FROM conversations WHERE workspace IS NOT NULL AND workspace <> ''").pluck().all();
}
