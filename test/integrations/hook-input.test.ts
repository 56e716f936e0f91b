// The hook's stdin is checked before use (src/main/hook/hook-input.ts): the hand-written check gives
// what a zod schema of the same fields gives, and a hook given a field of the wrong type refuses
// the input, naming the field in the hook log, instead of failing later or passing it on.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { parseHookInput } from '../../src/main/hook/hook-input.js';
import { runClaudeHook } from '../../src/main/hook/claude.js';
import { runCodexHook } from '../../src/main/hook/codex.js';
import { runGeminiHook } from '../../src/main/hook/gemini.js';

/** The same guarantees, as zod would state them. */
const AsZod = z.object({
  session_id: z.string().optional(),
  transcript_path: z.string().nullable().optional(),
  cwd: z.string().optional(),
  hook_event_name: z.string().optional(),
  prompt: z.string().optional(),
  source: z.string().optional(),
});

const SAMPLES: string[] = [
  '{"session_id":"s","transcript_path":"/t.jsonl","cwd":"/w","hook_event_name":"UserPromptSubmit","prompt":"hi","permission_mode":"default"}',
  '{"hook_event_name":"SessionStart","source":"compact","session_id":"s"}',
  '{"transcript_path":null,"prompt":"codex ephemeral","turn_id":"t1","model":"gpt-5"}',
  '{}',
  '{"prompt":42}',
  '{"prompt":null}',
  '{"session_id":{"id":"s"}}',
  '{"cwd":["/a"]}',
  '{"transcript_path":7}',
  '{"hook_event_name":true}',
  '{"source":1.5,"prompt":"x"}',
  '[]',
  '"a string"',
  'null',
  '3',
  '{"prompt":"unterminated',
  '',
];

describe('parseHookInput', () => {
  it('accepts and refuses exactly what the zod schema of the same fields does, and keeps the same data', () => {
    for (const stdin of SAMPLES) {
      const mine = parseHookInput(stdin);
      let value: unknown;
      try {
        value = JSON.parse(stdin);
      } catch {
        expect(mine.ok, stdin).toBe(false);
        continue;
      }
      const theirs = AsZod.safeParse(value);
      expect(mine.ok, stdin).toBe(theirs.success);
      if (mine.ok && theirs.success) expect(mine.input, stdin).toEqual(theirs.data);
    }
  });

  it('names the field and what it was', () => {
    expect(parseHookInput('{"prompt":42}')).toEqual({ ok: false, reason: 'prompt: expected a string, got number' });
    expect(parseHookInput('{"session_id":null}')).toEqual({ ok: false, reason: 'session_id: expected a string, got null' });
    expect(parseHookInput('{"transcript_path":["a"]}')).toEqual({ ok: false, reason: 'transcript_path: expected a string or null, got array' });
    expect(parseHookInput('[1]')).toEqual({ ok: false, reason: 'expected a JSON object, got array' });
  });
});

describe('each hook refuses a wrong-typed field before doing anything with it', () => {
  const cases: [string, (stdin: string, o: object, log: (m: string) => void) => Promise<string>, string][] = [
    ['claude', runClaudeHook, 'hook'],
    ['codex', runCodexHook, 'codex hook'],
    ['gemini', runGeminiHook, 'gemini hook'],
  ];
  for (const [agent, run, what] of cases) {
    it(agent, async () => {
      const lines: string[] = [];
      const event = agent === 'gemini' ? 'BeforeAgent' : 'UserPromptSubmit';
      const out = await run(JSON.stringify({ hook_event_name: event, prompt: 'the redis eviction bug', session_id: 1234, cwd: '/w' }), { budgetMs: 500, socketPath: '/nonexistent/agent.sock', dbPath: '/nonexistent/index.sqlite', settingsPath: '/nonexistent/settings.json' }, (m) => lines.push(m));
      expect(out).toBe('');
      expect(lines).toEqual([`${what} input refused: session_id: expected a string, got number`]);
    });
  }
});
