// The relevance model: BM25's parts by value, and on an index what a sentence ranks first.
import { describe, expect, it } from 'vitest';
import { createSearch } from '../../src/main/store/search.js';
import { idf, queryTerms, saturate, scoreConversations } from '../../src/main/recall/relevance.js';
import { parseQuery } from '../../src/main/recall/terms.js';
import { readCues } from '../../src/main/recall/cues.js';
import { buildIndex, filler, NOW } from './helpers.js';
import { coverageCeiling } from '../../src/main/recall/default.js';

describe('BM25 parts', () => {
  it('idf stays positive and falls with document frequency', () => {
    expect(idf(0, 100)).toBeCloseTo(Math.log(1 + 100.5 / 0.5), 12);
    expect(idf(1, 100)).toBeGreaterThan(idf(10, 100));
    expect(idf(100, 100)).toBeGreaterThan(0);
  });

  it('term frequency saturates, and a longer document counts a match for less', () => {
    expect(saturate(1, 10, 10, 0.3)).toBeCloseTo(1, 12);
    expect(saturate(3, 10, 10, 0.3)).toBeLessThan(3 * saturate(1, 10, 10, 0.3));
    expect(saturate(1, 40, 10, 0.3)).toBeLessThan(saturate(1, 10, 10, 0.3));
    expect(saturate(1, 40, 10, 0)).toBeCloseTo(1, 12);
  });
});

describe('scoring a sentence', () => {
  const convs = [
    // Holds every everyday word of the sentence, none of its rare ones.
    { key: 'everyday', title: 'routine config work', entries: ['please update the config and the tests', 'done: build and deploy ok'] },
    // Holds its two rare words, said together.
    { key: 'rare', title: 'webhook signatures', entries: ['the brightline webhook signature check fails', 'hmac over the raw body fixed it'] },
    { key: 'one', title: 'brightline sandbox', entries: ['brightline sandbox keys', 'rotated'] },
    ...filler(60),
  ];

  it('a conversation sharing the rare words outranks one holding all the everyday ones', () => {
    const { db, ids } = buildIndex(convs);
    const search = createSearch(db);
    const terms = queryTerms(search, parseQuery('please update the config and tests for the brightline signature'));
    const ranked = scoreConversations(search, terms, {}).sort((a, b) => b.score - a.score);
    expect(ranked[0]!.id).toBe(ids.get('rare'));
    const rare = ranked[0]!;
    expect(rare.matches.map((m) => m.term).sort()).toEqual(['brightline', 'signature']);
    expect(rare.bestEntry).not.toBeNull();
    const everyday = ranked.find((s) => s.id === ids.get('everyday'))!;
    expect(everyday.coverage).toBeLessThan(rare.coverage);
    expect(rare.allTerms).toBe(false);
    db.close();
  });

  it("coverage is the share of the message's information matched; a word nobody used counts fully", () => {
    const { db, ids } = buildIndex(convs);
    const search = createSearch(db);
    const both = queryTerms(search, parseQuery('brightline signature'));
    const full = scoreConversations(search, both, {}).find((s) => s.id === ids.get('rare'))!;
    expect(full.coverage).toBeCloseTo(1, 12);
    expect(full.allTerms).toBe(true);
    const withUnknown = queryTerms(search, parseQuery('brightline signature zyzzyvas'));
    const part = scoreConversations(search, withUnknown, {}).find((s) => s.id === ids.get('rare'))!;
    const w = withUnknown.map((t) => t.weight);
    expect(part.coverage).toBeCloseTo((w[0]! + w[1]!) / (w[0]! + w[1]! + w[2]!), 12);
    db.close();
  });

  it("a summary counts as a field when the agent wrote it, not the one derived from the messages", () => {
    const { db, ids } = buildIndex([
      // The derived summary of both starts with their first request, which names the word.
      { key: 'derived', title: 'queue work', entries: ['the zephyrine consumer lags behind', 'added a partition'] },
      { key: 'own', title: 'queue work', summary: 'zephyrine consumer lag fixed', entries: ['the zephyrine consumer lags behind', 'added a partition'] },
      ...filler(30),
    ]);
    const search = createSearch(db);
    const ranked = scoreConversations(search, queryTerms(search, parseQuery('zephyrine')), {});
    const field = (key: string) => ranked.find((s) => s.id === ids.get(key))!.matches[0]!.field;
    expect(field('own')).toBe('summary');
    expect(field('derived')).toBe('messages');
    db.close();
  });

  it('bounds apply before anything is scored', () => {
    const { db, ids } = buildIndex([{ ...convs[1]!, workspace: '/w/a' }, { ...convs[2]!, workspace: '/w/b' }, ...filler(5)]);
    const search = createSearch(db);
    const terms = queryTerms(search, parseQuery('brightline'));
    expect(scoreConversations(search, terms, { workspace: '/w/b' }).map((s) => s.id)).toEqual([ids.get('one')]);
    expect(scoreConversations(search, terms, { exclude: [ids.get('one')!, ids.get('rare')!] })).toEqual([]);
    db.close();
  });

  it('words that only place the message in time are not topic terms', () => {
    const { db } = buildIndex(convs);
    const search = createSearch(db);
    const text = 'the brightline signature thing from june';
    expect(queryTerms(search, parseQuery(text), readCues(text, NOW)).map((t) => t.key)).toEqual(['brightline', 'signature']);
    db.close();
  });
});

describe('the coverage ceiling', () => {
  // The default strategy skips scoring when even this ceiling cannot be admitted; that is only safe if
  // no conversation's coverage ever exceeds it.
  it('no conversation covers more of a message than the share of its words the history contains', () => {
    const { db } = buildIndex([
      { key: 'a', title: 'kafka consumer lag', entries: ['the kafka consumer lags behind', 'raised the fetch size'] },
      { key: 'b', title: 'flaky table test', entries: ['the table test is flaky again', 'retry the whole suite'] },
      ...filler(40),
    ]);
    const search = createSearch(db);
    const vocabulary = ['kafka', 'consumer', 'lag', 'flaky', 'table', 'test', 'config', 'build', 'deploy', 'zyzzyva', 'quuxbar', 'fetch', 'retry', 'markers', 'sluggish'];
    let seed = 7;
    const rand = () => ((seed = (seed * 16807) % 2147483647) / 2147483647);
    let checked = 0;
    for (let i = 0; i < 200; i++) {
      const words = Array.from({ length: 1 + Math.floor(rand() * 6) }, () => vocabulary[Math.floor(rand() * vocabulary.length)]!);
      const terms = queryTerms(search, parseQuery(words.join(' ')));
      const ceiling = coverageCeiling(terms);
      for (const s of scoreConversations(search, terms, {})) {
        expect(s.coverage).toBeLessThanOrEqual(ceiling + 1e-12);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(500);
    db.close();
  });
});
