// A tool call's entry text is the argument that says most about it, chosen by one list for every
// agent: the same call reads the same whether pi, Claude Code or Codex made it. (pi had a shorter
// list of its own, so a pi sub-agent call read as raw JSON and an argv command was not joined.)
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SessionManager } from '@mariozechner/pi-coding-agent';
import { afterAll, expect, test } from 'vitest';
import { piAdapter } from '../../src/main/ingest/adapters/pi.js';
import { claudeCodeAdapter } from '../../src/main/ingest/adapters/claude-code.js';
import { argSummary } from '../../src/main/ingest/adapters/text.js';
import { fold, only, parseAll } from '../helpers/ops.js';

const tmp = mkdtempSync(join(tmpdir(), 'throughline-calls-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const CALLS: Record<string, unknown>[] = [
  { description: 'Review the login flow', prompt: 'Read src/login.ts and list the bugs' },
  { cmd: ['bash', '-lc', 'npm test -- login'] },
  { file_path: '/work/app/src/login.ts', path: 'ignored' },
  { command: 'x'.repeat(400) },
];

function piCallTexts(): string[] {
  const sm = SessionManager.create('/work/app', tmp);
  sm.appendMessage({ role: 'user', content: [{ type: 'text', text: 'Fix the login' }], timestamp: Date.now() });
  sm.appendMessage({
    role: 'assistant',
    content: CALLS.map((args, i) => ({ type: 'toolCall' as const, id: `call-${i}`, name: 'task', arguments: args })),
    api: 'openai-completions', provider: 'test', model: 'test-model', stopReason: 'stop', timestamp: Date.now(),
    usage: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0, totalTokens: 2, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } },
  });
  const file = sm.getSessionFile()!;
  const conv = only(fold(parseAll(piAdapter, file, readFileSync(file, 'utf8')).ops));
  return conv.entries.filter((e) => e.kind === 'tool_call').map((e) => e.text);
}

function claudeCallTexts(): string[] {
  const file = join(tmp, 'claude', '-work-app', '6f1c0c5e-0000-4000-8000-000000000001.jsonl');
  const line = JSON.stringify({
    type: 'assistant', uuid: 'a1', parentUuid: null, sessionId: '6f1c0c5e-0000-4000-8000-000000000001', cwd: '/work/app', timestamp: '2026-01-01T00:00:00Z',
    message: { role: 'assistant', content: CALLS.map((input, i) => ({ type: 'tool_use', id: `toolu_${i}`, name: 'Task', input })) },
  });
  const conv = only(fold(parseAll(claudeCodeAdapter, file, line + '\n').ops));
  return conv.entries.filter((e) => e.kind === 'tool_call').map((e) => e.text);
}

test('pi and Claude Code tool calls read the same, by the one list', () => {
  const expected = ['Review the login flow', 'bash -lc npm test -- login', '/work/app/src/login.ts', argSummary({ command: 'x'.repeat(400) })];
  expect(piCallTexts()).toEqual(expected);
  expect(claudeCallTexts()).toEqual(expected);
  expect(expected[3]!.length).toBeGreaterThan(300);
});
