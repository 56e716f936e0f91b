// A group of small files committed together derives each conversation once, at the group's end
// (writer.deferDerived): an OpenCode conversation is written by a file per message and part, and each
// file used to re-derive all of it (counts, summary, conversations_fts, conversation_terms).
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createIndexer } from '../../src/main/ingest/scan.js';
import { ADAPTERS } from '../../src/main/ingest/sources.js';
import { openDb, type Db } from '../../src/main/store/db.js';
import { FIXTURES, useTmp } from '../helpers/tmp.js';

const tmp = useTmp('tl-derive-once-');
const V2 = path.join(FIXTURES, 'opencode/agent-sessions-storage-v2');

/** Counts, per conversation, the writes of its entry count (one per derivation) with a temp trigger on the real table. */
function countDerivations(db: Db): () => Map<number, number> {
  db.exec(`CREATE TEMP TABLE derived_writes (conv INTEGER);
    CREATE TEMP TRIGGER count_derived AFTER UPDATE OF entry_count ON main.conversations
    BEGIN INSERT INTO derived_writes VALUES (new.id); END;`);
  return () => new Map(db.prepare('SELECT conv, count(*) FROM derived_writes GROUP BY conv').raw().all() as [number, number][]);
}

/** What is derived from a conversation's entries, as stored. */
function derivedState(db: Db) {
  return {
    conversations: db.prepare('SELECT key, title, summary, derived_summary, entry_count, created_at, updated_at, terms_stale FROM conversations ORDER BY key').all(),
    conversationsFts: db.prepare('SELECT c.key, f.title, f.summary, f.workspace FROM conversations_fts f JOIN conversations c ON c.id = f.rowid ORDER BY c.key').all(),
    terms: db.prepare('SELECT term, doc FROM conversation_terms_vocab ORDER BY term').all(),
    offPath: db.prepare('SELECT conversation_id, seq, off_path FROM entries ORDER BY conversation_id, seq').all(),
  };
}

function opencodeFiles(storage: string): string[] {
  const out: string[] = [];
  for (const sub of ['session', 'message', 'part']) {
    for (const dir of fs.readdirSync(path.join(storage, sub)).sort()) {
      for (const f of fs.readdirSync(path.join(storage, sub, dir)).sort()) out.push(path.join(storage, sub, dir, f));
    }
  }
  return out;
}

describe('derived once per conversation per group', () => {
  it('a scan derives an OpenCode conversation once, not once per file, and stores what file-by-file indexing stores', () => {
    const dir = tmp();
    const storage = path.join(dir, 'home/.local/share/opencode/storage');
    fs.cpSync(V2, storage, { recursive: true });

    const grouped = openDb(path.join(dir, 'grouped.sqlite'));
    const derivations = countDerivations(grouped);
    const stats = createIndexer(grouped, ADAPTERS).scan([{ kind: 'opencode', root: storage }]);
    expect(stats.errors).toEqual([]);
    const large = grouped.prepare("SELECT id FROM conversations WHERE key = 's_stage0_large'").pluck().get() as number;
    const files = opencodeFiles(storage).filter((f) => /s_stage0_large|m_(user|assistant)_large/.test(f));
    expect(files.length).toBeGreaterThan(10);
    // One derivation per group the conversation's files fell in: 15 files, a group holds up to 64
    // (fewer when the machine is slow: see BatchGroup.withinTime). Before, one per file.
    expect(derivations().get(large)).toBeLessThanOrEqual(3);

    // The same files, each indexed alone (every batch its own transaction, derived at once).
    const alone = openDb(path.join(dir, 'alone.sqlite'));
    const indexer = createIndexer(alone, ADAPTERS);
    // The scan's order (its part folders by message time) is kept by indexing in the grouped run's order.
    const order = grouped.prepare('SELECT path FROM source_files ORDER BY id').pluck().all() as string[];
    for (const f of order) indexer.indexFile('opencode', f);
    expect(derivedState(alone)).toEqual(derivedState(grouped));
    grouped.close();
    alone.close();
  });
});
