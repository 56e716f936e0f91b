import fc from 'fast-check';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { TOKENIZE } from '../../src/main/store/schema.js';
import { createStemmer } from '../../src/main/store/search.js';
import { clauseMatch, isIdentifierLike, matchAll, matchAny, normalizeToken, parseQuery, tokenize } from '../../src/main/recall/terms.js';

const keys = (text: string, stopWords = true) => parseQuery(text, { stopWords }).map((c) => c.tokens.join(' ') + (c.prefix ? '*' : ''));

describe('tokenizer (mirrors unicode61 remove_diacritics 2)', () => {
  it('splits on non letters/numbers, lowercases, strips Latin diacritics', () => {
    expect(tokenize('Crème brûlée, naïve CAFÉ!')).toEqual(['creme', 'brulee', 'naive', 'cafe']);
    expect(tokenize('e\u0301te\u0301')).toEqual(['ete']);
    expect(tokenize('tx.draft next/diff.ts ledger_reconcile')).toEqual(['tx', 'draft', 'next', 'diff', 'ts', 'ledger', 'reconcile']);
    expect(tokenize('日本語テスト 中文 🙂 x²y')).toEqual(['日本語テスト', '中文', 'x²y']);
    expect(normalizeToken('ŁÓDŹ')).toBe('łodz');
  });

  it('agrees with SQLite on every token it produces (same split, same folding)', () => {
    const db = new Database(':memory:');
    db.exec(`CREATE VIRTUAL TABLE t USING fts5(x, tokenize='${TOKENIZE}'); CREATE VIRTUAL TABLE v USING fts5vocab(t, instance);`);
    fc.assert(
      // Characters from many scripts and categories. SQLite's tables follow Unicode 6.1 and treat
      // code points assigned since (🙂, U+1F642) as token characters; those are left out here.
      fc.property(fc.string({ unit: fc.constantFrom(...Array.from('aZ09 é\u0301üßøŁ.,_-/:"*()^+\'日本語テスト中文½²①ΩЖж٣😀☃\t\n')), maxLength: 30 }), (s) => {
        db.exec('DELETE FROM t');
        db.prepare('INSERT INTO t (rowid, x) VALUES (1, ?)').run(s);
        const sqliteCount = db.prepare('SELECT count(*) FROM v').pluck().get();
        return sqliteCount === tokenize(s).length;
      }),
      { numRuns: 300 },
    );
  });

  it('stems through SQLite itself (porter)', () => {
    const stem = createStemmer(new Database(':memory:'));
    expect(stem(['payouts', 'running', 'connection', 'tx'])).toEqual([['payout'], ['run'], ['connect'], ['tx']]);
  });
});

describe('query builder', () => {
  it('every term required; a term with inner punctuation is a phrase', () => {
    const c = parseQuery('fix tx.draft in next/diff.ts');
    expect(c.map((x) => x.tokens)).toEqual([['fix'], ['tx', 'draft'], ['next', 'diff', 'ts']]);
    expect(matchAll(c)).toBe('"fix" AND "tx draft" AND "next diff ts"');
    expect(matchAny(c)).toBe('"fix" OR "tx draft" OR "next diff ts"');
  });

  it('R6 is one token; sentence punctuation around a word is dropped', () => {
    expect(keys('R6? (webhook) -retry +backoff, "quoted"')).toEqual(['r6', 'webhook', 'retry', 'backoff', 'quoted']);
  });

  it('term* is a prefix, "…" a phrase (kept even when made of stop words)', () => {
    const c = parseQuery('migrat* "the one with" tx.dr*');
    expect(c.map((x) => clauseMatch(x))).toEqual(['"migrat"*', '"the one with"', '"tx dr"*']);
    expect(c[1]!.quoted).toBe(true);
  });

  it('an ellipsis inside quotes splits the phrase where words were left out', () => {
    const c = parseQuery('"Missing lock for job ... moveToFinished" warnings "could not … connect" "x...."');
    expect(c.map((x) => clauseMatch(x))).toEqual(['"missing lock for job"', '"movetofinished"', '"warnings"', '"could not"', '"connect"', '"x"']);
    expect(c.filter((x) => x.quoted).map((x) => x.source)).toEqual(['Missing lock for job', 'moveToFinished', 'could not', 'connect', 'x']);
  });

  it('FTS5 operators and syntax are literal words or separators, never syntax', () => {
    const c = parseQuery('NEAR(a b) title:foo "x" ^start col:(bar) a AND b OR c NOT d * :', { stopWords: false });
    const m = matchAll(c)!;
    expect(m).toBe('"near a" AND "b" AND "title foo" AND "x" AND "start" AND "col bar" AND "a" AND "and" AND "or" AND "c" AND "not" AND "d"');
    // Every token is inside "…": nothing outside quotes but AND.
    expect(m.replace(/"[^"]*"/g, '').replace(/AND/g, '').trim()).toBe('');
  });

  it('drops stop words and chat filler, keeps identifiers', () => {
    expect(keys('hey, like last time please fix the useDebouncedSearch hook again thanks')).toEqual(['fix', 'usedebouncedsearch', 'hook']);
    expect(keys("didn't we fix the type's toJSON?")).toEqual(['fix', 'type', 'tojson']);
    expect(keys('the and of', false)).toEqual(['the', 'and', 'of']);
  });

  it('detail=none tables get phrases as all tokens; column filters are built here too', () => {
    const [p] = parseQuery('tx.dr*');
    expect(clauseMatch(p!, 'none')).toBe('("tx" AND "dr"*)');
    expect(matchAll(parseQuery('retry backoff'), { columns: ['title', 'summary'] })).toBe('{title summary} : ("retry" AND "backoff")');
  });

  it('dedupes repeated clauses', () => {
    expect(keys('retry retry RETRY')).toEqual(['retry']);
  });

  it('recognizes identifier-like words', () => {
    const id = (s: string) => isIdentifierLike(parseQuery(s, { stopWords: false })[0]!);
    expect(['useDebouncedSearch', 'ledger_reconcile', 'tx.draft', 'ERR_REQUIRE_ESM', '42P05', 'x509'].map(id)).toEqual([true, true, true, true, true, true]);
    expect(['retry', 'Webhook'].map(id)).toEqual([false, false]);
  });

  it('never produces a MATCH string FTS5 rejects, whatever the input (unicode, operators)', () => {
    const db = new Database(':memory:');
    db.exec(`CREATE VIRTUAL TABLE t USING fts5(title, summary, tokenize='${TOKENIZE}'); INSERT INTO t VALUES ('near and or', 'x');`);
    const q = db.prepare('SELECT count(*) FROM t WHERE t MATCH ?').pluck();
    const parts = fc.constantFrom('"', '*', 'NEAR(', 'AND', 'OR', 'NOT', ':', '^', '(', ')', '-', '+', '{', '}', 'title:', 'ü', '🙂', 'é', 'a', ' ', '.', '/');
    fc.assert(
      fc.property(fc.array(fc.oneof(parts, fc.string({ unit: 'grapheme', maxLength: 6 })), { maxLength: 10 }), (arr) => {
        const clauses = parseQuery(arr.join(''), { stopWords: false });
        for (const m of [matchAll(clauses), matchAny(clauses), matchAll(clauses, { columns: ['title'] })]) if (m) q.get(m);
      }),
      { numRuns: 500 },
    );
  });
});
