// A scan looks up the rows of the files it walked, 500 at a time (store/file-states.ts). The lookup
// must read only the covering index source_files_state, never the table's rows (they carry each file's
// parser state, often in overflow pages): SQLite took the path's unique index and read every row.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDb } from '../../src/main/store/db.js';
import { createFileStates, FILE_STATES_SQL } from '../../src/main/store/file-states.js';
import { tmpDir } from '../recall/helpers.js';

describe('the rows of the files a scan walked', () => {
  it('come from the covering index source_files_state', () => {
    const db = openDb(path.join(tmpDir(), 'index.sqlite'));
    const plan = (db.prepare(`EXPLAIN QUERY PLAN ${FILE_STATES_SQL}`).all('[]') as { detail: string }[]).map((r) => r.detail).join('\n');
    expect(plan).toContain('USING COVERING INDEX source_files_state');
    db.close();
  });

  it('each with its own path, whatever order they are asked in; files without a row are left out', () => {
    const db = openDb(path.join(tmpDir(), 'index.sqlite'));
    const insert = db.prepare("INSERT INTO source_files (path, kind, size, mtime_ms, inode, committed_offset, parser_state) VALUES (?, 'pi', ?, ?, ?, ?, 'x')");
    insert.run('/h/a.jsonl', 10, 1000, 7, 10);
    insert.run('/h/b.jsonl', 20, 2000, 8, 15);
    insert.run('/h/é c.jsonl', 30, 3000, 9, 30);
    const rows = createFileStates(db).of(['/h/é c.jsonl', '/h/none.jsonl', '/h/a.jsonl', '/h/b.jsonl']);
    const byPath = Object.fromEntries(rows.map((r) => [r.path, r]));
    expect(Object.keys(byPath).sort()).toEqual(['/h/a.jsonl', '/h/b.jsonl', '/h/é c.jsonl']);
    expect(byPath['/h/b.jsonl']).toMatchObject({ path: '/h/b.jsonl', size: 20, mtime_ms: 2000, inode: 8, committed_offset: 15, status: 'ok' });
    expect(byPath['/h/é c.jsonl']).toMatchObject({ size: 30, inode: 9 });
    db.close();
  });
});
