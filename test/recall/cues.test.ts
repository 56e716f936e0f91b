// Cues a message gives besides its subject: pointing back, and naming a period.
import { describe, expect, it } from 'vitest';
import { activeIn, readCues } from '../../src/main/recall/cues.js';

const NOW = Date.parse('2026-11-29T12:00:00Z'); // a Sunday
const at = (iso: string) => Date.parse(iso);

describe('back-references', () => {
  it.each([
    'backfill again like last time',
    'roll out v16 the same way as the last one',
    'that holiday thing again but for christmas',
    'the flaky test is back',
    'new postmortem, same template as the ranking one',
    'do it like we did before',
    'remember the pgbouncer fix?',
    "we've seen this exact timeout before",
    'pretty sure we fixed this one before',
    'the deploy hangs at the migration step, this happened before',
    'the timeout keeps coming back on staging',
    'the 502s came back after the upgrade',
    'run the migration dry-run once more',
    'the export we talked about on monday',
    'do what we did for the payments service',
    'set it up the way we did the staging cluster',
    'you helped me with a similar query plan',
  ])('"%s" points back', (text) => expect(readCues(text, NOW).backReference).toBe(true));

  it.each([
    'add gRPC health checking and server reflection to the ranker',
    'fix the issue with the export button',
    'write a DAG that archives task logs older than 30 days',
    'the build fails on the main branch',
    'run the linter before you commit',
    'add a back button to the checkout page',
    'what did the profiler show? write it up',
    'add a way to retry failed uploads',
    'users coming back to the app should land on their last screen',
    'previously selected rows should stay checked after a refresh',
    'restore the form state from before the edit',
  ])('"%s" does not', (text) => expect(readCues(text, NOW).backReference).toBe(false));
});

describe('questions about what was done before', () => {
  it.each([
    'how did we keep the backfill from taking all day?',
    'what exact commands did we use in june to delete the keys?',
    'what check did we put in airflow after INC-047, so I don\'t duplicate it?',
    'I remember we once packed everything for one item together',
    'what did we change in the runtime settings back then?',
    "didn't we already fix the flaky export test?",
    'did we ever find out why the cache misses spike at noon?',
    'what was the flag we used to skip the slow tests?',
  ])('"%s" asks', (text) => expect(readCues(text, NOW).asksPast).toBe(true));

  it.each([
    'how do we add a health check to the ranker?',
    'add a test for the new export button',
    'we need to redo the nightly transforms',
    'what did the logs say? fix the flaky test',
    'ever since we turned on compression the job is slow',
    'what was the reason for the outage? write it up',
  ])('"%s" does not', (text) => expect(readCues(text, NOW).asksPast).toBe(false));
});

describe('periods', () => {
  it('a month after a preposition is the latest such month that has begun', () => {
    expect(readCues('same cleanup as in june', NOW).period).toEqual({ start: at('2026-06-01T00:00:00Z'), end: at('2026-07-01T00:00:00Z'), label: 'june' });
    expect(readCues('the thing from december', NOW).period).toEqual({ start: at('2025-12-01T00:00:00Z'), end: at('2026-01-01T00:00:00Z'), label: 'december' });
  });

  it('"may" and "march" count only when placed in time', () => {
    expect(readCues('it may be the cache', NOW).period).toBeNull();
    expect(readCues('we had this back in may', NOW).period?.label).toBe('may');
  });

  it('relative periods', () => {
    expect(readCues('like last week', NOW).period).toEqual({ start: at('2026-11-16T00:00:00Z'), end: at('2026-11-23T00:00:00Z'), label: 'last week' });
    expect(readCues('the outage yesterday', NOW).period).toEqual({ start: at('2026-11-28T00:00:00Z'), end: at('2026-11-29T00:00:00Z'), label: 'yesterday' });
    expect(readCues('at the start of this month', NOW).period?.start).toBe(at('2026-11-01T00:00:00Z'));
    expect(readCues('no time here', NOW)).toEqual({ backReference: false, asksPast: false, period: null, timeWords: [] });
  });

  it('a conversation is active in a period when its span overlaps it', () => {
    const june = { start: at('2026-06-01T00:00:00Z'), end: at('2026-07-01T00:00:00Z') };
    expect(activeIn(june, at('2026-05-20T00:00:00Z'), at('2026-06-02T00:00:00Z'))).toBe(true);
    expect(activeIn(june, at('2026-07-01T00:00:00Z'), at('2026-07-02T00:00:00Z'))).toBe(false);
    expect(activeIn(june, null, null)).toBe(false);
  });
});

describe('periods counted back from now', () => {
  const day = 86_400_000;
  it.each([
    ['the deploy script we fixed three weeks ago', NOW - 4.5 * 7 * day, NOW - 1.5 * 7 * day, 'three weeks ago'],
    ['a couple of days ago the tests broke', NOW - 3 * day, NOW - day, 'a couple of days ago'],
    ['like 2 months ago', NOW - 3 * 30.5 * day, NOW - 30.5 * day, '2 months ago'],
    ['a few weeks ago we looked at this', NOW - 4.5 * 7 * day, NOW - 1.5 * 7 * day, 'a few weeks ago'],
    ['a day ago', NOW - 2 * day, NOW, 'a day ago'],
  ])('"%s"', (text, start, end, label) => expect(readCues(text, NOW).period).toEqual({ start, end, label }));

  it('named days', () => {
    // NOW is Sunday 2026-11-29.
    expect(readCues('the thing from last friday', NOW).period).toEqual({ start: at('2026-11-27T00:00:00Z'), end: at('2026-11-28T00:00:00Z'), label: 'last friday' });
    expect(readCues('same as last sunday', NOW).period?.start).toBe(at('2026-11-22T00:00:00Z'));
    expect(readCues('what broke over the weekend', NOW).period).toEqual({ start: at('2026-11-21T00:00:00Z'), end: at('2026-11-23T00:00:00Z'), label: 'last weekend' });
    expect(readCues('the fix from the other day', NOW).period).toEqual({ start: at('2026-11-19T00:00:00Z'), end: at('2026-11-29T00:00:00Z'), label: 'the other day' });
    expect(readCues('the alert from this morning', NOW).period).toEqual({ start: at('2026-11-29T00:00:00Z'), end: NOW + 1, label: 'today' });
  });

  it('the words that placed it in time are not topic words', () => {
    expect(readCues('the migration from three weeks ago', NOW).timeWords).toEqual(['three', 'week', 'weeks']);
    expect(readCues('a couple of days ago', NOW).timeWords).toEqual(['couple', 'day', 'days']);
    expect(readCues('what broke last friday', NOW).timeWords).toEqual(['friday']);
  });

  it('no period where the words only look like one', () => {
    expect(readCues('add a weekly report for the past weeks of data', NOW).period).toBeNull();
    expect(readCues('a few days of logs are missing', NOW).period).toBeNull();
    expect(readCues('schedule it every friday', NOW).period).toBeNull();
  });
});

describe('seasons', () => {
  // NOW is 2026-11-29, in autumn.
  it.each([
    ['back in spring, right after the clocks jumped forward', '2026-03-01', '2026-06-01', 'back in spring'],
    ['what broke over the summer', '2026-06-01', '2026-09-01', 'over the summer'],
    ['the cache we added last winter', '2025-12-01', '2026-03-01', 'last winter'],
    ['same as last fall', '2025-09-01', '2025-12-01', 'last fall'],
    ['the migration this fall', '2026-09-01', '2026-12-01', 'this fall'],
  ])('"%s"', (text, start, end, label) => expect(readCues(text, NOW).period).toEqual({ start: at(`${start}T00:00:00Z`), end: at(`${end}T00:00:00Z`), label }));

  it.each(['migrate the service to spring boot 3', 'in spring security the filter chain', 'the retry falls back to the cache', 'winter is coming', 'does the job fall over in the fall back path'])(
    '"%s" names no season',
    (text) => expect(readCues(text, NOW).period).toBeNull(),
  );
});
