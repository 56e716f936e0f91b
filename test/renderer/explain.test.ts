// Compose's signals in a person's words, from what the recall engine (src/main/recall/default.ts)
// actually writes; and one rule for a conversation's age wherever the window shows it.
import { describe, expect, it } from 'vitest';
import { signalsOf, type Candidate } from '../../src/main/recall/default.js';
import { readCues } from '../../src/main/recall/cues.js';
import { signalInWords } from '../../src/renderer/src/lib/explain.js';
import { ageInWords, formatRelative } from '../../src/renderer/src/lib/format.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** 09:00 local time on a fixed day, so "yesterday evening" is less than 24 hours before. */
const NOW = new Date(2026, 10, 18, 9, 0, 0).getTime();

function candidate(overrides: Partial<Candidate> = {}): Candidate {
  return {
    id: 7,
    score: 10,
    bestMessage: 6,
    conversation: 4,
    coverage: 1,
    bestEntry: null,
    allTerms: false,
    matches: [
      { term: 'limiter', via: 'throttling', similarity: 0.8, field: 'messages', weight: 2 },
      { term: 'proxy', via: 'proxy', similarity: 1, field: 'messages', weight: 3 },
    ],
    final: 12,
    prior: { factor: 1.2, workspace: 1.2, named: false, period: 1, recency: 0.9, age: 0 },
    updatedAt: NOW - 14 * HOUR,
    ...overrides,
  };
}

describe('signals in words', () => {
  const yesterdayEvening = { updatedAt: NOW - 14 * HOUR };

  it('says a close meaning as the two words, with no ≈', () => {
    const signals = signalsOf(candidate(), readCues('the limiter behind the proxy', NOW), NOW);
    const similar = signals.find((s) => s.name === 'similar')!;
    expect(similar.detail).toBe('throttling ≈ limiter');
    expect(signalInWords(similar, yesterdayEvening, NOW)).toBe('Close in meaning: throttling (you wrote limiter)');
    expect(signalInWords({ name: 'similar', points: 1, detail: 'a ≈ b, c ≈ d' }, yesterdayEvening, NOW)).toBe('Close in meaning: a (you wrote b), c (you wrote d)');
    // Something the engine may write one day that is not pairs: still words, never the raw symbol.
    expect(signalInWords({ name: 'similar', points: 1, detail: 'odd' }, yesterdayEvening, NOW)).toBe('Uses words close in meaning to yours');
  });

  it('says the age by the calendar, as the card’s date and the pointer block do', () => {
    const signals = signalsOf(candidate(), readCues('the limiter behind the proxy', NOW), NOW);
    const recency = signals.find((s) => s.name === 'recency')!;
    // 14 hours before 09:00 is yesterday evening: the card, the signal and the engine's own text
    // (what the pointer block tells the agent) all say so; a count of 24-hour periods said "today".
    expect(recency.detail).toBe('yesterday');
    expect(formatRelative(yesterdayEvening.updatedAt, NOW)).toBe('Yesterday');
    expect(ageInWords(yesterdayEvening.updatedAt, NOW)).toBe('yesterday');
    expect(signalInWords(recency, yesterdayEvening, NOW)).toBe('Last active yesterday');
    expect(signalInWords(recency, { updatedAt: null }, NOW)).toBe('Last active at an unknown date');
  });

  it('says a named period and the workspace plainly', () => {
    const cues = readCues('the proxy limiter from yesterday', NOW);
    const signals = signalsOf(candidate({ prior: { factor: 1.8, workspace: 1.2, named: false, period: 1.5, recency: 1, age: 0 } }), cues, NOW);
    const words = signals.map((s) => signalInWords(s, yesterdayEvening, NOW));
    expect(words).toContain('Same workspace');
    expect(words).toContain('Active in the time you named: yesterday');
    for (const w of words) expect(w).not.toMatch(/≈|×|≥|\d\.\d|\(s\)/);
    // A project the message names by its folder, not the one it is typed in.
    const named = signalsOf(candidate({ prior: { factor: 1.2, workspace: 1.2, named: true, period: 1, recency: 1, age: 0 } }), cues, NOW);
    expect(named.map((s) => signalInWords(s, yesterdayEvening, NOW))).toContain('In the project your message names');
  });
});

describe('a conversation’s age', () => {
  it('counts calendar days by the local clock, in the list and in sentences alike', () => {
    const cases: [number, string, string][] = [
      [NOW - HOUR, '', 'today'],
      [NOW - 10 * HOUR, 'Yesterday', 'yesterday'],
      [NOW - 40 * HOUR, '2 days ago', '2 days ago'],
      [NOW - 6 * DAY, '6 days ago', '6 days ago'],
    ];
    for (const [at, listed, said] of cases) {
      if (listed) expect(formatRelative(at, NOW)).toBe(listed);
      expect(ageInWords(at, NOW)).toBe(said);
    }
    expect(ageInWords(NOW - 30 * DAY, NOW)).toMatch(/^on \w/);
  });
});
