import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { jsonlAdapter } from '../../src/main/ingest/adapters/jsonl.js';
import { activePath, completeLines, countKinds, feed, fold, only, parseAll, parseResumed } from '../helpers/ops.js';

const tmp = mkdtempSync(join(tmpdir(), 'throughline-jsonl-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** Write lines to a real file and read it back, so tests go through the bytes a writer produces. */
function writeFile(name: string, lines: unknown[]): { path: string; text: string } {
  const path = join(tmp, name);
  writeFileSync(path, lines.map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n') + '\n');
  return { path, text: readFileSync(path, 'utf8') };
}

const basic = writeFile('basic.jsonl', [
  { type: 'conversation', id: 'fix-login', workspace: '/home/me/shop', created: '2025-06-01T09:00:00Z' },
  { type: 'message', role: 'user', text: 'The login form rejects valid passwords.\nSee issue 42.', ts: '2025-06-01T09:00:05Z' },
  { type: 'message', role: 'assistant', text: 'Let me run the tests.', ts: '2025-06-01T09:00:09Z', author: 'my-agent' },
  { type: 'message', role: 'assistant', kind: 'thinking', text: 'Probably the hash.', ts: 1748768410000 },
  { type: 'message', role: 'tool', kind: 'tool_call', text: 'npm test', tool: { name: 'bash', status: 'ok' } },
  { type: 'message', role: 'tool', text: '1 failing', tool: { name: 'bash', status: 'error' }, id: 'r1' },
  { type: 'compaction', text: 'Found the inverted hash check.', firstKept: 'r1', ts: '2025-06-01T09:30:00Z' },
  { type: 'handoff', text: 'Continued elsewhere.', ts: '2025-06-01T10:00:00Z' },
  { type: 'conversation', id: 'side-quest', title: 'Side quest', parent: 'fix-login', subagent: true },
  { type: 'message', role: 'user', text: 'Look up bcrypt costs' },
  { type: 'message', conversation: 'fix-login', role: 'user', text: 'Back to the login bug', ts: '2025-06-01T11:00:00Z' },
]);

describe('jsonl import adapter', () => {
  it('finds files under XDG_DATA_HOME (absolute only) or ~/.local/share', () => {
    expect(jsonlAdapter.defaultRoots({}, '/home/u')).toEqual(['/home/u/.local/share/throughline/import']);
    expect(jsonlAdapter.defaultRoots({ XDG_DATA_HOME: '/data' }, '/home/u')).toEqual(['/data/throughline/import']);
    expect(jsonlAdapter.defaultRoots({ XDG_DATA_HOME: 'rel' }, '/home/u')).toEqual(['/home/u/.local/share/throughline/import']);
    expect(jsonlAdapter.isSessionFile('/x/a.jsonl')).toBe(true);
    expect(jsonlAdapter.isSessionFile('/x/a.json')).toBe(false);
  });

  it('maps conversations, roles, kinds and metadata', () => {
    const parsed = parseAll(jsonlAdapter, basic.path, basic.text);
    expect(parsed.errors).toEqual([]);
    const convs = fold(parsed.ops);
    expect([...convs.keys()]).toEqual(['fix-login', 'side-quest']);
    const main = convs.get('fix-login');
    expect(main?.meta).toEqual({
      sessionId: 'fix-login',
      workspace: '/home/me/shop',
      createdAt: Date.parse('2025-06-01T09:00:00Z'),
      updatedAt: Date.parse('2025-06-01T11:00:00Z'),
      title: 'The login form rejects valid passwords.',
      titleRank: 1,
      summary: 'Found the inverted hash check.',
    });
    expect(countKinds(main?.entries ?? [])).toEqual({
      'message/user': 2, 'message/assistant': 1, 'thinking/assistant': 1, 'tool_call/tool': 1,
      'tool_result/tool': 1, 'compaction/system': 1, 'reset/system': 1,
    });
    const entries = main?.entries ?? [];
    expect(entries.map((e) => e.seq)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(entries.filter((e) => e.indexed).map((e) => e.text)).toEqual([
      'The login form rejects valid passwords.\nSee issue 42.', 'Let me run the tests.', 'Back to the login bug',
    ]);
    expect(entries[1]).toMatchObject({ author: 'my-agent', ts: Date.parse('2025-06-01T09:00:09Z') });
    expect(entries[4]).toMatchObject({ toolName: 'bash', toolStatus: 'error', sourceId: 'r1', parentSourceId: '#5' });
    expect(entries[5]).toMatchObject({ kind: 'compaction', firstKeptSourceId: 'r1', parentSourceId: 'r1' });
    // Linear conversations send no leaf ops: everything is on the path.
    expect(main?.leaf).toBeUndefined();
    expect(convs.get('side-quest')?.meta).toEqual({
      sessionId: 'side-quest', title: 'Side quest', titleRank: 3, parentKey: 'fix-login', isSubagent: true,
    });
    expect(convs.get('side-quest')?.entries.map((e) => e.text)).toEqual(['Look up bcrypt costs']);
  });

  it('reports malformed lines and keeps parsing', () => {
    const bad = writeFile('bad.jsonl', [
      { type: 'message', role: 'user', text: 'orphan' },
      { type: 'conversation', id: 'c' },
      'not json',
      '"a string"',
      { role: 'user', text: 'no type' },
      { type: 'message', role: 'robot', text: 'x' },
      { type: 'message', role: 'user' },
      { type: 'message', role: 'user', text: 'x', ts: 'yesterday' },
      { type: 'message', role: 'user', text: 'x', kind: 'compaction' },
      { type: 'conversation' },
      { type: 'from-the-future', payload: 1 },
      { type: 'message', role: 'user', text: 'still here' },
    ]);
    const parsed = parseAll(jsonlAdapter, bad.path, bad.text);
    expect(parsed.errors.map((e) => e.lineNo)).toEqual([1, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(parsed.errors.map((e) => e.message)).toEqual([
      'jsonl: line before any "conversation" line and without "conversation"',
      'jsonl: line is not valid JSON',
      'jsonl: line is not a JSON object',
      'jsonl: line has no "type"',
      'jsonl: unknown role "robot" (use user, assistant, tool, system)',
      'jsonl: a "message" line needs "text" as a string',
      'jsonl: "ts" must be an ISO date or epoch milliseconds',
      'jsonl: unknown kind "compaction"',
      'jsonl: a "conversation" line needs "id" as a string',
    ]);
    expect(only(fold(parsed.ops)).entries.map((e) => [e.seq, e.text])).toEqual([[0, 'still here']]);
  });

  it('supports branches: parent and leaf lines decide the active path', () => {
    const tree = writeFile('tree.jsonl', [
      { type: 'conversation', id: 't', title: 'Tree' },
      { type: 'message', role: 'user', text: 'start', id: 'a' },
      { type: 'message', role: 'assistant', text: 'first try', id: 'b' },
      { type: 'message', role: 'assistant', text: 'second try', id: 'c', parent: 'a' },
      { type: 'message', role: 'user', text: 'go on', id: 'd' },
    ]);
    const conv = only(fold(parseAll(jsonlAdapter, tree.path, tree.text).ops));
    expect(conv.leaf).toBe('d');
    expect([...activePath(conv)]).toEqual(['d', 'c', 'a']);
    const moved = writeFile('tree2.jsonl', [...completeLines(tree.text), { type: 'leaf', id: 'b' }]);
    const conv2 = only(fold(parseAll(jsonlAdapter, moved.path, moved.text).ops));
    expect([...activePath(conv2)]).toEqual(['b', 'a']);
    expect(conv2.meta.title).toBe('Tree');
  });

  it('resumes from stored state at every line with the same ops as one pass', () => {
    const whole = parseAll(jsonlAdapter, basic.path, basic.text).ops;
    const n = completeLines(basic.text).length;
    for (let cut = 0; cut <= n; cut++) {
      const resumed = parseResumed(jsonlAdapter, basic.path, basic.text, cut);
      expect(resumed.ops).toEqual(whole);
    }
  });

  it('parses the example in docs/import-format.md', () => {
    const doc = readFileSync(fileURLToPath(new URL('../../docs/import-format.md', import.meta.url)), 'utf8');
    const block = /```jsonl\n([\s\S]*?)```/.exec(doc)?.[1] ?? '';
    const parsed = feed(jsonlAdapter.createParser('doc.jsonl', undefined), completeLines(block));
    expect(parsed.errors).toEqual([]);
    const conv = only(fold(parsed.ops));
    expect(conv.meta.title).toBe('Fix the login bug');
    expect(countKinds(conv.entries)).toEqual({
      'message/user': 1, 'message/assistant': 1, 'tool_call/tool': 1, 'tool_result/tool': 1,
      'compaction/system': 1, 'reset/system': 1,
    });
  });
});
