// Find in conversation (the window's Ctrl+F): which entries of one conversation hold a piece of text,
// and how many times, ignoring case — over every entry, loaded in the window or not.
import type { ReadableDb } from './db.js';

export interface FindResult {
  /** Entries holding the text, in order, with how often each does. */
  matches: { entry: number; count: number }[];
  /** Occurrences in all. */
  total: number;
  /** Stopped after `limit` entries. */
  truncated: boolean;
}

function occurrences(haystack: string, needle: string): number {
  let n = 0;
  for (let at = haystack.indexOf(needle); at >= 0; at = haystack.indexOf(needle, at + needle.length)) n++;
  return n;
}

export function findInConversation(db: ReadableDb, conversationId: number, query: string, limit = 2000): FindResult {
  const needle = query.toLocaleLowerCase();
  const matches: FindResult['matches'] = [];
  let total = 0;
  let truncated = false;
  const rows = db.prepare('SELECT seq, text FROM entries WHERE conversation_id = ? ORDER BY seq').iterate(conversationId) as Iterable<{ seq: number; text: string }>;
  for (const row of rows) {
    const count = occurrences(row.text.toLocaleLowerCase(), needle);
    if (!count) continue;
    if (matches.length === limit) {
      truncated = true;
      break;
    }
    matches.push({ entry: row.seq, count });
    total += count;
  }
  return { matches, total, truncated };
}
