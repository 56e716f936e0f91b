// `search --now` sets the clock its recency prior reads, as `suggest --now` does: the same query on
// the same index gives the same scores at the same clock, and for a query that points back (the one
// kind search weighs recency for) older work weighs less the later it is.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURE_SOURCES, cli } from './helpers.js';

let home: string;
let db: string;

async function scores(now: string, query = 'getThemesDir again'): Promise<number[]> {
  const r = await cli(home, ['search', '--db', db, '--json', '--now', now, '--', query]);
  expect(r.code, r.err).toBe(0);
  const hits = JSON.parse(r.out).hits as { score: number; date: string | null }[];
  expect(hits.length).toBeGreaterThan(0);
  return hits.map((h) => h.score);
}

describe('search --now', () => {
  beforeAll(async () => {
    home = fs.mkdtempSync(path.join(os.tmpdir(), 'tl-search-now-'));
    db = path.join(home, 'index.sqlite');
    const r = await cli(home, ['index', '--db', db, ...FIXTURE_SOURCES]);
    expect(r.code, r.err).toBe(0);
  });
  afterAll(() => fs.rmSync(home, { recursive: true, force: true }));

  it('is the clock for recency: reproducible at one clock, lower a year later', async () => {
    const first = await scores('2026-01-01T00:00:00Z');
    expect(await scores('2026-01-01T00:00:00Z')).toEqual(first);
    const later = await scores('2027-06-01T00:00:00Z');
    expect(later[0]).toBeLessThan(first[0]!);
    // A query that does not point back is ranked by relevance alone, whatever the clock.
    expect(await scores('2027-06-01T00:00:00Z', 'getThemesDir')).toEqual(await scores('2026-01-01T00:00:00Z', 'getThemesDir'));
  });

  it('refuses a clock that is not a date', async () => {
    const r = await cli(home, ['search', '--db', db, '--json', '--now', 'yesterday-ish', '--', 'getThemesDir']);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/now/);
  });
});
