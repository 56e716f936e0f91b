import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SessionManager } from '@mariozechner/pi-coding-agent';
import { afterAll, describe, expect, it } from 'vitest';
import { piAdapter } from '../../src/main/ingest/adapters/pi.js';
import type { EntryRecord, IngestOp } from '../../src/main/ingest/types.js';
import { activePath, completeLines, countKinds, feed, fold, only, parseAll, parseResumed } from '../helpers/ops.js';

const FIXTURES = fileURLToPath(new URL('../fixtures/', import.meta.url));
const SMALL_V3 = join(FIXTURES, 'pi/agent-sessions-pi-small-v3.jsonl');
const EXCERPT_V1 = join(FIXTURES, 'pi/pi-mono-before-compaction-v1-excerpt.jsonl');
const HEAD27_V1 = join(FIXTURES, 'pi/pi-mono-large-session-v1-head27.jsonl');
const COMPACTION_V1 = join(FIXTURES, 'large/pi/before-compaction-v1.jsonl');
const LARGE_V1 = join(FIXTURES, 'large/pi/large-session-v1.jsonl');

const read = (path: string): string => readFileSync(path, 'utf8');
const parseFile = (path: string) => only(fold(parseAll(piAdapter, path, read(path)).ops));
const bySource = (entries: EntryRecord[], id: string) => entries.find((e) => e.sourceId === id);
const toolStatuses = (entries: EntryRecord[]) =>
  countBy(entries.filter((e) => e.kind === 'tool_call').map((e) => e.toolStatus ?? 'none'));

function countBy(values: string[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const v of values) out[v] = (out[v] ?? 0) + 1;
  return out;
}

describe('pi adapter: roots and files', () => {
  it('honours PI_CODING_AGENT_DIR (with ~) and defaults to ~/.pi/agent/sessions', () => {
    expect(piAdapter.defaultRoots({}, '/home/u')).toEqual(['/home/u/.pi/agent/sessions']);
    expect(piAdapter.defaultRoots({ PI_CODING_AGENT_DIR: '/opt/pi' }, '/home/u')).toEqual(['/opt/pi/sessions']);
    expect(piAdapter.defaultRoots({ PI_CODING_AGENT_DIR: '~/pi' }, '/home/u')).toEqual(['/home/u/pi/sessions']);
    expect(piAdapter.isSessionFile('/s/--p--/2025-01-01T00-00-00-000Z_abc.jsonl')).toBe(true);
    expect(piAdapter.isSessionFile('/s/--p--/notes.json')).toBe(false);
  });
});

describe('pi v3 file (fixture written by pi)', () => {
  const conv = parseFile(SMALL_V3);

  it('takes id, cwd, times, title and summary from the session', () => {
    expect(conv.meta).toEqual({
      sessionId: '019e19b4-eb48-746a-aa6b-8dfcfa37954b',
      workspace: '/tmp/as-agent-fixture/project',
      createdAt: Date.parse('2026-05-12T01:02:27.657Z'),
      updatedAt: Date.parse('2026-05-12T01:02:45.843Z'),
      title: 'Read hello.py and summarize what it prints without editing files.',
      titleRank: 1,
      summary: 'hello.py prints a fixture greeting.',
    });
  });

  it('yields messages and compactions; model/thinking changes yield nothing', () => {
    expect(countKinds(conv.entries)).toEqual({ 'message/user': 2, 'message/assistant': 2, 'compaction/system': 2 });
    expect(conv.entries.map((e) => e.seq)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(conv.entries.filter((e) => e.indexed).map((e) => e.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
  });

  it('re-parents past skipped entries and resolves a first kept model_change forward', () => {
    // 30c6a75f's parent is a thinking_level_change whose parent is a model_change (root).
    expect(bySource(conv.entries, '30c6a75f')?.parentSourceId).toBeUndefined();
    expect(bySource(conv.entries, 'ddd2179a')?.parentSourceId).toBe('c139a627');
    // firstKeptEntryId f7c7091e is the model_change: the first record after it is 30c6a75f.
    const compactions = conv.entries.filter((e) => e.kind === 'compaction');
    expect(compactions.map((e) => e.firstKeptSourceId)).toEqual(['30c6a75f', '30c6a75f']);
    expect(conv.leaf).toBe('2c19d326');
    expect(activePath(conv).size).toBe(6);
  });
});

describe('pi v1 files (linear, no ids)', () => {
  it('before-compaction: counts, statuses, parent and compaction boundaries by index', () => {
    const conv = parseFile(COMPACTION_V1);
    expect(countKinds(conv.entries)).toEqual({
      'message/user': 55,
      'message/assistant': 253 + 13, // 13 aborted turns keep an unindexed marker
      'thinking/assistant': 49,
      'tool_call/tool': 454,
      'tool_result/tool': 448,
      'bash/tool': 3,
      'compaction/system': 2,
    });
    expect(conv.entries.filter((e) => e.kind === 'message' && e.role === 'assistant' && e.indexed)).toHaveLength(253);
    expect(toolStatuses(conv.entries)).toEqual({ ok: 436, error: 12, pending: 6 });
    expect(conv.meta.parentKey).toBe('d97339c6-6c10-4827-846b-9ff1d9c3dc37');
    expect(conv.meta.title).toBe('alright, read @packages/coding-agent/src/main.ts @packages/coding-agent/src/tui…');
    expect(conv.meta.updatedAt).toBe(Date.parse('2025-12-09T01:26:35.570Z'));
    expect(conv.meta.summary?.startsWith('# Context Checkpoint')).toBe(true);
    // firstKeptEntryIndex counts file entries with the header at 0 (as pi's migration does).
    const kept = conv.entries.filter((e) => e.kind === 'compaction').map((e) => e.firstKeptSourceId);
    expect(kept).toEqual(['#293', '#551']);
    expect(bySource(conv.entries, '#293')?.text.startsWith("i reviwed what we have, it's good.")).toBe(true);
    expect(bySource(conv.entries, '#551')).toMatchObject({ role: 'user', kind: 'message', text: 'can leave it' });
    // Linear: the active path is every record.
    expect(activePath(conv).size).toBe(conv.entries.length);
  });

  it('large-session: counts, statuses and a title that skips a bare /command', () => {
    const conv = parseFile(LARGE_V1);
    expect(countKinds(conv.entries)).toEqual({
      'message/user': 88,
      'message/assistant': 244 + 14,
      'thinking/assistant': 1,
      'tool_call/tool': 391,
      'tool_result/tool': 373,
    });
    expect(toolStatuses(conv.entries)).toEqual({ ok: 354, error: 19, pending: 18 });
    expect(conv.meta.title).toBe('read packages/coding-agent/docs/theme.md in full, then theme.ts, and then oauth…');
    expect(conv.meta.workspace).toBe('/Users/badlogic/workspaces/pi-mono');
    expect(activePath(conv).size).toBe(conv.entries.length);
  });

  it('excerpts: splits an assistant entry, keeps bash output and aborted markers', () => {
    const head = parseFile(HEAD27_V1);
    expect(bySource(head.entries, '#2')).toMatchObject({ kind: 'message', text: '[aborted] Request was aborted' });
    // Line 6 (index 5): text + read + read + bash calls → #5#1 text, #5#2, #5#3, #5 last call.
    const split = head.entries.filter((e) => e.sourceId === '#5' || e.sourceId?.startsWith('#5#'));
    expect(split.map((e) => [e.sourceId, e.parentSourceId, e.kind, e.toolName, e.text.slice(0, 30)])).toEqual([
      ['#5#1', '#4', 'message', undefined, "I'll read the theme documentat"],
      ['#5#2', '#5#1', 'tool_call', 'read', 'packages/coding-agent/docs/the'],
      ['#5#3', '#5#2', 'tool_call', 'read', 'packages/coding-agent/src/them'],
      ['#5', '#5#3', 'tool_call', 'bash', 'find packages/coding-agent/src'],
    ]);
    expect(split.map((e) => e.toolStatus)).toEqual([undefined, 'ok', 'ok', 'ok']);
    const excerpt = parseFile(EXCERPT_V1);
    const bash = excerpt.entries.filter((e) => e.kind === 'bash');
    expect(bash).toHaveLength(1);
    expect(bash[0]).toMatchObject({ role: 'tool', indexed: false, toolStatus: 'ok' });
    expect(bash[0].text.startsWith('$ ls\nAGENTS.md\nbiome.json\n')).toBe(true);
  });
});

describe('pi malformed input', () => {
  it('reports bad lines as LineError and parses the rest as if they were absent', () => {
    const clean = completeLines(read(SMALL_V3));
    const dirty = [...clean.slice(0, 3), 'not json {', '[1,2]', '{"no":"type"}', '', ...clean.slice(3)];
    const parsed = feed(piAdapter.createParser(SMALL_V3, undefined), dirty);
    expect(parsed.errors.map((e) => e.lineNo)).toEqual([4, 5, 6]);
    expect(parsed.errors[0].message).toMatch(/not valid JSON/);
    expect(parsed.errors[2].message).toMatch(/no "type"/);
    expect(parsed.ops).toEqual(feed(piAdapter.createParser(SMALL_V3, undefined), clean).ops);
  });

  it('counts v1 indexes like pi: unparseable lines do not shift them, parseable ones do', () => {
    const lines = completeLines(read(COMPACTION_V1));
    const withGarbage = [...lines.slice(0, 10), '{garbage', ...lines.slice(10)];
    const a = only(fold(feed(piAdapter.createParser('', undefined), withGarbage).ops));
    expect(bySource(a.entries, '#551')?.text).toBe('can leave it');
    const withObject = [...lines.slice(0, 10), '{"oops":1}', ...lines.slice(10)];
    const b = only(fold(feed(piAdapter.createParser('', undefined), withObject).ops));
    expect(bySource(b.entries, '#552')?.text).toBe('can leave it');
  });

  it('ignores unknown entry types and rejects entries before a header', () => {
    const lines = completeLines(read(SMALL_V3));
    const future = '{"type":"future_kind","id":"zz","parentId":"22a2720e","timestamp":"2026-05-12T01:02:27.700Z"}';
    const parsed = feed(piAdapter.createParser('', undefined), [...lines.slice(0, 5), future, ...lines.slice(5)]);
    expect(parsed.errors).toEqual([]);
    expect(only(fold(parsed.ops)).entries).toHaveLength(6);
    const headless = feed(piAdapter.createParser('', undefined), lines.slice(1));
    expect(headless.ops).toEqual([]);
    expect(headless.errors).toHaveLength(lines.length - 1);
    expect(headless.errors[0].message).toMatch(/before the session header/);
  });
});

// ---- v3 sessions written by pi's own SessionManager -------------------------------------------

type PiMessage = Parameters<SessionManager['appendMessage']>[0];
type Assistant = Extract<PiMessage, { role: 'assistant' }>;
const usage = { input: 1, output: 1, cacheRead: 0, cacheWrite: 0, totalTokens: 2, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };
const user = (text: string): PiMessage => ({ role: 'user', content: [{ type: 'text', text }], timestamp: Date.now() });
const assistant = (content: Assistant['content']): PiMessage => ({
  role: 'assistant', content, api: 'openai-completions', provider: 'test', model: 'test-model', usage, stopReason: 'stop', timestamp: Date.now(),
});
const said = (text: string) => assistant([{ type: 'text', text }]);
const result = (toolCallId: string, toolName: string, text: string, isError: boolean): PiMessage => ({
  role: 'toolResult', toolCallId, toolName, content: [{ type: 'text', text }], isError, timestamp: Date.now(),
});

const tmp = mkdtempSync(join(tmpdir(), 'throughline-pi-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** A session with a plain branch, a summarised branch, compactions, a name, custom and bash entries. */
function writeSession() {
  const sm = SessionManager.create('/work/project-x', tmp);
  sm.appendModelChange('test', 'test-model');
  const ids: Record<string, string> = {};
  ids.u1 = sm.appendMessage(user('Fix the login bug\nit rejects valid passwords'));
  ids.a1 = sm.appendMessage(assistant([
    { type: 'thinking', thinking: 'Probably the hash check.' },
    { type: 'text', text: 'Let me look at the login code.' },
    { type: 'toolCall', id: 'call-read', name: 'read', arguments: { path: 'src/login.ts' } },
    { type: 'toolCall', id: 'call-bash', name: 'bash', arguments: { command: 'npm test' } },
  ]));
  sm.appendMessage(result('call-read', 'read', 'export function login() {}', false));
  sm.appendMessage(result('call-bash', 'bash', '1 failing', true));
  ids.a2 = sm.appendMessage(said('The hash comparison is inverted.'));
  ids.mc = sm.appendModelChange('test', 'bigger-model');
  ids.u2 = sm.appendMessage(user('Try approach A'));
  ids.a3 = sm.appendMessage(said('Approach A done'));
  ids.bs = sm.branchWithSummary(ids.mc, 'Tried approach A; it broke the session tests.');
  ids.u3 = sm.appendMessage(user('Try approach B'));
  ids.a4 = sm.appendMessage(assistant([{ type: 'thinking', thinking: 'B is safer.' }, { type: 'text', text: 'Approach B done' }]));
  ids.c1 = sm.appendCompaction('Login fixed with approach B.', ids.u3, 5000);
  sm.appendSessionInfo('Login bug fix');
  sm.appendLabelChange(ids.a4, 'good');
  ids.cm = sm.appendCustomMessageEntry('reminder', 'Remember to run the tests', true);
  ids.sh = sm.appendMessage({ role: 'bashExecution', command: 'ls', output: 'a\nb', exitCode: 0, cancelled: false, truncated: false, timestamp: Date.now() });
  ids.u4 = sm.appendMessage(user('Thanks'));
  ids.a5 = sm.appendMessage(said('You are welcome'));
  sm.branch(ids.u4);
  ids.a6 = sm.appendMessage(said('Glad to help'));
  ids.c2 = sm.appendCompaction('Second compaction.', ids.a4, 6000);
  const file = sm.getSessionFile();
  if (!file) throw new Error('SessionManager did not persist');
  return { sm, ids, file };
}

describe('pi v3 sessions written by SessionManager', () => {
  const { sm, ids, file } = writeSession();
  const parsed = parseAll(piAdapter, file, read(file));
  const conv = only(fold(parsed.ops));

  it('parses without errors and keeps session metadata; the session name wins the title', () => {
    expect(parsed.errors).toEqual([]);
    const titles = parsed.ops.flatMap((op) => (op.op === 'conversation' && op.meta.title ? [[op.meta.title, op.meta.titleRank]] : []));
    expect(titles).toEqual([['Fix the login bug', 1], ['Login bug fix', 3]]);
    expect(conv.meta).toMatchObject({ sessionId: sm.getSessionId(), workspace: '/work/project-x', title: 'Login bug fix', summary: 'Second compaction.' });
  });

  it('maps every kind and settles tool calls', () => {
    expect(countKinds(conv.entries)).toEqual({
      'message/user': 4, 'message/assistant': 6, 'thinking/assistant': 2, 'tool_call/tool': 2, 'tool_result/tool': 2,
      'branch_summary/system': 1, 'compaction/system': 2, 'custom/user': 1, 'bash/tool': 1,
    });
    const calls = conv.entries.filter((e) => e.kind === 'tool_call');
    expect(calls.map((e) => [e.sourceId, e.toolName, e.toolStatus, e.text])).toEqual([
      [`${ids.a1}#3`, 'read', 'ok', 'src/login.ts'],
      [ids.a1, 'bash', 'error', 'npm test'],
    ]);
    expect(bySource(conv.entries, ids.cm)).toMatchObject({ role: 'user', author: 'reminder', indexed: false, text: 'Remember to run the tests' });
    expect(bySource(conv.entries, ids.sh)?.text).toBe('$ ls\na\nb');
  });

  it('resolves compaction boundaries to the first record of the kept entry', () => {
    expect(bySource(conv.entries, ids.c1)?.firstKeptSourceId).toBe(ids.u3);
    expect(bySource(conv.entries, ids.c2)?.firstKeptSourceId).toBe(`${ids.a4}#1`);
    expect(bySource(conv.entries, `${ids.a4}#1`)?.kind).toBe('thinking');
  });

  it('puts exactly the entries on pi\'s own active branch on the path', () => {
    expect(conv.leaf).toBe(ids.c2);
    const onPath = activePath(conv);
    const piPath = new Set(sm.getBranch().map((e) => e.id));
    for (const sourceId of onPath) expect(piPath.has(sourceId.split('#')[0])).toBe(true);
    const withRecords = new Set(conv.entries.map((e) => e.sourceId?.split('#')[0]));
    for (const id of piPath) if (withRecords.has(id)) expect(onPath.has(id)).toBe(true);
    for (const abandoned of [ids.u2, ids.a3, ids.a5]) expect(onPath.has(abandoned)).toBe(false);
    // The summarised branch hangs from a model_change: its record hangs from the last real entry.
    expect(bySource(conv.entries, ids.bs)?.parentSourceId).toBe(ids.a2);
  });

  it('links a branched-off session file to its parent', () => {
    const child = sm.createBranchedSession(ids.a4);
    if (!child) throw new Error('no branched session file');
    const forked = parseFile(child);
    expect(forked.meta.parentKey).toBe(conv.meta.sessionId);
    expect(forked.meta.sessionId).not.toBe(conv.meta.sessionId);
    expect(forked.entries.map((e) => e.sourceId)).toContain(ids.a4);
  });

  it('resumes from stored state at every line with the same ops as one pass', () => {
    const lines = completeLines(read(file)).length;
    for (let cut = 0; cut <= lines; cut++) expect(parseResumed(piAdapter, file, read(file), cut).ops).toEqual(parsed.ops);
  });
});

describe('pi resume on real files', () => {
  for (const path of [SMALL_V3, EXCERPT_V1, HEAD27_V1, COMPACTION_V1, LARGE_V1]) {
    it(`resumes ${path.split('/').pop()} mid-file with identical ops and small state`, () => {
      const text = read(path);
      const whole: IngestOp[] = parseAll(piAdapter, path, text).ops;
      const n = completeLines(text).length;
      for (const cut of new Set([1, 2, Math.floor(n / 3), Math.floor(n / 2), n - 1])) {
        const resumed = parseResumed(piAdapter, path, text, cut);
        expect(resumed.ops).toEqual(whole);
        expect(resumed.stateJson.length).toBeLessThan(64_000);
      }
    });
  }
});
