// Throughline's default strategy: its pure parts by value, and its behaviour on an index.
import { describe, expect, it } from 'vitest';
import { baseScore, DEFAULT_PARAMS, evidenceOf, recency, selectDefault, termWeight } from '../../src/main/recall/default-score.js';
import type { FieldMatch } from '../../src/main/recall/evidence.js';
import { createRecall } from '../../src/main/recall/index.js';
import { buildIndex, filler, NOW } from './helpers.js';

const fm = (over: Partial<FieldMatch>): FieldMatch => ({ title: false, summary: false, transcript: true, entryHits: 1, entries: [], ...over });
const p = DEFAULT_PARAMS;

describe('default scoring', () => {
  it('term weight is ln(K / df) below K, zero from K on', () => {
    expect(termWeight(1, 75)).toBeCloseTo(Math.log(75), 12);
    expect(termWeight(25, 75)).toBeCloseTo(Math.log(3), 12);
    expect(termWeight(75, 75)).toBe(0);
    expect(termWeight(0, 75)).toBe(0);
  });

  it('evidence: field weights, and the most weight said together (one message or the title)', () => {
    const weights = new Map([['a', 4], ['b', 2], ['c', 1]]);
    const fields = new Map([
      ['a', fm({ title: true, entries: [1, 2] })],
      ['b', fm({ summary: true, entries: [2] })],
      ['c', fm({ entries: [3] })],
      ['zero', fm({ entries: [2] })],
    ]);
    const e = evidenceOf(fields, weights, p);
    expect(e.conversation).toBeCloseTo(4 * 1.5 + 2 * 1.25 + 1, 12);
    expect(e.together).toBe(6); // entry 2 holds a and b
    expect(e.matched).toEqual(['a (title)', 'b (summary)', 'c']);
    expect(baseScore(e, p)).toBeCloseTo(9.5 + 3, 12);
  });

  it('recency: the gate half-life toward 0.9', () => {
    expect(recency(0, 60, p)).toBe(1);
    expect(recency(60, 60, p)).toBeCloseTo(0.95, 12);
    expect(recency(120, 60, p)).toBeCloseTo(0.925, 12);
    expect(recency(null, 60, p)).toBe(0.9);
  });

  const s = (id: number, score: number) => ({ id, score, updatedAt: 0, signals: [] });
  it('admits a strong best, or one that stands out; lists others close to it', () => {
    expect(selectDefault([s(1, 14), s(2, 13.9), s(4, 10.6), s(3, 10.4)], p, 3).kept.map((x) => x.id)).toEqual([1, 2, 4]);
    // Not strong, but 3 above the mean of the next three.
    expect(selectDefault([s(1, 9), s(2, 6), s(3, 6), s(4, 6)], p, 3).kept.map((x) => x.id)).toEqual([1]);
    // Not strong and in a crowd: nothing.
    expect(selectDefault([s(1, 11), s(2, 10), s(3, 9), s(4, 8.5)], p, 3).kept).toEqual([]);
    // Under the standout floor: nothing, however alone.
    expect(selectDefault([s(1, 7.9)], p, 3).kept).toEqual([]);
    expect(selectDefault([s(1, 20), s(2, 15), s(3, 14.9)], p, 1).kept.map((x) => x.id)).toEqual([1]);
  });
});

describe('default strategy on an index', () => {
  const now = new Date(NOW).toISOString();
  const convs = [
    {
      key: 'target',
      workspace: '/w/pay',
      title: 'TestRefundWebhook_Retry flakes on CI',
      daysAgo: 40,
      entries: ['TestRefundWebhook_Retry flakes on CI at webhook_test.go:212', 'the retry uses a real clock; switch the notifier to the fake clock'],
    },
    { key: 'near', workspace: '/w/pay', title: 'notifier backoff', daysAgo: 10, entries: ['notifier backoff tuning', 'done'] },
    ...filler(150),
  ];

  it('finds the conversation a message refers to by its identifiers', () => {
    const { db, ids } = buildIndex(convs);
    const r = createRecall(db).suggest({ text: 'TestRefundWebhook_Retry is flaking again (webhook_test.go:212), fake clock?', workspace: '/w/pay', scope: 'everywhere', now });
    expect(r.suggestions.map((x) => x.id)).toEqual([ids.get('target')]);
    expect(r.suggestions[0]!.signals.map((x) => x.name)).toEqual(['terms', 'together', 'workspace', 'recency']);
    expect(r.block).toContain(`id ${ids.get('target')}`);
    db.close();
  });

  it('stays clean for new work in everyday words', () => {
    const { db } = buildIndex(convs);
    const r = createRecall(db).suggest({ text: 'please update the build config and review the tests', workspace: '/w/pay', scope: 'everywhere', now });
    expect(r.suggestions).toEqual([]);
    expect(r.block).toBe('');
    db.close();
  });
});
