// A conversation's sub-agents are found through the parent_id index of migration 9. Without it every
// conversations.get scanned the table, and the daemon's event loop did that for the activity note of
// each history_* call (2.5 s of 8 s over 1,000 mixed socket calls at 10k, BENCHMARKS.md).
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDb } from '../../src/main/store/db.js';
import { CHILDREN_SQL, createReader } from '../../src/main/store/read.js';
import { tmpDir } from '../recall/helpers.js';

describe('sub-agents by parent', () => {
  it('are looked up through conversations_parent, not a scan of conversations', () => {
    const db = openDb(path.join(tmpDir(), 'index.sqlite'));
    const plan = (db.prepare(`EXPLAIN QUERY PLAN ${CHILDREN_SQL}`).all(1) as { detail: string }[]).map((r) => r.detail).join('\n');
    expect(plan).toContain('INDEX conversations_parent');
    expect(plan).not.toMatch(/SCAN c\b/);
    db.close();
  });

  it('are the conversations whose parent it is, oldest first', () => {
    const db = openDb(path.join(tmpDir(), 'index.sqlite'));
    const add = db.prepare("INSERT INTO conversations (source, key, session_id, path, created_at, parent_id, is_subagent) VALUES ('pi', ?, ?, ?, ?, ?, ?)");
    const insert = (key: string, created: number, parentId: number | null) => add.run(key, key, `/${key}.jsonl`, created, parentId, parentId === null ? 0 : 1);
    const parent = Number(insert('p', 1, null).lastInsertRowid);
    insert('late', 30, parent);
    insert('early', 20, parent);
    insert('other', 10, null);
    expect(createReader(db).children(parent).map((c) => c.sessionId)).toEqual(['early', 'late']);
    db.close();
  });
});
