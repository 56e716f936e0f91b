// Accents fold the same way on both sides: the query's tokens (terms.ts normalizeToken) and the index's
// (SQLite's unicode61 remove_diacritics 2). Before, the query side folded through Unicode NFD, which
// also strips й → и, ё → е or ά → α, which SQLite keeps: such a word could never be found.
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { normalizeToken } from '../../src/main/recall/terms.js';
import { FOLD_TABLE_FILE, foldTableSource, sqliteFolds, tokenChars } from '../../scripts/gen-fold-table.mjs';
import { buildIndex } from './helpers.js';
import { createRecall } from '../../src/main/recall/index.js';

describe('accent folding', () => {
  it('folds every character as SQLite does (run scripts/gen-fold-table.mjs when SQLite changes)', () => {
    // Every character that has a case, a decomposition or is a mark: all that any fold could touch
    // (the generator asks SQLite about every character; asking about these ~20,000 here is quick).
    const chars = tokenChars().filter((c) => c.toLowerCase() !== c || c.toUpperCase() !== c || c.normalize('NFKD') !== c || /\p{M}/u.test(c));
    const folds = sqliteFolds(chars);
    const wrong: string[] = [];
    chars.forEach((ch, i) => {
      const f = folds[i];
      // null: SQLite splits the token at this character (Unicode 6.1 tables), a known difference
      // that MATCH does not feel, since FTS5 re-tokenizes every query string itself.
      if (f === null) return;
      if (normalizeToken(`a${ch}a`) !== `a${f}a`) wrong.push(`U+${ch.codePointAt(0)!.toString(16)} ${ch}: ours ${normalizeToken(ch)}, SQLite ${f}`);
    });
    expect(chars.length).toBeGreaterThan(10_000);
    expect(wrong.slice(0, 20)).toEqual([]);
    // Every character the table holds is among these, so the generator writes the same file from them:
    // the committed table is the generator's (KEEP beside FROM/TO, no run written twice).
    expect(fs.readFileSync(FOLD_TABLE_FILE, 'utf8')).toBe(foldTableSource(chars, folds));
  });

  it('finds a word whatever its accents, on either side, and keeps letters SQLite keeps', () => {
    const { db } = buildIndex([
      { key: 'fr', title: 'Le café du coin', entries: ['réservation au café pour naïve Zoë'] },
      { key: 'plain', title: 'Cafe without accents', entries: ['a cafe reservation for naive Zoe'] },
      { key: 'ru', title: 'Релиз в мае', entries: ['выпуск назначен на май, ёлка уже стоит'] },
      { key: 'el', title: 'Ταξίδι στην Αθήνα', entries: ['η ώρα της πτήσης για την Αθήνα'] },
      { key: 'nfd', title: 'Decomposed', entries: ['cre\u0300me bru\u0302le\u0301e'] },
    ]);
    const recall = createRecall(db);
    const titles = (query: string) => recall.recall({ query, workspace: 'all' }).hits.map((h) => h.title).sort();
    expect(titles('café')).toEqual(['Cafe without accents', 'Le café du coin']);
    expect(titles('cafe')).toEqual(['Cafe without accents', 'Le café du coin']);
    expect(titles('NAÏVE ZOË')).toEqual(['Cafe without accents', 'Le café du coin']);
    expect(titles('май')).toEqual(['Релиз в мае']);
    expect(titles('ёлка')).toEqual(['Релиз в мае']);
    expect(titles('ώρα')).toEqual(['Ταξίδι στην Αθήνα']);
    expect(titles('Αθήνα')).toEqual(['Ταξίδι στην Αθήνα']);
    expect(titles('crème brûlée')).toEqual(['Decomposed']);
    db.close();
  });
});
