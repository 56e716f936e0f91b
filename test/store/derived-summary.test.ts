// The summary derived at index time when the agent wrote none. The seeds: the pointer block carries
// "maybe a short cached preview from the conversation's generated summary" (suggested-context) and
// scores "Summary or cached preview match: +2 per matched term"; no model call (DESIGN.md), so it is
// extractive: the first request and the outcome.
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { deriveSummary, leadingSentences, plainText } from '../../src/main/store/derived-summary.js';
import { createIndexer } from '../../src/main/ingest/scan.js';
import { ADAPTERS } from '../../src/main/ingest/sources.js';
import { openDb } from '../../src/main/store/db.js';
import { MIGRATIONS } from '../../src/main/store/schema.js';
import { createReader } from '../../src/main/store/read.js';
import { createRecall } from '../../src/main/recall/index.js';
import { buildIndex, NOW, tmpDir } from '../recall/helpers.js';
import { FIXTURES } from '../helpers/tmp.js';

describe('deriveSummary', () => {
  it('is the first request and the outcome, in plain words, bounded', () => {
    const s = deriveSummary({
      firstRequest: '## Bug\nThe **login form** double-submits when you press `Enter` twice. Can you fix it? Here is the log:\n```\nPOST /login 200\nPOST /login 200\n```',
      lastReply: 'Debounced the submit handler in `src/login.ts`; both tests pass now. I also added a regression test for the double press.',
    });
    expect(s).toBe('The login form double-submits when you press Enter twice. — Outcome: Debounced the submit handler in src/login.ts; both tests pass now.');
    expect(s.length).toBeLessThanOrEqual(140 + 160 + 12);
  });

  it('says nothing it cannot derive', () => {
    expect(deriveSummary({ firstRequest: null, lastReply: null })).toBe('');
    expect(deriveSummary({ firstRequest: 'rename the flag', lastReply: null })).toBe('rename the flag');
    expect(deriveSummary({ firstRequest: null, lastReply: 'Renamed.' })).toBe('Outcome: Renamed.');
  });

  it('cuts a long sentence at a word, marked', () => {
    const long = 'word '.repeat(80).trim();
    const cut = leadingSentences(long, 140);
    expect(cut.length).toBeLessThanOrEqual(140);
    expect(cut.endsWith('word…')).toBe(true);
    expect(plainText('- [docs](https://x.y/z) and ![img](a.png)')).toBe('docs and img');
  });
});

describe('the derived summary in the index', () => {
  const convs = [
    { key: 'plain', title: 'Rate limiter', entries: ['the token bucket answers 429 behind the proxy', 'It trusted X-Forwarded-For; now it reads the socket address. Tests pass.'] },
    { key: 'own', title: 'Rate limiter two', summary: 'The agent wrote this summary itself.', entries: ['the token bucket again', 'done'] },
  ];

  it('is stored beside the agent\'s summary, which it never replaces', () => {
    const { db, ids } = buildIndex(convs);
    const reader = createReader(db);
    expect(reader.conversation(ids.get('plain')!)).toMatchObject({
      summary: null,
      derivedSummary: 'the token bucket answers 429 behind the proxy — Outcome: It trusted X-Forwarded-For; now it reads the socket address.',
    });
    expect(reader.conversation(ids.get('own')!)).toMatchObject({ summary: 'The agent wrote this summary itself.', derivedSummary: 'the token bucket again — Outcome: done' });
    db.close();
  });

  it('is the preview of a suggestion when the agent wrote no summary, and what the summary signal matches', () => {
    const { db, ids } = buildIndex(convs);
    const r = createRecall(db).suggest({ text: 'token bucket proxy', scope: 'everywhere', strategy: 'signals', now: new Date(NOW).toISOString() });
    const plain = r.suggestions.find((s) => s.id === ids.get('plain'))!;
    expect(plain.preview).toMatch(/^the token bucket answers 429 behind the proxy — Outcome:/);
    expect(plain.signals.find((s) => s.name === 'summary')).toEqual({ name: 'summary', points: 6, detail: 'token, bucket, proxy' });
    expect(r.block).toContain('Preview: the token bucket answers 429');
    // The agent's own summary wins where there is one.
    const own = r.suggestions.find((s) => s.id === ids.get('own'));
    if (own) expect(own.preview).toBe('The agent wrote this summary itself.');
    db.close();
  });

  it('is derived for the conversations of an index from before migration 7, at the next run', () => {
    const file = path.join(tmpDir(), 'index.sqlite');
    const raw = new Database(file);
    for (const m of MIGRATIONS.slice(0, 6)) raw.exec(m);
    raw.pragma('user_version = 6');
    raw.close();
    // Migrated to 7, indexed, and then the column emptied as an index indexed before 7 has it.
    const db = openDb(file);
    const sources = [{ kind: 'pi' as const, root: path.join(FIXTURES, 'pi') }];
    createIndexer(db, ADAPTERS).scan(sources);
    db.prepare('UPDATE conversations SET derived_summary = NULL').run();
    db.prepare('DELETE FROM conversations_fts').run();
    // The next run reads no file (nothing changed) but derives every missing summary and its search row.
    const stats = createIndexer(db, ADAPTERS).scan(sources);
    expect(stats.bytes).toBe(0);
    expect(db.prepare('SELECT count(*) FROM conversations WHERE derived_summary IS NULL').pluck().get()).toBe(0);
    const derived = db.prepare("SELECT id, derived_summary FROM conversations WHERE derived_summary != '' AND summary IS NULL").all() as { id: number; derived_summary: string }[];
    expect(derived.length).toBeGreaterThan(0);
    for (const d of derived) expect(db.prepare('SELECT summary FROM conversations_fts WHERE rowid = ?').pluck().get(d.id)).toBe(d.derived_summary);
    db.close();
  });
});
