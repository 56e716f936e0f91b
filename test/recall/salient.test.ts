// The `salient` strategy (personal-recall-plugin.md) and the presets/pins, by value.
import { describe, expect, it } from 'vitest';
import { PRESETS, resolveGate } from '../../src/main/recall/presets.js';
import { admitted, recencyFactor, RECENCY_FLOOR, rrfFuse, salientTerms } from '../../src/main/recall/salient.js';
import { createRecall } from '../../src/main/recall/index.js';
import type { ClauseInfo } from '../../src/main/recall/evidence.js';
import { buildIndex, filler, NOW } from './helpers.js';

describe('presets and pins', () => {
  it('Focused / Balanced / Broad rows', () => {
    expect(PRESETS.focused).toEqual({ dfCeiling: 10, rareDf: 2, maxHits: 2, tokenBudget: 250, halfLifeDays: 60 });
    expect(PRESETS.balanced).toEqual({ dfCeiling: 25, rareDf: 3, maxHits: 3, tokenBudget: 400, halfLifeDays: 60 });
    expect(PRESETS.broad).toEqual({ dfCeiling: 60, rareDf: 5, maxHits: 5, tokenBudget: 700, halfLifeDays: 60 });
  });

  it('resolves shipped preset ← operator ← user, one parameter at a time', () => {
    expect(resolveGate('broad')).toEqual(PRESETS.broad);
    const op = { dfCeiling: 40, maxHits: 4 };
    expect(resolveGate('focused', op)).toEqual({ ...PRESETS.focused, dfCeiling: 40, maxHits: 4 });
    expect(resolveGate('focused', op, { maxHits: 1, halfLifeDays: 30 })).toEqual({ ...PRESETS.focused, dfCeiling: 40, maxHits: 1, halfLifeDays: 30 });
    // An unpinned parameter still follows the user's sensitivity.
    expect(resolveGate('broad', op).rareDf).toBe(5);
    expect(resolveGate('focused', op).rareDf).toBe(2);
  });
});

const info = (key: string, df: number): ClauseInfo => ({ key, df, identifier: false, clause: { tokens: [key], prefix: false, quoted: false, source: key } });

describe('salient gate', () => {
  it('salient terms: df ≥ 1 and ≤ the ceiling', () => {
    const infos = [info('absent', 0), info('rare', 1), info('edge', 25), info('common', 26)];
    expect(salientTerms(infos, { dfCeiling: 25 }).map((i) => i.key)).toEqual(['rare', 'edge']);
  });

  it('fuses probes by reciprocal rank (k = 60)', () => {
    const f = rrfFuse([
      { key: 'x', ids: [10, 20, 30] },
      { key: 'y', ids: [20, 40] },
    ]);
    expect(f.get(20)!.score).toBeCloseTo(1 / 62 + 1 / 61, 12);
    expect(f.get(10)!.score).toBeCloseTo(1 / 61, 12);
    expect(f.get(40)!.terms).toEqual([{ key: 'y', rank: 2 }]);
    // Two independent probes outrank one, even a first place.
    expect(f.get(20)!.score).toBeGreaterThan(f.get(10)!.score);
  });

  it('a lone-term hit is admitted only when its df ≤ rare_df; two terms always', () => {
    const dfOf = new Map([['rare', 3], ['less', 4]]);
    expect(admitted({ id: 1, score: 1, terms: [{ key: 'rare', rank: 1 }] }, dfOf, 3)).toBe(true);
    expect(admitted({ id: 1, score: 1, terms: [{ key: 'less', rank: 1 }] }, dfOf, 3)).toBe(false);
    expect(admitted({ id: 1, score: 1, terms: [{ key: 'less', rank: 1 }, { key: 'rare', rank: 9 }] }, dfOf, 3)).toBe(true);
  });

  it('recency: 60-day half-life toward the floor', () => {
    expect(recencyFactor(0, 60)).toBe(1);
    expect(recencyFactor(60, 60)).toBeCloseTo(RECENCY_FLOOR + (1 - RECENCY_FLOOR) / 2, 12);
    expect(recencyFactor(120, 60)).toBeCloseTo(RECENCY_FLOOR + (1 - RECENCY_FLOOR) / 4, 12);
    expect(recencyFactor(100_000, 60)).toBeCloseTo(RECENCY_FLOOR, 9);
    expect(recencyFactor(null, 60)).toBe(RECENCY_FLOOR);
  });
});

describe('salient strategy on an index', () => {
  const now = new Date(NOW).toISOString();
  const convs = [
    { key: 'both', daysAgo: 1, entries: ['zephyrine and quokkalith together', 'yes'] },
    { key: 'one', daysAgo: 1, entries: ['only quokkalith here', 'ok'] },
    { key: 'one2', daysAgo: 1, entries: ['quokkalith again', 'ok'] },
    { key: 'one3', daysAgo: 1, entries: ['quokkalith thrice', 'ok'] },
    { key: 'one4', daysAgo: 1, entries: ['quokkalith four', 'ok'] },
    { key: 'z', daysAgo: 1, entries: ['zephyrine alone', 'ok'] },
    ...filler(150),
  ];

  it('no salient term → nothing (every term absent or too common)', () => {
    const { db } = buildIndex(convs);
    const r = createRecall(db).suggest({ text: 'update the config and tests', strategy: 'salient', scope: 'everywhere', now });
    expect(r.suggestions).toEqual([]);
    expect(r.reason).toMatch(/no salient term/);
    db.close();
  });

  it('corroborated conversations first; lone hits only for terms with df ≤ rare_df', () => {
    const { db, ids } = buildIndex(convs);
    const recall = createRecall(db);
    // quokkalith: df 5 (> rare_df 3); zephyrine: df 2 (≤ 3).
    const r = recall.suggest({ text: 'zephyrine quokkalith', strategy: 'salient', scope: 'everywhere', now });
    expect(r.salientTerms).toEqual(['zephyrine', 'quokkalith']);
    expect(r.suggestions.map((s) => s.id)).toEqual([ids.get('both'), ids.get('z')]);
    // Alone, quokkalith (df 5) admits nothing; with Broad (rare_df 5) it does.
    expect(recall.suggest({ text: 'quokkalith', strategy: 'salient', scope: 'everywhere', now }).suggestions).toEqual([]);
    const broad = recall.suggest({ text: 'quokkalith', strategy: 'salient', sensitivity: 'broad', scope: 'everywhere', now });
    expect(broad.suggestions.length).toBe(5);
    db.close();
  });
});
