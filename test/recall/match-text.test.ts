// In-memory matching agrees with FTS5 on what matches (stems, phrases, prefixes), and cuts snippets.
import Database from 'better-sqlite3';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TOKENIZE } from '../../src/main/store/schema.js';
import { createTextMatcher } from '../../src/main/recall/match-text.js';
import { matchAll, matchAny, parseQuery } from '../../src/main/recall/terms.js';
import { createStemmer } from '../../src/main/store/search.js';

// Stems come from SQLite through a TEMP table on a connection (any will do).
const stem = createStemmer(new Database(':memory:'));

describe('text matcher', () => {
  it('matches stems, phrases in order, prefixes; all vs any', () => {
    const m = (q: string, mode: 'all' | 'any' = 'all') => createTextMatcher(parseQuery(q, { stopWords: false }), mode, stem);
    const text = 'The payouts were running; see tx.draft in next/diff.ts';
    expect(m('payout run').matches(text)).toBe(true);
    expect(m('tx.draft').matches(text)).toBe(true);
    expect(m('draft.tx').matches(text)).toBe(false);
    expect(m('"diff ts"').matches(text)).toBe(true);
    expect(m('payo*').matches(text)).toBe(true);
    // As in FTS5, the prefix is stemmed too: "pay" → "pai", which "payout" does not start with.
    expect(m('pay*').matches(text)).toBe(false);
    expect(m('payout zebra').matches(text)).toBe(false);
    expect(m('payout zebra', 'any').matches(text)).toBe(true);
  });

  it('cuts a window around the first match and marks every matched word', () => {
    const words = Array.from({ length: 60 }, (_, i) => `w${i}`);
    words[40] = 'Retry';
    words[42] = 'backoff';
    const s = createTextMatcher(parseQuery('retry backoff'), 'any', stem).snippet(words.join(' '), { open: '[', close: ']', tokens: 10 });
    expect(s).toBe('…w38 w39 [Retry] w41 [backoff] w43 w44 w45 w46 w47…');
    expect(createTextMatcher(parseQuery('retry'), 'any', stem).snippet('retry now', { open: '*', close: '*' })).toBe('*retry* now');
  });

  it('agrees with FTS5 MATCH on random texts and queries', () => {
    const db = new Database(':memory:');
    db.exec(`CREATE VIRTUAL TABLE t USING fts5(x, tokenize='${TOKENIZE}')`);
    const ins = db.prepare('INSERT INTO t (rowid, x) VALUES (1, ?)');
    const q = db.prepare('SELECT count(*) FROM t WHERE t MATCH ?').pluck();
    const vocab = ['running', 'runs', 'payout', 'payouts', 'tx', 'draft', 'connection', 'connected', 'café', 'CAFE', 'é', 'go', 'ing', 'the'];
    const word = fc.constantFrom(...vocab);
    const sep = fc.constantFrom(' ', '.', '/', ', ', '_', '-');
    const phrase = (w: fc.Arbitrary<string>) => fc.array(fc.tuple(w, sep), { minLength: 1, maxLength: 8 }).map((xs) => xs.map(([a, b]) => a + b).join(''));
    const queryWord = fc.oneof(word, fc.constantFrom('pay* ', 'run* ', 'conn* ', 'caf* '));
    fc.assert(
      fc.property(phrase(word), phrase(queryWord), fc.boolean(), (text, query, any) => {
        db.exec('DELETE FROM t');
        ins.run(text);
        const clauses = parseQuery(query, { stopWords: false });
        const match = any ? matchAny(clauses) : matchAll(clauses);
        if (!match) return true;
        return (q.get(match) === 1) === createTextMatcher(clauses, any ? 'any' : 'all', stem).matches(text);
      }),
      { numRuns: 400 },
    );
  });
});
