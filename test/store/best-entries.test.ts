// A term matching many more entries than the caller reads: within bounds that keep almost every
// conversation its best entries are cut from all its matches before each is looked up (search.ts
// BEST_ENTRIES_ON_PATH_SQL), and must be the very rows the bounds query gives: the best entries off the
// active path or in a sub-agent's conversation dropped and more read in their place, equal ranks cut by id.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDb } from '../../src/main/store/db.js';
import { createSearch, type Bounds } from '../../src/main/store/search.js';
import { addConversations, tmpDir } from '../recall/helpers.js';

function corpus() {
  const dir = tmpDir();
  const db = openDb(path.join(dir, 'index.sqlite'));
  const filler = (n: number) => Array.from({ length: n }, (_, i) => `word${i}`).join(' ');
  const ids = addConversations(db, dir, [
    // The shortest, best-ranked matches: a sub-agent's, left out unless sub-agents are included.
    { key: 'sub', isSubagent: true, entries: ['zebra', 'zebra zebra', 'zebra here'] },
    // Equal ranks: the same text five times, across the cut.
    { key: 'main', entries: ['zebra crossing', 'zebra crossing', `zebra ${filler(3)}`, 'zebra crossing', `zebra ${filler(8)}`, 'zebra crossing', 'zebra crossing'] },
    { key: 'branch', entries: ['zebra abandoned', 'zebra abandoned too', `zebra ${filler(5)}`, `zebra ${filler(12)}`] },
    { key: 'other', entries: [`zebra ${filler(2)}`, `zebra ${filler(4)}`, 'zebra crossing', `zebra ${filler(20)}`] },
    // Entries without the term, so that it weighs what a rare word weighs (bm25's idf over entries).
    { key: 'plain', entries: Array.from({ length: 40 }, (_, i) => `lion ${filler(i % 7)}`) },
  ]);
  db.prepare("UPDATE entries SET off_path = 1 WHERE text LIKE 'zebra abandoned%'").run();
  return { db, ids, search: createSearch(db) };
}

const sorted = (rows: readonly (readonly number[])[]) => rows.map((r) => r.join(',')).sort();

describe("a term's best entries within wide bounds", () => {
  it('are the rows the bounds query gives, for every cut', () => {
    const { db, ids, search } = corpus();
    const bounds: Bounds[] = [{}, { includeSubagents: true }, { exclude: [ids.get('other')!] }, { includeSubagents: true, exclude: [ids.get('main')!] }];
    const hits = search.entryIds('"zebra"').length;
    expect(hits).toBe(18);
    let compared = 0;
    for (const b of bounds) {
      for (let limit = 1; limit <= 6; limit++) {
        const viaBounds = search.termEntries('"zebra"', b, limit);
        const viaFacts = search.termEntries('"zebra"', b, limit, search.conversationFacts(b));
        expect(sorted(viaFacts)).toEqual(sorted(viaBounds));
        expect(viaFacts).toHaveLength(limit);
        compared++;
      }
    }
    expect(compared).toBe(24);
    // The cut reached past the dropped rows: with sub-agents out, none of theirs is among the best.
    const best = search.termEntries('"zebra"', {}, 3, search.conversationFacts({}));
    const owners = new Set(best.map(([, conversation]) => conversation));
    expect(owners.has(ids.get('sub')!)).toBe(false);
    db.close();
  });
});
