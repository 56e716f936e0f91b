// Throughline's default strategy: its pure parts by value, and its behaviour on an index.
import { describe, expect, it } from 'vitest';
import { coverageBar, DEFAULT_PARAMS, guessesFor, priorOf, selectSuggestions, signalsOf, type Candidate } from '../../src/main/recall/default.js';
import { readCues } from '../../src/main/recall/cues.js';
import { createRecall } from '../../src/main/recall/index.js';
import { buildIndex, DAY, filler, NOW } from './helpers.js';

const p = DEFAULT_PARAMS;
const plain = readCues('add retries to the payout client', NOW);
const back = readCues('the flaky payout test is failing again', NOW);

function cand(id: number, final: number, coverage: number): Candidate {
  return {
    id,
    final,
    score: final,
    coverage,
    bestMessage: 0,
    conversation: final,
    matches: [],
    bestEntry: null,
    allTerms: false,
    updatedAt: 0,
    prior: { factor: 1, workspace: 1, named: false, period: 1, recency: 1, age: 0 },
  };
}

describe('default scoring', () => {
  it('the coverage bar moves with the sensitivity and drops for a message that points back', () => {
    expect(coverageBar('balanced', plain, p)).toBe(0.65);
    expect(coverageBar('focused', plain, p)).toBe(0.75);
    expect(coverageBar('broad', plain, p)).toBe(0.55);
    expect(coverageBar('balanced', back, p)).toBeCloseTo(0.5, 12);
  });

  it('admits what covers enough of the message, or half of it while standing out from the tenth', () => {
    const background = Array.from({ length: 10 }, (_, i) => cand(100 + i, 4, 0.2));
    // 0.7 ≥ 0.65 on its own.
    expect(selectSuggestions([cand(1, 10, 0.7), ...background], 0.65, p, 3).kept.map((c) => c.id)).toEqual([1]);
    // 0.55 is partial (≥ 0.5): admitted at 2.5 × the tenth's score (4), not below it.
    expect(selectSuggestions([cand(1, 10, 0.55), ...background], 0.65, p, 3).kept.map((c) => c.id)).toEqual([1]);
    expect(selectSuggestions([cand(1, 9.9, 0.55), ...background], 0.65, p, 3).kept).toEqual([]);
    // Under half: never, however far ahead.
    const none = selectSuggestions([cand(1, 100, 0.45), ...background], 0.65, p, 3);
    expect(none.kept).toEqual([]);
    expect(none.reason).toBe('Nothing suggested: no earlier conversation covers enough of this message.');
    expect(none.detail).toBe('best coverage 45 % of the message; 65 % needed');
  });

  it('lists others only close to the first admitted, at most maxHits, from the best five', () => {
    const ranked = [cand(1, 20, 0.9), cand(2, 16, 0.8), cand(3, 14, 0.9), cand(4, 13, 0.3), cand(5, 12, 0.7), cand(6, 11.9, 0.9)];
    const r = selectSuggestions(ranked, 0.65, p, 3);
    // 3 is below 0.75 × 20; 4 covers too little; 6 is outside the best five.
    expect(r.kept.map((c) => c.id)).toEqual([1, 2]);
    expect(r.reason).toBe('2 earlier conversations cover most of this message.');
    expect(selectSuggestions(ranked, 0.65, p, 1).kept.map((c) => c.id)).toEqual([1]);
  });

  it('a short message that points back gets its best match whatever its coverage: the best two when it asks what was done', () => {
    const asks = readCues('how did we keep the backfill cheap?', NOW);
    expect([guessesFor('balanced', plain, p, 3), guessesFor('balanced', back, p, 3), guessesFor('broad', asks, p, 3), guessesFor('focused', asks, p, 3)]).toEqual([0, 1, 2, 0]);
    // A long message that points back has words enough to be judged by; a question still guesses.
    expect([guessesFor('balanced', back, p, p.shortMessage), guessesFor('balanced', back, p, p.shortMessage + 1), guessesFor('balanced', asks, p, 20)]).toEqual([1, 0, 2]);
    const ranked = [cand(1, 20, 0.2), cand(2, 18, 0.1), cand(3, 17, 0.1), cand(4, 10, 0.3)];
    expect(selectSuggestions(ranked, 0.5, p, 3, 0).kept).toEqual([]);
    const one = selectSuggestions(ranked, 0.5, p, 3, 1);
    expect(one.kept.map((c) => c.id)).toEqual([1]);
    expect(one.reason).toBe('The message points back at earlier work; this is the closest match, though it shares few of its words.');
    // The second is close to the best (18 ≥ 0.75 × 20); the third is not a guess, and a guess far
    // below the best is not shown.
    expect(selectSuggestions(ranked, 0.5, p, 3, 2).kept.map((c) => c.id)).toEqual([1, 2]);
    expect(selectSuggestions([cand(1, 20, 0.2), cand(2, 14, 0.2)], 0.5, p, 3, 2).kept.map((c) => c.id)).toEqual([1]);
  });

  it('priors: same workspace ×1.2, recency toward 0.8, a named period ×1.5; stronger when pointing back', () => {
    const ctx = { workspace: '/w/pay', now: NOW, halfLifeDays: 60 };
    const row = { workspace: '/w/pay/', created_at: NOW - 70 * DAY, updated_at: NOW - 60 * DAY };
    const a = priorOf(row, ctx, plain, p);
    expect(a).toMatchObject({ workspace: 1.2, named: false, period: 1, age: 60 });
    expect(a.recency).toBeCloseTo(0.9, 12);
    expect(a.factor).toBeCloseTo(1.08, 12);
    const b = priorOf(row, ctx, back, p);
    expect(b.workspace).toBe(1.5);
    expect(b.recency).toBeCloseTo(0.5 + 0.5 * 0.25, 12); // half the half-life, floor 0.5
    const september = readCues('the reconciliation stuff from september', Date.parse('2026-11-29T12:00:00Z'));
    const inSept = { workspace: null, created_at: Date.parse('2026-09-10T00:00:00Z'), updated_at: Date.parse('2026-09-12T00:00:00Z') };
    expect(priorOf(inSept, ctx, september, p).period).toBe(1.5);
    expect(priorOf({ ...inSept, updated_at: Date.parse('2026-08-30T00:00:00Z'), created_at: Date.parse('2026-08-29T00:00:00Z') }, ctx, september, p).period).toBe(1);
  });

  it('signals add up to the score and name soft matches as "similar: x ≈ y"', () => {
    const c = cand(1, 0, 0.8);
    c.score = 10;
    c.matches = [
      { term: 'payout', via: 'payout', similarity: 1, field: 'title', weight: 3 },
      { term: 'sluggish', via: 'slow', similarity: 0.8, field: 'messages', weight: 1 },
    ];
    c.prior = { factor: 1.2 * 0.9, workspace: 1.2, named: false, period: 1, recency: 0.9, age: 60 };
    c.final = 10 * 1.08;
    c.updatedAt = NOW - 60 * DAY;
    const s = signalsOf(c, plain, NOW);
    expect(s.map((x) => x.name)).toEqual(['terms', 'similar', 'workspace', 'recency']);
    expect(s[0]).toMatchObject({ detail: 'payout (title)', points: 7.5 });
    expect(s[1]).toMatchObject({ detail: 'slow ≈ sluggish', points: 2.5 });
    expect(s[2]).toMatchObject({ detail: 'same workspace', points: 2 });
    expect(s[3]).toMatchObject({ detail: '60 days ago', points: -1.2 });
    expect(s.reduce((sum, x) => sum + x.points, 0)).toBeCloseTo(c.final, 6);
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
    { key: 'slow', workspace: '/w/ui', title: 'review page', daysAgo: 20, entries: ['the review page is really slow with the big task', 'virtualized the list'] },
    ...filler(150),
  ];

  it('finds the conversation a message refers to by its identifiers, and explains it', () => {
    const { db, ids } = buildIndex(convs);
    const r = createRecall(db).suggest({ text: 'TestRefundWebhook_Retry is flaking again (webhook_test.go:212), fake clock?', workspace: '/w/pay', scope: 'everywhere', now });
    expect(r.suggestions.map((x) => x.id)).toEqual([ids.get('target')]);
    expect(r.suggestions[0]!.signals.map((x) => x.name)).toEqual(['terms', 'workspace', 'recency']);
    expect(r.reason).toBe('One earlier conversation covers most of this message.');
    expect(r.detail).toMatch(/^coverage \d+ %; 50 % needed$/);
    expect(r.block).toContain(`id ${ids.get('target')}`);
    db.close();
  });

  it('a pasted log line, a stack trace or a greeting does not hide the conversation the message refers to', () => {
    const { db, ids } = buildIndex(convs);
    const recall = createRecall(db);
    const said = 'TestRefundWebhook_Retry is flaking with the fake clock';
    const pasted = [
      said,
      '2026-11-29T10:22:01.123Z ERROR ci-runner-4 job=7f3e9a2c41 pid=48213 exit 1',
      '    at Object.<anonymous> (/home/ci/build/pkg/notifier/webhook_test.go:212:9)',
      '    at runTicksAndYield (/home/ci/build/pkg/harness/loop.go:95:5)',
      // Words the history knows from elsewhere, printed by this run only.
      '[WARN] backoff tuning virtualized review page slow',
    ].join('\n');
    const greeted = `hi! quick question, sorry if it's obvious: ${said}`;
    for (const text of [said, pasted, greeted]) {
      const r = recall.suggest({ text, workspace: '/w/pay', scope: 'everywhere', now });
      expect(r.suggestions.map((x) => x.id), text).toEqual([ids.get('target')]);
    }
    // The distinctive words Compose shows (and opens the list with) are the person's, not the log's.
    const words = recall.suggest({ text: pasted, workspace: '/w/pay', scope: 'everywhere', now }).salientTerms ?? [];
    expect(words).toEqual(expect.arrayContaining(['fake', 'clock']));
    expect(words.filter((w) => /backoff|virtualized|review|slow/.test(w))).toEqual([]);
    // New work with the same log still stays quiet: its own new words count as before.
    const fresh = pasted.replace(said, 'write a zorblaxFetcher quuxolDriver adapter');
    expect(recall.suggest({ text: fresh, workspace: '/w/pay', scope: 'everywhere', now }).suggestions).toEqual([]);
    db.close();
  });

  it('stays clean for new work in everyday words', () => {
    const { db } = buildIndex(convs);
    const r = createRecall(db).suggest({ text: 'please update the build config and review the tests', workspace: '/w/pay', scope: 'everywhere', now });
    expect(r.suggestions).toEqual([]);
    expect(r.block).toBe('');
    expect(r.reason).toMatch(/^Nothing suggested/);
    db.close();
  });

  it('scores nothing when the words the history contains could not cover enough, and says what could', () => {
    const { db } = buildIndex(convs);
    // "retry" and "webhook" are known; the two invented names are most of the message's information.
    const r = createRecall(db).suggest({ text: 'add a retry to zorblaxFetcher and quuxolDriver', workspace: '/w/pay', scope: 'everywhere', now });
    expect(r.suggestions).toEqual([]);
    expect(r.reason).toBe('Nothing suggested: no earlier conversation covers enough of this message.');
    expect(r.detail).toMatch(/^best coverage at most \d+ % of the message; 65 % needed$/);
    const [, ceiling] = /at most (\d+) %/.exec(r.detail!)!;
    expect(Number(ceiling)).toBeLessThan(50);
    db.close();
  });

  it('offers the closest earlier conversation to a question about what was done, though it shares few words', () => {
    const { db, ids } = buildIndex(convs);
    const text = 'the moderators say the approval screen crawls on large batches, how did we speed up the review list?';
    const r = createRecall(db).suggest({ text, workspace: '/w/ui', scope: 'everywhere', now });
    expect(r.suggestions.map((x) => x.id)).toEqual([ids.get('slow')]);
    expect(r.reason).toMatch(/^The message points back at earlier work/);
    // The same words without the question are new work: nothing.
    const plainText = 'the moderators say the approval screen crawls on large batches, speed up the review list';
    expect(createRecall(db).suggest({ text: plainText, workspace: '/w/ui', scope: 'everywhere', now }).suggestions).toEqual([]);
    db.close();
  });

  it('matches a word the history never uses through its meaning, and says so', () => {
    const { db, ids } = buildIndex(convs);
    const r = createRecall(db).recall({ query: 'the review page is sluggish', limit: 3 });
    expect(r.hits[0]!.id).toBe(ids.get('slow'));
    expect(r.hits[0]!.why).toMatch(/similar: slow\w* ≈ sluggish/);
    db.close();
  });
});
