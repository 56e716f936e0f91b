// Recall's main query reads the covering index of migration 8, not the entries' rows (issue 16:
// through the table each match read its entry's page and, past a long text, its overflow pages).
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDb } from '../../src/main/store/db.js';
import { createSearch, PRESENCE_AMONG_SQL, TERM_ENTRIES_SQL } from '../../src/main/store/search.js';
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
    // Lengths and the summary's origin, read once per conversation for a query, within its bounds.
    const facts = search.conversationFacts({ exclude: [b] });
    facts.read([a, b, ids.get('c')!]);
    expect([a, b, ids.get('c')!].map((id) => facts.get(id))).toEqual([{ length: 3, ownSummary: false }, null, { length: 1, ownSummary: false }]);
    // What the priors read: the same workspace and times as the whole row.
    const whole = search.conversations([a, b]);
    expect(search.conversationPlaces([a, b])).toEqual(
      new Map([a, b].map((id) => { const r = whole.get(id)!; return [id, { id, workspace: r.workspace, created_at: r.created_at, updated_at: r.updated_at }]; })),
    );
    expect(search.conversationPlaces([])).toEqual(new Map());
    db.close();
  });

  it('tells which of the given conversations hold a term, walking its doclist once', () => {
    const dir = tmpDir();
    const db = openDb(path.join(dir, 'index.sqlite'));
    const ids = addConversations(db, dir, [
      { key: 'a', entries: ['the kafka consumer lags'] },
      { key: 'b', entries: ['kafka again'] },
      { key: 'c', entries: ['kafka a third time'] },
      { key: 'd', entries: ['nothing here'] },
    ]);
    const [a, b, c, d] = ['a', 'b', 'c', 'd'].map((k) => ids.get(k)!);
    const search = createSearch(db);
    // b lies between a and c but is not asked about: it is not in the answer.
    expect(search.presenceAmong('kafka', [a!, c!, d!])).toEqual(new Set([a, c]));
    expect(search.presenceAmong('kafka', [b!])).toEqual(new Set([b]));
    expect(search.presenceAmong('kafka', [])).toEqual(new Set());
    // The ids are tested row by row (M1>< : MATCH with a rowid range), not looked up one by one in the
    // doclist (=M1 : one FTS5 query per id, 20–40 times slower for a common word).
    const plan = (db.prepare(`EXPLAIN QUERY PLAN ${PRESENCE_AMONG_SQL}`).all({ match: 'kafka', lo: 1, hi: 9, ids: '[1]' }) as { detail: string }[])
      .map((r) => r.detail)
      .join('\n');
    expect(plan).toContain('INDEX 0:M1><');
    expect(plan).not.toContain(':=');
    db.close();
  });

  it('tells a title match from a summary the agent wrote, in id order, within the limit', () => {
    const dir = tmpDir();
    const db = openDb(path.join(dir, 'index.sqlite'));
    const ids = addConversations(db, dir, [
      { key: 'a', title: 'zebra plans', entries: ['hello', 'hi'] },
      { key: 'b', title: 'b', summary: 'a zebra summary', entries: ['hello', 'hi'] },
      // No summary of its own: the one derived from its first request does not count.
      { key: 'c', title: 'c', entries: ['zebra crossing request', 'done'] },
      { key: 'd', title: 'zebra d', summary: 'zebra again', entries: ['hello', 'hi'] },
      { key: 'e', title: 'e', entries: ['nothing', 'here'] },
    ]);
    const [a, b, d] = ['a', 'b', 'd'].map((k) => ids.get(k)!);
    const search = createSearch(db);
    const match = { title: '{title} : ("zebra")', summary: '{summary} : ("zebra")' };
    const all = () => search.conversationFacts({});
    expect(search.titleOrOwnSummary(match, all(), 100)).toEqual([
      { id: a, title: true, summary: false },
      { id: b, title: false, summary: true },
      { id: d, title: true, summary: true },
    ]);
    // The limit takes the first conversations by id, whichever column they match in.
    expect(search.titleOrOwnSummary(match, all(), 2)).toEqual([
      { id: a, title: true, summary: false },
      { id: b, title: false, summary: true },
    ]);
    expect(search.titleOrOwnSummary(match, search.conversationFacts({ exclude: [a!] }), 1)).toEqual([{ id: b, title: false, summary: true }]);
    // Bounds apply before the limit whichever way the matches are read (here all of them, the limit being larger).
    expect(search.titleOrOwnSummary(match, search.conversationFacts({ exclude: [a!] }), 100)).toEqual([
      { id: b, title: false, summary: true },
      { id: d, title: true, summary: true },
    ]);
    db.close();
  });
});
