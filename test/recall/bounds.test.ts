// Bounds are applied in SQL before ranking and LIMIT: an out-of-bounds conversation never takes a
// slot, even when it would rank first.
import { describe, expect, it } from 'vitest';
import { createSearch } from '../../src/main/store/search.js';
import { createRecall } from '../../src/main/recall/index.js';
import { clauseMatch, matchAll, parseQuery } from '../../src/main/recall/terms.js';
import { buildIndex, filler, NOW, type ConvSpec } from './helpers.js';

const now = new Date(NOW).toISOString();
// "loud" mentions the terms far more often (and in its title), so it outranks "quiet" everywhere.
const loud = (key: string, extra: Partial<ConvSpec> = {}): ConvSpec => ({
  key,
  title: 'zorblax quibbit zorblax',
  workspace: '/w/a',
  daysAgo: 1,
  entries: ['zorblax quibbit zorblax quibbit', 'zorblax quibbit again zorblax', 'zorblax quibbit'],
  ...extra,
});
const quiet: ConvSpec = { key: 'quiet', title: 'something else', workspace: '/w/b', daysAgo: 300, entries: ['one zorblax and a quibbit in a long sentence with many other words', 'ok'] };

describe('store bounds (search.ts)', () => {
  it('excluded ids, workspace, since and sub-agents are filtered before LIMIT', () => {
    const { db, ids } = buildIndex([loud('loud'), loud('sub', { isSubagent: true }), quiet, ...filler(20)]);
    const search = createSearch(db);
    const m = clauseMatch(parseQuery('zorblax')[0]!);
    expect(search.probe(m, {}, 1).map((r) => r.id)).toEqual([ids.get('loud')]);
    expect(search.probe(m, { exclude: [ids.get('loud')!] }, 1).map((r) => r.id)).toEqual([ids.get('quiet')]);
    expect(search.probe(m, { workspace: '/w/b' }, 1).map((r) => r.id)).toEqual([ids.get('quiet')]);
    expect(search.presence('"zorblax"', { workspace: '/w/b' }, 1)).toEqual([ids.get('quiet')]);
    expect(search.presence('"zorblax"', { since: NOW - 10 * 86_400_000, exclude: [ids.get('loud')!] }, 5)).toEqual([]);
    expect(new Set(search.presence('"zorblax"', { includeSubagents: true }, 5))).toEqual(new Set([ids.get('loud'), ids.get('sub'), ids.get('quiet')]));
    expect(search.fieldMatches(matchAll(parseQuery('zorblax'), { columns: ['title'] })!, { exclude: [ids.get('loud')!] }, 1)).toEqual([]);
    db.close();
  });
});

describe('suggest bounds (every strategy)', () => {
  for (const strategy of ['default', 'signals', 'salient'] as const) {
    it(`${strategy}: never the caller's own conversation, never a listed one, sub-agents only when asked, scope`, () => {
      const { db, ids } = buildIndex([loud('own'), loud('listed'), loud('sub', { isSubagent: true }), loud('other-ws', { workspace: '/w/z' }), loud('ok'), ...filler(40)]);
      const recall = createRecall(db);
      const text = 'zorblax quibbit';
      const base = { text, workspace: '/w/a', strategy, now, sensitivity: 'broad' as const };
      const got = (extra: object) => new Set(recall.suggest({ ...base, ...extra }).suggestions.map((s) => s.id));
      const all = got({ scope: 'everywhere', includeSubagents: true });
      expect(all.has(ids.get('own')!)).toBe(true);
      expect(all.has(ids.get('sub')!)).toBe(true);
      const bounded = got({ scope: 'everywhere', conversation: 'session-own', listed: [ids.get('listed')!] });
      expect([...bounded].sort()).toEqual([ids.get('ok'), ids.get('other-ws')].sort());
      // The caller may also name itself by its session file path.
      expect(got({ scope: 'workspace', conversation: db.prepare("SELECT path FROM conversations WHERE key = 'own'").pluck().get() as string, listed: ['session-listed'] })).toEqual(new Set([ids.get('ok')]));
      db.close();
    });
  }

  it('autoRecall off: nothing, reason "disabled"', () => {
    const { db } = buildIndex([loud('x')]);
    const r = createRecall(db).suggest({ text: 'zorblax quibbit' }, { autoRecall: false, sensitivity: 'balanced', scope: 'everywhere', pins: {} });
    expect(r).toMatchObject({ suggestions: [], block: '', reason: 'disabled' });
    db.close();
  });
});

describe('recall_conversations bounds', () => {
  it('workspace and since are applied before the limit', () => {
    const { db, ids } = buildIndex([loud('loud'), quiet, ...filler(20)]);
    const recall = createRecall(db);
    expect(recall.recall({ query: 'zorblax', limit: 1 }).hits.map((h) => h.id)).toEqual([ids.get('loud')]);
    expect(recall.recall({ query: 'zorblax', limit: 1, workspace: '/w/b' }).hits.map((h) => h.id)).toEqual([ids.get('quiet')]);
    expect(recall.recall({ query: 'zorblax', limit: 5, workspace: 'all', since: '2026-11-01' }).hits.map((h) => h.id)).toEqual([ids.get('loud')]);
    db.close();
  });
});
