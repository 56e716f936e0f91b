// Recall's main query reads the covering index of migration 8, not the entries' rows (issue 16:
// through the table each match read its entry's page and, past a long text, its overflow pages).
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDb } from '../../src/main/store/db.js';
import { createSearch, TERM_ENTRIES_SQL } from '../../src/main/store/search.js';
import { addConversations, tmpDir } from '../recall/helpers.js';

describe('recall queries and the entries_owner index', () => {
  it('joins FTS5 matches to their conversation through the covering index', () => {
    const db = openDb(path.join(tmpDir(), 'index.sqlite'));
    const plan = (db.prepare(`EXPLAIN QUERY PLAN ${TERM_ENTRIES_SQL}`).all({ match: '"x"', limit: 1, sub: 0, ws: null, since: null, ex: '[]' }) as { detail: string }[])
      .map((r) => r.detail)
      .join('\n');
    expect(plan).toContain('COVERING INDEX entries_owner');
    db.close();
  });

  it('finds the same entries, off-path ones left out, and the conversations’ lengths', () => {
    const dir = tmpDir();
    const db = openDb(path.join(dir, 'index.sqlite'));
    const ids = addConversations(db, dir, [
      { key: 'a', entries: ['the kafka consumer lags', 'restart the kafka broker', 'done'] },
      { key: 'b', entries: ['kafka again', 'ok'] },
      { key: 'c', entries: ['nothing here'] },
    ]);
    const a = ids.get('a')!;
    const b = ids.get('b')!;
    // An entry on an abandoned branch is not searched.
    db.prepare("UPDATE entries SET off_path = 1 WHERE conversation_id = ? AND text LIKE 'restart%'").run(a);
    const search = createSearch(db);
    const rows = search.termEntries('"kafka"', {}, 10);
    expect(rows.map(([, conversationId]) => conversationId).sort()).toEqual([a, b].sort());
    // More matches than the limit: the best by bm25 ("kafka again" is the shorter entry).
    const [best, ...rest] = search.termEntries('"kafka"', {}, 1);
    expect(rest).toEqual([]);
    expect(best![2]).toBe(Math.min(...rows.map(([, , rank]) => rank)));
    expect(search.conversationLengths([a, b, ids.get('c')!])).toEqual(new Map([[a, 3], [b, 2], [ids.get('c')!, 1]]));
    db.close();
  });
});
