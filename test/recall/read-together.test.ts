// Terms matched only as themselves are read in one query (relevance.ts readTogether): each entry is
// ranked and handed over once, and the scores are the very numbers reading each term alone gives.
// Bounds that keep almost every conversation are told apart from the conversation rows read once
// (ConversationFacts), not by a lookup per entry: the same rows either way.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDb } from '../../src/main/store/db.js';
import { createSearch, type Bounds, type Search } from '../../src/main/store/search.js';
import { confineSearch } from '../../src/main/recall/confined.js';
import { ENTRY_LIMIT, queryTerms, scoreConversations } from '../../src/main/recall/relevance.js';
import { parseQuery } from '../../src/main/recall/terms.js';
import { addConversations, DAY, NOW, tmpDir } from './helpers.js';

function corpus() {
  const dir = tmpDir();
  const db = openDb(path.join(dir, 'index.sqlite'));
  const ids = addConversations(db, dir, [
    { key: 'a', workspace: '/w/a', daysAgo: 5, entries: ['the grpc deadline propagation broke', 'grpc retries', 'a deadline again and again, deadline', 'done'] },
    { key: 'b', workspace: '/w/b', daysAgo: 50, entries: ['propagation of the grpc deadline in the gateway, a long message with many other words in it', 'ok'] },
    { key: 'c', workspace: '/w/a', daysAgo: 200, entries: ['deadline only', 'propagation only', 'grpc only'] },
    { key: 'd', workspace: '/w/b', entries: ['nothing here', 'grpc deadline propagation on an abandoned branch'] },
    // Workspace B uses "grpc" far more than A: its weight within A differs from the whole index's.
    { key: 'e', workspace: '/w/b', entries: ['grpc grpc gateway', 'grpc codegen', 'grpc deadline'] },
    { key: 'f', workspace: '/w/b', entries: ['grpc health checks', 'grpc reflection'] },
    { key: 's', workspace: '/w/a', isSubagent: true, parentKey: 'a', entries: ['grpc deadline propagation, checked by a sub-agent'] },
  ]);
  db.prepare("UPDATE entries SET off_path = 1 WHERE text LIKE '%abandoned branch%'").run();
  return { db, ids, search: createSearch(db) };
}

const MATCHES = ['"grpc"', '"deadline"', '"propagation"'];

function boundsOf(ids: Map<string, number>): Bounds[] {
  return [
    {},
    { workspace: '/w/a' },
    { exclude: [ids.get('a')!] },
    { includeSubagents: true },
    { includeSubagents: true, exclude: [ids.get('s')!, ids.get('b')!] },
    { since: NOW - 60 * DAY },
  ];
}

describe('terms read together', () => {
  it("ranks an entry by the OR of the terms: the sum of each term's own bm25, bit for bit, each entry once", () => {
    const { db, ids, search } = corpus();
    for (const bounds of boundsOf(ids)) {
      const alone = MATCHES.map((m) => new Map(search.termEntries(m, bounds, 100).map(([entry, , rank]) => [entry, -rank])));
      const together = search.entriesMatchingAny(MATCHES, search.conversationFacts(bounds))!;
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

  it('finds the same rows, in the same order, whether the bounds are checked per entry or from the facts', () => {
    const { db, ids, search } = corpus();
    for (const bounds of boundsOf(ids)) {
      for (const match of [...MATCHES, '"grpc" OR "deadline"']) {
        const facts = search.conversationFacts(bounds);
        const got = search.termEntries(match, bounds, 100, facts);
        expect(got, JSON.stringify({ bounds, match })).toEqual(search.termEntries(match, bounds, 100));
        // The sub-agent's entry and the excluded conversations' are left out by the facts too.
        if (!bounds.includeSubagents) expect(got.map(([, c]) => c)).not.toContain(ids.get('s'));
        for (const id of bounds.exclude ?? []) expect(got.map(([, c]) => c)).not.toContain(id);
      }
    }
    db.close();
  });

  it('gives the scores reading each term alone gives, handing each matching entry over once', () => {
    const { db, ids, search } = corpus();
    const rows = { ranked: 0 };
    const counting: Search = {
      ...search,
      termEntries: (...a) => { const r = search.termEntries(...a); rows.ranked += r.length; return r; },
      entriesMatchingAny: (...a) => { const r = search.entriesMatchingAny(...a); rows.ranked += r?.length ?? 0; return r; },
    };
    // A search that cannot give the OR's sum reads each term alone.
    const alone: Search = { ...search, entriesMatchingAny: () => null };
    for (const bounds of boundsOf(ids)) {
      const terms = queryTerms(search, parseQuery('grpc deadline propagation'));
      rows.ranked = 0;
      const scored = scoreConversations(counting, terms, bounds);
      expect(scored).toEqual(scoreConversations(alone, terms, bounds));
      // Each on-path entry within bounds holding any of the three words, once (not once per word).
      const distinct = search.entriesMatchingAny(MATCHES, search.conversationFacts(bounds))!.length;
      expect(rows.ranked).toBe(distinct);
    }
    db.close();
  });

  it('finds each term\'s entries among those read together in whatever order either comes', () => {
    // FTS5 gives a MATCH's rows by rowid, and scoring walks both lists alongside; rows in another
    // order (a plan SQLite may choose for the bounded join) must give the same scores.
    const { db, ids, search } = corpus();
    const reversed: Search = {
      ...search,
      entryIds: (match) => search.entryIds(match).reverse(),
      entriesMatchingAny: (...a) => search.entriesMatchingAny(...a)?.reverse() ?? null,
    };
    for (const bounds of boundsOf(ids)) {
      const terms = queryTerms(search, parseQuery('grpc deadline propagation'));
      const scored = scoreConversations(search, terms, bounds);
      expect(scored.length).toBeGreaterThan(0);
      const byId = (xs: typeof scored) => [...xs].sort((x, y) => x.id - y.id);
      expect(byId(scoreConversations(reversed, terms, bounds))).toEqual(byId(scored));
    }
    db.close();
  });

  it('reads the terms one by one for a caller confined to a workspace, whose weights are counted within it', () => {
    // bm25 of an OR weighs each term by its index-wide idf; a confined search swaps each term's for the
    // one within bounds (confined.ts), which a sum of terms cannot take: read together, how often
    // workspace B uses "grpc" would move the scores a caller limited to A is given.
    const { db, search } = corpus();
    const bounds = { workspace: '/w/a', includeSubagents: true };
    const alone: Search = { ...search, entriesMatchingAny: () => null };
    const within = confineSearch(search, bounds);
    const terms = queryTerms(within, parseQuery('grpc deadline propagation'));
    const scored = scoreConversations(within, terms, bounds);
    expect(scored.length).toBeGreaterThan(1);
    expect(scored).toEqual(scoreConversations(confineSearch(alone, bounds), terms, bounds));
    // And the OR read would indeed have moved them (the test can fail).
    const open = { ...within, entriesMatchingAny: search.entriesMatchingAny };
    expect(scoreConversations(open, terms, bounds).map((s) => s.score)).not.toEqual(scored.map((s) => s.score));
    db.close();
  });
});

describe('a term matching more entries than a term read alone keeps', () => {
  it('is read with the others, every one of its entries counted', () => {
    const dir = tmpDir();
    const db = openDb(path.join(dir, 'index.sqlite'));
    // "grpc" in ENTRY_LIMIT + 1 entries: read alone, its best ENTRY_LIMIT would be kept.
    const per = 500;
    const many = Array.from({ length: Math.ceil((ENTRY_LIMIT + 1) / per) }, (_, i) => ({
      key: `m${i}`,
      workspace: '/w/m',
      entries: Array.from({ length: per }, (_, j) => (j % 50 === 0 ? 'grpc deadline' : `grpc note ${j}`)),
    }));
    const ids = addConversations(db, dir, [...many, { key: 'rare', workspace: '/w/r', entries: ['grpc deadline propagation'] }]);
    const search = createSearch(db);
    expect(search.entryIds('"grpc"').length).toBeGreaterThan(ENTRY_LIMIT);
    const rows = { alone: 0 };
    const counting: Search = { ...search, termEntries: (...a) => { const r = search.termEntries(...a); rows.alone += r.length; return r; } };
    const terms = queryTerms(search, parseQuery('grpc deadline propagation'));
    const scored = scoreConversations(counting, terms, {});
    expect(rows.alone).toBe(0);
    // Every conversation holds "grpc" in all of its entries: each counts them all.
    const tf = (id: number) => scored.find((s) => s.id === id)!;
    expect(scored).toHaveLength(many.length + 1);
    expect(tf(ids.get('m0')!).score).toBe(tf(ids.get(`m${many.length - 1}`)!).score);
    expect(scored.sort((a, b) => b.score - a.score)[0]!.id).toBe(ids.get('rare'));
    db.close();
  });
});

describe('a writer between the reads', () => {
  it('a message removed after the terms were read together is left out, not a crash', () => {
    const { db, ids, search } = corpus();
    const terms = queryTerms(search, parseQuery('grpc deadline propagation'));
    const before = scoreConversations(search, terms, {});
    // What a live writer does to a message between two statements of one call (writer-entries.ts).
    const gone = db.prepare("SELECT id, text FROM entries WHERE text = 'grpc retries'").get() as { id: number; text: string };
    const racing: Search = {
      ...search,
      entriesMatchingAny(matches, facts) {
        const rows = search.entriesMatchingAny(matches, facts);
        db.prepare("INSERT INTO entries_fts (entries_fts, rowid, text) VALUES ('delete', ?, ?)").run(gone.id, gone.text);
        db.prepare('DELETE FROM entries WHERE id = ?').run(gone.id);
        return rows;
      },
    };
    const after = scoreConversations(racing, terms, {});
    expect(after.map((c) => c.id).sort()).toEqual(before.map((c) => c.id).sort());
    expect(after.find((c) => c.id === ids.get('a'))?.bestEntry).not.toBe(gone.id);
    db.close();
  });
});
