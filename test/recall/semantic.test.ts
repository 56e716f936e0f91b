// The semantic layer: the shipped word table, and soft matches gated by the person's own corpus.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createSearch } from '../../src/main/store/search.js';
import { alternatesFor, compoundForms, versionSiblings } from '../../src/main/recall/semantic.js';
import { createRecall } from '../../src/main/recall/index.js';
import { parseQuery } from '../../src/main/recall/terms.js';
import { DEFAULT_TABLE, parseTable, WordTableError, wordNeighbors } from '../../src/main/recall/word-neighbors.js';
import { buildIndex, filler, tmpDir } from './helpers.js';

describe('the shipped word table', () => {
  it('loads, with stems as the index makes them and neighbours by meaning', () => {
    const table = wordNeighbors();
    const huge = table.of('huge').map((n) => n.word);
    expect(huge).toEqual(expect.arrayContaining(['big', 'large']));
    const slow = table.of('sluggish').find((n) => n.stem === 'slow');
    expect(slow?.similarity).toBeGreaterThan(0.65);
    expect(table.rank('the')).toBeNull(); // stop words are not in it
    expect(table.rank('huge')).toBeGreaterThan(900);
    expect(table.of('qwzxv')).toEqual([]);
  });

  it('finds every word it lists at its own rank, through the hash table laid out in the file', () => {
    const buf = fs.readFileSync(DEFAULT_TABLE());
    const [words, slots, textBytes] = [buf.readUInt32LE(8), buf.readUInt32LE(12), buf.readUInt32LE(16)];
    const text = 24 + slots * 4 + (words + 1) * 8;
    const lines = buf.toString('utf8', text, text + textBytes).split('\n').filter(Boolean);
    expect(lines).toHaveLength(words);
    const table = wordNeighbors();
    const wrong = lines.map((l) => l.split('\t')[0]!).filter((w, i) => table.rank(w) !== i || table.rank(`${w}0`) !== null);
    expect(wrong).toEqual([]);
  });

  it('a damaged table is refused with a clear error, and the loader falls back to no prior', () => {
    const good = fs.readFileSync(DEFAULT_TABLE());
    expect(() => parseTable(Buffer.from('nope'))).toThrow(WordTableError);
    expect(() => parseTable(good.subarray(0, good.length - 10))).toThrow(/truncated/);
    const file = path.join(tmpDir(), 'bad.bin');
    fs.writeFileSync(file, 'not a table');
    expect(wordNeighbors(file).of('huge')).toEqual([]);
  });
});

describe('soft matches', () => {
  const convs = [
    { key: 'slow', title: 'review page', entries: ['the review page is really slow with the big task', 'virtualized the list'] },
    { key: 'butter', title: 'croissant', entries: ['the pastry came out buttery', 'ok'] },
    ...filler(20),
  ];

  it('only for a word the history does not use, only to words it does', () => {
    const { db } = buildIndex(convs);
    const search = createSearch(db);
    const [sluggish] = parseQuery('sluggish');
    const alts = alternatesFor(search, sluggish!, 0, 100);
    expect(alts.map((a) => a.key)).toContainEqual(expect.stringMatching(/^slow/));
    expect(alts.every((a) => a.df >= 1 && a.similarity >= 0.65)).toBe(true);
    // "slow" is in the history: matched as itself only.
    expect(alternatesFor(search, parseQuery('slow')[0]!, 3, 100)).toEqual([]);
    db.close();
  });

  it('not for phrases, prefixes, quoted words, identifiers or the thousand commonest words', () => {
    const { db } = buildIndex(convs);
    const search = createSearch(db);
    for (const q of ['"sluggish"', 'slugg*', 'sluggish.page', 'v16', 'continue']) {
      expect(alternatesFor(search, parseQuery(q)[0]!, 0, 100)).toEqual([]);
    }
    db.close();
  });
});

describe('version siblings', () => {
  const convs = [
    { key: 'v15', title: 'release notes', daysAgo: 30, entries: ['rolled out v15 of the mobile client to the beta ring', 'staged rollout at 10 %'] },
    { key: 'v12', title: 'old release', daysAgo: 90, entries: ['shipped v12 with the new login', 'done'] },
    { key: 'v17', title: 'future', daysAgo: 5, entries: ['v17 plans: widgets', 'later'] },
    { key: 'node', title: 'runtime', daysAgo: 40, entries: ['moved the api to node20', 'ok'] },
    ...filler(20),
  ];

  it('a version the history never names stands in for its nearest named ones, earlier first on a tie', () => {
    const { db } = buildIndex(convs);
    const search = createSearch(db);
    const alts = versionSiblings(search, parseQuery('v16')[0]!, 0, 100);
    expect(alts.map((a) => [a.key, a.similarity])).toEqual([
      ['v15', 0.8],
      ['v17', 0.7],
    ]);
    // Only the same name: node20 is no sibling of v16; node18 finds node20.
    expect(versionSiblings(search, parseQuery('node18')[0]!, 0, 100).map((a) => a.key)).toEqual(['node20']);
    db.close();
  });

  it('none for a version the history names, for quoted words and for words without a number', () => {
    const { db } = buildIndex(convs);
    const search = createSearch(db);
    expect(versionSiblings(search, parseQuery('v15')[0]!, 1, 100)).toEqual([]);
    expect(versionSiblings(search, parseQuery('"v16"')[0]!, 0, 100)).toEqual([]);
    expect(versionSiblings(search, parseQuery('release')[0]!, 0, 100)).toEqual([]);
    db.close();
  });

  it('recall_conversations finds the conversation about the nearest version, and says so', () => {
    const { db, ids } = buildIndex(convs);
    const recall = createRecall(db);
    const r = recall.recall({ query: 'roll out v16 to the beta ring like last time', limit: 3 });
    expect(r.hits[0]?.id).toBe(ids.get('v15'));
    expect(r.hits[0]?.why).toMatch(/similar: v15 ≈ v16/);
    db.close();
  });
});

describe('a verb and its particle written as one word or two', () => {
  const convs = [
    { key: 'rollout', title: 'deploys', entries: ['the canary rollout of the ranker takes an hour', 'split it in two stages'] },
    { key: 'setup', title: 'tooling', entries: ['the lint setup runs ruff and black', 'ok'] },
    { key: 'login', title: 'auth', entries: ['we log in through Okta, then the session lasts a day', 'fine'] },
    ...filler(20),
  ];

  it('"roll out" also matches rollout, and setup or login match "set up" and "log in", where the history has them', () => {
    const { db } = buildIndex(convs);
    const search = createSearch(db);
    const [roll] = parseQuery('roll out the ranker');
    expect(roll?.particle).toBe('out');
    expect(compoundForms(search, roll!, 100).map((a) => [a.key, a.similarity])).toEqual([['rollout', 0.95]]);
    expect(compoundForms(search, parseQuery('login')[0]!, 100).map((a) => a.key)).toEqual(['log in']);
    // The history writes "setup" only, never "set up": no stand-in for the word it already has.
    expect(compoundForms(search, parseQuery('setup')[0]!, 100)).toEqual([]);
    expect(compoundForms(search, parseQuery('set up lint')[0]!, 100).map((a) => a.key)).toEqual(['setup']);
    db.close();
  });

  it('only a particle right after a plain word: not across punctuation, not quoted, not a prefix', () => {
    for (const q of ['roll, out', '"roll" out', 'roll* out', 'roll the thing out']) {
      expect(parseQuery(q)[0]?.particle, q).toBeUndefined();
    }
  });

  it('recall_conversations finds the rollout for "roll out", and says which spelling matched', () => {
    const { db, ids } = buildIndex(convs);
    const r = createRecall(db).recall({ query: 'how long does the ranker take to roll out', limit: 3 });
    expect(r.hits[0]?.id).toBe(ids.get('rollout'));
    expect(r.hits[0]?.why).toMatch(/rollout ≈ roll/);
    db.close();
  });
});
