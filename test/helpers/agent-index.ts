// A temp HOME with an agent's files in their real places, indexed by the real pipeline into a real
// SQLite file: for the adapter tests of the agents whose files are not one appended JSONL each.
import fs from 'node:fs';
import path from 'node:path';
import { createIndexer, type ScanStats } from '../../src/main/ingest/scan.js';
import { ADAPTERS } from '../../src/main/ingest/sources.js';
import { openDb, type Db } from '../../src/main/store/db.js';
import type { SourceKind } from '../../src/shared/types.js';

export interface IndexedEntry {
  seq: number;
  source_id: string | null;
  role: string;
  kind: string;
  text: string;
  indexed: number;
  tool_name: string | null;
  tool_status: string | null;
  ts: number | null;
  first_kept_source_id: string | null;
  off_path: number;
}

export interface IndexedConversation {
  id: number;
  key: string;
  session_id: string;
  path: string;
  workspace: string | null;
  title: string;
  summary: string | null;
  created_at: number | null;
  updated_at: number | null;
  entry_count: number;
  parent_key: string | null;
  parent_id: number | null;
  is_subagent: number;
}

/** `roots`: where to look instead of the agent's default folders under HOME (Aider has none). */
export function agentIndex(dir: string, kind: SourceKind, env: NodeJS.ProcessEnv = {}, roots?: (home: string) => string[]) {
  const home = path.join(dir, 'home');
  fs.mkdirSync(home, { recursive: true });
  const db: Db = openDb(path.join(dir, 'index.sqlite'));
  const indexer = createIndexer(db, ADAPTERS);
  const sources = () => (roots ? roots(home) : ADAPTERS.get(kind)!.defaultRoots(env, home)).map((root) => ({ kind, root }));
  return {
    home,
    db,
    scan: (): ScanStats => indexer.scan(sources()),
    /** Writes `content` at `rel` under HOME (folders made as needed) and returns the path. */
    put(rel: string, content: string | Buffer): string {
      const file = path.join(home, rel);
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, content);
      return file;
    },
    conversations: (): IndexedConversation[] =>
      db.prepare(`SELECT * FROM conversations WHERE source = ? ORDER BY key`).all(kind) as IndexedConversation[],
    conversation(key: string): IndexedConversation {
      const c = db.prepare('SELECT * FROM conversations WHERE source = ? AND key = ?').get(kind, key) as IndexedConversation | undefined;
      if (!c) throw new Error(`no ${kind} conversation ${key}`);
      return c;
    },
    entries(key: string): IndexedEntry[] {
      return db
        .prepare('SELECT e.* FROM entries e JOIN conversations c ON c.id = e.conversation_id WHERE c.source = ? AND c.key = ? ORDER BY e.seq')
        .all(kind, key) as IndexedEntry[];
    },
    /** Full-text hits of a word among indexed entries. */
    search: (word: string): number =>
      db.prepare('SELECT count(*) FROM entries_fts WHERE entries_fts MATCH ?').pluck().get(`"${word}"`) as number,
    errors: () => db.prepare('SELECT path, line, reason FROM ingest_errors ORDER BY id').all() as { path: string; line: number | null; reason: string }[],
    close: () => db.close(),
  };
}
