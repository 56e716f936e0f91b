// Issue 11 §11: a second file with the same pi session id (a backup, a sync-conflict copy, here the
// real shorter copy pi-mono-large-session-v1-head27) must not hide the first file's entries. Each
// file keeps a conversation of its own; neither loses an entry, whichever is indexed first.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createIndexer } from '../../src/main/ingest/scan.js';
import { ADAPTERS } from '../../src/main/ingest/sources.js';
import { createRecall } from '../../src/main/recall/index.js';
import { openDb, type Db } from '../../src/main/store/db.js';
import { FIXTURES } from '../helpers/tmp.js';
import { tempDir } from '../server/helpers.js';

const LONG = path.join(FIXTURES, 'large', 'pi', 'large-session-v1.jsonl');
const SHORT = path.join(FIXTURES, 'pi', 'pi-mono-large-session-v1-head27.jsonl');
let dir: string;
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

interface Counts {
  entries: number;
  onPath: number;
}

function counts(db: Db, file: string): Counts {
  return db
    .prepare<[string], Counts>('SELECT count(*) AS entries, coalesce(sum(off_path = 0), 0) AS onPath FROM entries e JOIN conversations c ON c.id = e.conversation_id WHERE c.path = ?')
    .get(file)!;
}

/** Indexes `first` alone, then both, as a person who copies a file into the sessions folder would. */
function indexBoth(first: string, second: string): { db: Db; files: Record<string, string>; alone: Record<string, Counts> } {
  dir = tempDir('tl-dup-');
  const sessions = path.join(dir, 'sessions', '--Users-badlogic-workspaces-pi-mono--');
  fs.mkdirSync(sessions, { recursive: true });
  const db = openDb(path.join(dir, 'index.sqlite'));
  const indexer = createIndexer(db, ADAPTERS);
  const source = [{ kind: 'pi' as const, root: path.join(dir, 'sessions') }];
  const files = { [first]: path.join(sessions, path.basename(first)), [second]: path.join(sessions, path.basename(second)) };
  const alone: Record<string, Counts> = {};
  fs.copyFileSync(first, files[first]!);
  indexer.scan(source);
  alone[first] = counts(db, files[first]!);
  fs.copyFileSync(second, files[second]!);
  indexer.scan(source);
  return { db, files, alone };
}

describe.each([
  ['the long file first', LONG, SHORT],
  ['the short copy first', SHORT, LONG],
])('%s', (_name, first, second) => {
  it('keeps every entry of both files on their paths, searchable and readable', () => {
    const { db, files, alone } = indexBoth(first, second);
    try {
      const long = counts(db, files[LONG]!);
      const short = counts(db, files[SHORT]!);
      expect(long.entries).toBeGreaterThan(1000);
      expect(long.onPath).toBe(long.entries);
      expect(short.onPath).toBe(short.entries);
      expect(short.entries).toBeLessThan(long.entries);
      if (alone[LONG]) expect(long).toEqual(alone[LONG]);
      // Two conversations, one per file, the same session id.
      const rows = db.prepare('SELECT session_id, path FROM conversations ORDER BY id').all() as { session_id: string; path: string }[];
      expect(rows).toHaveLength(2);
      expect(new Set(rows.map((r) => r.session_id)).size).toBe(1);
      // Words of the long file's later messages, which the short copy does not have, are found.
      const recall = createRecall(db);
      const longId = db.prepare('SELECT id FROM conversations WHERE path = ?').pluck().get(files[LONG]!) as number;
      const read = recall.read({ conversation_id: longId, turns: '1-2000', detail: 'summary' });
      expect(read.totalTurns).toBeGreaterThan(100);
      const shortText = fs.readFileSync(SHORT, 'utf8').toLowerCase();
      const late = db.prepare("SELECT text FROM entries WHERE conversation_id = ? AND indexed = 1 ORDER BY seq DESC LIMIT 20").pluck().all(longId) as string[];
      const words = [...new Set(late.join(' ').toLowerCase().match(/[a-z]{7,}/g) ?? [])].filter((w) => !shortText.includes(w)).slice(0, 5);
      expect(words.length).toBeGreaterThan(0);
      for (const word of words) expect(recall.recall({ query: word, workspace: 'all' }).hits.map((h) => h.id), word).toContain(longId);
    } finally {
      db.close();
    }
  });
});
