// Terms matched only as themselves are read in one query (relevance.ts readTogether): each entry is
// ranked and handed over once, and the scores are the very numbers reading each term alone gives.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDb } from '../../src/main/store/db.js';
import { createSearch, type Search } from '../../src/main/store/search.js';
import { queryTerms, scoreConversations } from '../../src/main/recall/relevance.js';
import { parseQuery } from '../../src/main/recall/terms.js';
import { addConversations, tmpDir } from './helpers.js';

function corpus() {
  const dir = tmpDir();
  const db = openDb(path.join(dir, 'index.sqlite'));
  const ids = addConversations(db, dir, [
    { key: 'a', workspace: '/w/a', entries: ['the grpc deadline propagation broke', 'grpc retries', 'a deadline again and again, deadline', 'done'] },
    { key: 'b', workspace: '/w/b', entries: ['propagation of the grpc deadline in the gateway, a long message with many other words in it', 'ok'] },
    { key: 'c', workspace: '/w/a', entries: ['deadline only', 'propagation only', 'grpc only'] },
    { key: 'd', workspace: '/w/b', entries: ['nothing here', 'grpc deadline propagation on an abandoned branch'] },
  ]);
  db.prepare("UPDATE entries SET off_path = 1 WHERE text LIKE '%abandoned branch%'").run();
  return { db, ids, search: createSearch(db) };
}

describe('terms read together', () => {
  it("ranks an entry by the OR of the terms: the sum of each term's own bm25, bit for bit, each entry once", () => {
    const { db, ids, search } = corpus();
    const matches = ['"grpc"', '"deadline"', '"propagation"'];
    for (const bounds of [{}, { workspace: '/w/a' }, { exclude: [ids.get('a')!] }]) {
      const alone = matches.map((m) => new Map(search.termEntries(m, bounds, 100).map(([entry, , rank]) => [entry, -rank])));
      const together = search.entriesMatchingAny(matches, bounds);
      const entries = new Set(alone.flatMap((m) => [...m.keys()]));
      expect(together.map(([entry]) => entry).sort((x, y) => x - y)).toEqual([...entries].sort((x, y) => x - y));
      for (const [entry, , rank] of together) {
        let sum = 0;
        for (const m of alone) sum += m.get(entry) ?? 0;
        expect(-rank).toBe(sum);
      }
    }
    db.close();
  });

  it('gives the scores reading each term alone gives, handing each matching entry over once', () => {
    const { db, search } = corpus();
    const rows = { ranked: 0 };
    const counting: Search = {
      ...search,
      termEntries: (...a) => { const r = search.termEntries(...a); rows.ranked += r.length; return r; },
      entriesMatchingAny: (...a) => { const r = search.entriesMatchingAny(...a); rows.ranked += r.length; return r; },
    };
    // A term matching more entries than scoring reads is read alone, and so is every term after it.
    const alone: Search = { ...search, entryHitCount: () => Number.MAX_SAFE_INTEGER };
    for (const bounds of [{}, { workspace: '/w/b' }]) {
      const terms = queryTerms(search, parseQuery('grpc deadline propagation'));
      rows.ranked = 0;
      const scored = scoreConversations(counting, terms, bounds);
      expect(scored).toEqual(scoreConversations(alone, terms, bounds));
      // Each on-path entry within bounds holding any of the three words, once (not once per word).
      const distinct = search.entriesMatchingAny(['"grpc"', '"deadline"', '"propagation"'], bounds).length;
      expect(rows.ranked).toBe(distinct);
    }
    db.close();
  });
});
