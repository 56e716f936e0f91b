// Snapshots of the CLI's output three ways: off a terminal (the agents' text, what programs and
// agents read: for the recall and history commands exactly the tools' own text, compared with it
// rather than snapshotted), on a terminal without colour (NO_COLOR), and on a terminal with colour. Built from real fixture session files. Update after a deliberate change
// with `npx vitest run test/cli/human-output.test.ts -u`, and read the diff.
//
// suggest and a ranked search are left out of the snapshots: their content is the recall engine's
// (scores, reasons, order), which changes on its own schedule; their layout is checked below instead.
import fs from 'node:fs';
import path from 'node:path';
import os from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRecall, type Recall } from '../../src/main/recall/index.js';
import { openDb } from '../../src/main/store/db.js';
import { createActivityLog } from '../../src/main/store/activity.js';
import { FIXTURES } from '../helpers/tmp.js';
import { cli, visibleEscapes, type RunOptions } from './helpers.js';

const SNAPSHOTS = path.join(__dirname, '__snapshots__', 'human');

// Four real sessions: a pi session after a compaction, a small pi session, Claude Code, Codex.
const SOURCES = [
  ['pi', 'pi/pi-mono-before-compaction-v1-excerpt.jsonl'],
  ['pi', 'pi/agent-sessions-pi-small-v3.jsonl'],
  ['claude-code', 'claude-code/episodic-short-conversation.jsonl'],
  ['codex', 'codex/rollout-2026-01-02T18-39-45-019b7f94-51b4-7593-922e-ba12b5b73b52.jsonl'],
].flatMap(([kind, file]) => ['--source', `${kind}=${path.join(FIXTURES, file!)}`]);

const MODES: [string, RunOptions][] = [
  ['off a terminal (the agents’ text)', { tty: false }],
  ['a terminal, NO_COLOR', { tty: true, color: false }],
  ['a terminal, colour', { tty: true, color: true }],
];

let home: string;
let db: string;

/** Paths and clocks of this run, replaced so the snapshot is the same on every machine. */
function stable(text: string): string {
  return text
    .replaceAll(home, '<home>')
    .replaceAll(FIXTURES, '<fixtures>')
    .replace(/\d{4}-\d\d-\d\d[ T]\d\d:\d\d:\d\d(\.\d+Z)?( UTC)?/g, '<time>')
    .replace(/\(\d+\.\d MB, schema \d+/g, '(<size> MB, schema <n>')
    .replace(/\d+(\.\d+)? MB in [\d,]+ ms, \d+\.\d MB\/s/g, '<bytes> in <ms>, <rate>');
}

/**
 * Snapshots a command's output in every mode. `agents` gives the tool's own text for the command:
 * off a terminal the output must be exactly that (whatever the tool's wording is today, which is not
 * this test's to pin down), so that mode is compared with it instead of a snapshot.
 */
async function snapshot(name: string, args: string[], agents?: (recall: Recall) => string): Promise<void> {
  const parts: string[] = [];
  for (const [label, options] of MODES) {
    const r = await cli(home, [args[0]!, '--db', db, ...args.slice(1)], options);
    expect(r.err, `${name} (${label})`).toBe('');
    expect(r.code).toBe(0);
    if (agents && !options.tty) {
      const h = openDb(db, { readonly: true });
      try {
        expect(r.out).toBe(agents(createRecall(h)) + '\n');
      } finally {
        h.close();
      }
      continue;
    }
    parts.push(`=== ${label} ===\n${visibleEscapes(stable(r.out))}`);
  }
  await expect(parts.join('\n')).toMatchFileSnapshot(path.join(SNAPSHOTS, `${name}.txt`));
}

describe('the CLI’s output for people and for programs', () => {
  beforeAll(async () => {
    home = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tl-human-')));
    db = path.join(home, 'index.sqlite');
    const indexed = await cli(home, ['index', '--db', db, ...SOURCES]);
    expect(indexed.code, indexed.err).toBe(0);
    // Two agent calls in the activity log, as the socket records them.
    const h = openDb(db);
    const log = createActivityLog(h);
    log.record('claude-code', 'recall_conversations', 'query="theme paths"', [1, 2], 812);
    log.record('pi-extension', 'read_conversation', 'conversation_id=1', [1], 4096);
    h.close();
  });

  afterAll(() => fs.rmSync(home, { recursive: true, force: true }));

  it('index', async () => {
    const parts: string[] = [];
    for (const [i, [label, options]] of MODES.entries()) {
      const fresh = path.join(home, `index-${i}.sqlite`);
      const first = await cli(home, ['index', '--db', fresh, ...SOURCES], options);
      const again = await cli(home, ['index', '--db', fresh, ...SOURCES], options);
      parts.push(`=== ${label} ===\n${visibleEscapes(stable(first.out))}--- a re-run ---\n${visibleEscapes(stable(again.out))}`);
    }
    await expect(parts.join('\n')).toMatchFileSnapshot(path.join(SNAPSHOTS, 'index.txt'));
  });

  it('stats', () => snapshot('stats', ['stats']));
  it('search (one conversation has the words)', () =>
    snapshot('search', ['search', '--', 'getThemesDir'], (r) => r.recall({ query: 'getThemesDir', workspace: 'all' }).text));
  it('read', () => snapshot('read', ['read', '--turns', '1-4', '1'], (r) => r.read({ conversation_id: '1', turns: '1-4' }).text));
  it('inspect', () => snapshot('inspect', ['inspect', '--query', 'theme', '1'], (r) => r.inspect({ conversation_id: '1', query: 'theme' }).text));
  it('history search', () =>
    snapshot('history-search', ['history', 'search', '--conversation', '1', '--before', '100', '--', 'theme'], (r) => r.historySearch({ conversation: '1', query: 'theme', before: 100 }).text));
  it('history read', () =>
    snapshot('history-read', ['history', 'read', '--conversation', '1', '--from', '10', '--limit', '4'], (r) => r.historyRead({ conversation: '1', mode: 'range', from: 10, limit: 4 }).text));
  it('activity', () => snapshot('activity', ['activity']));

  it('suggest: the engine’s reason printed as given, the suggestions in columns, the exact pointer block', async () => {
    const args = ['suggest', '--db', db, '--now', '2026-11-29T12:00:00Z', '--scope', 'everywhere', '--', 'getThemesDir should walk up to find package.json for the new theme location'];
    const json = JSON.parse((await cli(home, ['suggest', '--json', ...args.slice(1)])).out) as { reason: string; block: string; suggestions: { id: number; title: string }[] };
    expect(json.suggestions.length).toBeGreaterThan(0);
    const person = (await cli(home, args, { tty: true, color: false })).out;
    const lines = person.split('\n');
    expect(lines[0]).toBe(`default, balanced: ${json.reason}`);
    expect(lines[2]).toMatch(/^score +id +agent +conversation$/);
    expect(lines[3]).toMatch(new RegExp(`^\\d+(\\.\\d+)? +#${json.suggestions[0]!.id} +\\S+ +${json.suggestions[0]!.title.slice(0, 20).replace(/[?.*+()[\]]/g, '\\$&')}`));
    expect(person).toContain(`What an agent would get:\n${json.block}`);
    // Every signal is there for a person, wrapped, not cut: the recency of a conversation from 2025
    // lowers its score and reads with a minus, never "+-".
    const card = person.slice(0, person.indexOf('What an agent would get:'));
    expect(card).toMatch(/recency \d+ days ago -\d/);
    expect(card).not.toContain('+-');
    expect(card).not.toContain('…');
    // Off a terminal: the agents' text, as before.
    const agents = (await cli(home, args)).out;
    expect(agents.startsWith(`default, balanced: ${json.reason}\n`)).toBe(true);
    expect(agents).toContain(json.block);
  });

  it('a terminal gets aligned columns: every search hit’s title starts in the same column', async () => {
    const r = await cli(home, ['search', '--db', db, '--', 'summarize'], { tty: true, color: false });
    const heads = r.out.split('\n').filter((l) => /^ *#\d+ {2}/.test(l));
    expect(heads.length).toBeGreaterThan(1);
    const titleAt = heads.map((l) => l.search(/ {2}(pi|codex|claude-code) {2,}/) + l.match(/ {2}(pi|codex|claude-code) +/)![0].length);
    expect(new Set(titleAt).size).toBe(1);
  });
});
