// The `signals` strategy: suggested-context-personal-agent.md's scorer, by value.
import { describe, expect, it } from 'vitest';
import { scoreSignals, selectSignals } from '../../src/main/recall/signals.js';
import { createRecall } from '../../src/main/recall/index.js';
import { buildIndex, DAY, NOW } from './helpers.js';

const base = { titleTerms: [], summaryTerms: [], transcriptTerms: [], sameWorkspace: false, ageDays: 100 };

describe('scoreSignals', () => {
  it('title +5 per term capped at 12', () => {
    expect(scoreSignals({ ...base, titleTerms: ['a'] }).score).toBe(5);
    expect(scoreSignals({ ...base, titleTerms: ['a', 'b'] }).score).toBe(10);
    expect(scoreSignals({ ...base, titleTerms: ['a', 'b', 'c'] }).score).toBe(12);
    expect(scoreSignals({ ...base, titleTerms: ['a', 'b', 'c', 'd'] }).score).toBe(12);
  });

  it('summary +2 per term capped at 8; transcript +1 per term capped at 6; same workspace +3', () => {
    expect(scoreSignals({ ...base, summaryTerms: ['a', 'b', 'c'] }).score).toBe(6);
    expect(scoreSignals({ ...base, summaryTerms: ['a', 'b', 'c', 'd', 'e'] }).score).toBe(8);
    expect(scoreSignals({ ...base, transcriptTerms: ['a', 'b', 'c', 'd', 'e'] }).score).toBe(5);
    expect(scoreSignals({ ...base, transcriptTerms: ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'] }).score).toBe(6);
    expect(scoreSignals({ ...base, sameWorkspace: true }).score).toBe(3);
  });

  it('recent < 7 days +2, < 30 days +1, else nothing (not cumulative)', () => {
    expect(scoreSignals({ ...base, ageDays: 0 }).score).toBe(2);
    expect(scoreSignals({ ...base, ageDays: 6.99 }).score).toBe(2);
    expect(scoreSignals({ ...base, ageDays: 7 }).score).toBe(1);
    expect(scoreSignals({ ...base, ageDays: 29.9 }).score).toBe(1);
    expect(scoreSignals({ ...base, ageDays: 30 }).score).toBe(0);
    expect(scoreSignals({ ...base, ageDays: null }).score).toBe(0);
  });

  it('reports every signal with its points and terms', () => {
    const r = scoreSignals({ titleTerms: ['retry'], summaryTerms: ['retry', 'clock'], transcriptTerms: ['retry', 'clock', 'fake'], sameWorkspace: true, ageDays: 3 });
    expect(r).toEqual({
      score: 5 + 3 + 4 + 3 + 2,
      signals: [
        { name: 'title', points: 5, detail: 'retry' },
        { name: 'workspace', points: 3 },
        { name: 'summary', points: 4, detail: 'retry, clock' },
        { name: 'transcript', points: 3, detail: 'retry, clock, fake' },
        { name: 'recent', points: 2, detail: '3d' },
      ],
    });
  });
});

describe('selectSignals', () => {
  const r = (id: number, score: number, updatedAt: number) => ({ id, score, updatedAt, signals: [] });
  it('minimum 6, at most 5, by score then most recent', () => {
    const out = selectSignals([r(1, 5.99, 9), r(2, 6, 1), r(3, 9, 1), r(4, 9, 5), r(5, 7, 1), r(6, 8, 1), r(7, 12, 1), r(8, 6, 2)]);
    expect(out.map((x) => x.id)).toEqual([7, 4, 3, 6, 5]);
    expect(selectSignals([r(1, 6, 1), r(2, 6, 3)]).map((x) => x.id)).toEqual([2, 1]);
  });
});

describe('signals strategy on an index', () => {
  it('scores exactly as the seed says, and leaves out what is under 6', () => {
    const { db, ids } = buildIndex([
      { key: 'a', workspace: '/w/pay', title: 'webhook retry flakes', summary: 'fake clock for the webhook retry', daysAgo: 2, entries: ['the webhook retry test flakes', 'use a fake clock'] },
      { key: 'b', workspace: '/w/other', title: 'unrelated', daysAgo: 10, entries: ['webhook docs', 'ok'] },
      // 'retry' in a middle message: not in the summary derived from the first request and the outcome.
      { key: 'c', workspace: '/w/pay', title: 'old', daysAgo: 300, entries: ['which budget?', 'the retry budget', 'ok', 'fine'] },
    ]);
    const recall = createRecall(db);
    const r = recall.suggest({ text: 'webhook retry flakes with the fake clock', workspace: '/w/pay', scope: 'everywhere', strategy: 'signals', now: new Date(NOW).toISOString() });
    expect(r.suggestions.map((s) => [s.id, s.score])).toEqual([[ids.get('a'), 12 + 3 + 8 + 5 + 2]]);
    expect(r.suggestions[0]!.signals.map((s) => s.name)).toEqual(['title', 'workspace', 'summary', 'transcript', 'recent']);
    // b: transcript 1 + recent 1 = 2; c: workspace 3 + transcript 1 = 4 — both under the minimum.
    expect(r.reason).toMatch(/1 conversation/);
    expect(NOW - r.suggestions[0]!.updatedAt!).toBe(2 * DAY);
    db.close();
  });

  // The seed: "Title match: +5 per matched term", "Transcript search index match: +1 per matched term",
  // "Auto-surfaced candidates need to clear a minimum score of 6".
  it('a title-only match scores the title +5 alone, and is not listed', () => {
    const { db, ids } = buildIndex([
      { key: 'title-only', workspace: '/w/a', title: 'quokka importer', daysAgo: 200, entries: ['parse the csv', 'done'] },
      { key: 'both', workspace: '/w/b', title: 'wombat importer', daysAgo: 200, entries: ['the wombat rows', 'done'] },
    ]);
    const recall = createRecall(db);
    const at = new Date(NOW).toISOString();
    const quokka = recall.suggest({ text: 'quokka', workspace: '/w/z', scope: 'everywhere', strategy: 'signals', now: at });
    expect(quokka.suggestions).toEqual([]);
    expect(quokka.reason).toBe('no conversation reached the minimum score 6 (best 5)');
    // Found in the title and in the transcript (its first request, so in the summary derived from it
    // too): 5 + 2 + 1 = 8, listed.
    const wombat = recall.suggest({ text: 'wombat', workspace: '/w/z', scope: 'everywhere', strategy: 'signals', now: at });
    expect(wombat.suggestions.map((s) => [s.id, s.score])).toEqual([[ids.get('both'), 8]]);
    expect(wombat.suggestions[0]!.signals).toEqual([
      { name: 'title', points: 5, detail: 'wombat' },
      { name: 'summary', points: 2, detail: 'wombat' },
      { name: 'transcript', points: 1, detail: 'wombat' },
    ]);
    db.close();
  });

  // The seed: "The list is capped at 5 pointers, sorted by score, then by most recent activity."
  it('lists at most 5 before the token budget, and the block says when the budget cut some', () => {
    const convs = Array.from({ length: 7 }, (_, i) => ({
      key: `n${i}`,
      title: `numbat migration ${i} of the shared ledger service across every regional cluster and its replicas`,
      workspace: '/home/someone/projects/ledger-service/packages/migrations',
      daysAgo: 2 + i,
      entries: ['the numbat migration runs', 'ok'],
    }));
    const { db } = buildIndex(convs);
    const recall = createRecall(db);
    const ask = (sensitivity: 'focused' | 'broad') =>
      recall.suggest({ text: 'numbat migration', scope: 'everywhere', strategy: 'signals', sensitivity, now: new Date(NOW).toISOString() });
    const broad = ask('broad');
    expect(broad.suggestions.map((s) => s.title.split(' of ')[0])).toEqual([0, 1, 2, 3, 4].map((i) => `numbat migration ${i}`));
    expect(broad.block).not.toMatch(/left out/);
    const focused = ask('focused');
    expect(focused.suggestions.length).toBeGreaterThan(0);
    expect(focused.suggestions.length).toBeLessThan(5);
    const cut = 5 - focused.suggestions.length;
    expect(focused.block).toContain(`\n${cut} more ${cut === 1 ? 'was' : 'were'} left out to stay within the token budget.\n</recalled-conversations>`);
    expect(Math.ceil(focused.block.length / 4)).toBeLessThanOrEqual(250);
    db.close();
  });
});
