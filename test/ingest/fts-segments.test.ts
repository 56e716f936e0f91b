// A group of small files writes its full-text rows as one FTS5 segment (store/fts-writes.ts). Migration
// 11's counting triggers make every source_files and conversations write open a statement journal, and
// FTS5 writes its pending rows out as a segment at each: run in file order, that was a segment per
// file in each full-text table, for the merges to work through again and again.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createIndexer } from '../../src/main/ingest/scan.js';
import { ADAPTERS } from '../../src/main/ingest/sources.js';
import { openDb } from '../../src/main/store/db.js';
import { FIXTURES, useTmp } from '../helpers/tmp.js';

const tmp = useTmp('tl-fts-segments-');
const TURN = fs.readFileSync(path.join(FIXTURES, 'large/claude-code/incremental-simple/turn-1.jsonl'));
const FILES = 40;
const TABLES = ['entries_fts', 'conversations_fts', 'conversation_terms'];

describe('full-text segments of a group', () => {
  it('a scan of many small files writes a few segments per full-text table, not one per file', () => {
    const dir = tmp();
    const root = path.join(dir, 'projects', '-tmp-project');
    fs.mkdirSync(root, { recursive: true });
    for (let i = 0; i < FILES; i++) fs.writeFileSync(path.join(root, `${String(i).padStart(8, '0')}-aaaa-bbbb-cccc-dddddddddddd.jsonl`), TURN);
    const db = openDb(path.join(dir, 'index.sqlite'));
    // No merging: each segment written stays one.
    for (const t of TABLES) {
      db.prepare(`INSERT INTO ${t} (${t}, rank) VALUES ('automerge', 0)`).run();
      db.prepare(`INSERT INTO ${t} (${t}, rank) VALUES ('crisismerge', 1000)`).run();
    }
    const fileRows = db.prepare("SELECT count(*) FROM source_files").pluck();
    const stats = createIndexer(db, ADAPTERS).scan([{ kind: 'claude-code', root: path.dirname(root) }]);
    expect(stats.parsedFiles).toBe(FILES);
    expect(fileRows.get()).toBe(FILES);
    expect(db.prepare('SELECT count(*) FROM entries_fts').pluck().get()).toBeGreaterThanOrEqual(FILES);
    // Groups of up to 64 files (fewer on a slow machine, BatchGroup.withinTime): a handful of segments
    // at most, against one per file (40 and more) when every file's progress flushed them.
    // A %_data row's id holds its segment's id from bit 37 up (FTS5_SEGMENT_ROWID); ids 1 and 10 are the averages and the structure.
    for (const t of TABLES) expect(db.prepare(`SELECT count(DISTINCT id >> 37) FROM ${t}_data WHERE id > 10`).pluck().get(), t).toBeLessThan(FILES / 4);
    db.close();
  });
});
