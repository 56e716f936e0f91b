// The writer asks after every new conversation whether some sub-agent waits for its parent. That
// question must go through the partial index conversations_unlinked: since migration 9 added
// conversations_parent, SQLite took that one for `parent_id IS NULL`, which holds for nearly every
// row, so each new conversation of a cold index read the whole table (10k: 6.1 MB per CPU-second
// against 9.4 before, BENCHMARKS.md).
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDb } from '../../src/main/store/db.js';
import { ANY_UNLINKED_SQL, LINK_PARENTS_SQL } from '../../src/main/store/writer-conversations.js';
import { tmpDir } from '../recall/helpers.js';

const plan = (db: ReturnType<typeof openDb>, sql: string) =>
  (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all() as { detail: string }[]).map((r) => r.detail).join('\n');

describe('sub-agents waiting for their parent', () => {
  it('are found through conversations_unlinked, not conversations_parent (every top-level row)', () => {
    const db = openDb(path.join(tmpDir(), 'index.sqlite'));
    for (const sql of [ANY_UNLINKED_SQL, LINK_PARENTS_SQL]) {
      const p = plan(db, sql);
      expect(p).toContain('INDEX conversations_unlinked');
      expect(p).not.toContain('conversations_parent');
    }
    db.close();
  });
});
