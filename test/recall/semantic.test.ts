// The semantic layer: the shipped word table, and soft matches gated by the person's own corpus.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createSearch } from '../../src/main/store/search.js';
import { alternatesFor } from '../../src/main/recall/semantic.js';
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
