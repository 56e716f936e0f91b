import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { codexAdapter as adapter } from '../../src/main/ingest/adapters/codex.js';
import { isInjected, outputInfo } from '../../src/main/ingest/adapters/codex-content.js';
import { toCodexOutput } from '../../src/main/ingest/adapters/codex-shapes.js';
import type { LineError } from '../../src/main/ingest/types.js';
import { countKinds, entries, fileLines, fold, isLineError, parseFile, parseResumed, run, snapshot } from '../helpers/ops-claude.js';

const FIX = fileURLToPath(new URL('../fixtures', import.meta.url));
const ROLLOUT = path.join(FIX, 'codex/rollout-2026-01-02T18-39-45-019b7f94-51b4-7593-922e-ba12b5b73b52.jsonl');
const TURN2 = path.join(FIX, 'codex/codemie-turn-2-cli0.129.jsonl');
const SPAWN = path.join(FIX, 'codex/codemie-turn-spawn-skill-subagent.jsonl');
const TUI = path.join(FIX, 'large/codex/rollout-2026-05-11T11-26-55-019e1625-789d-76c0-80ab-3724b5ddb799.jsonl');
const DESKTOP = path.join(FIX, 'large/codex/rollout-2026-05-11T13-28-45-019e1695-0522-7c83-8b39-0dd379793f80.jsonl');

const only = (file: string) => {
  const f = parseFile(adapter, file);
  expect(f.size).toBe(1);
  const [[key, conv]] = [...f.entries()];
  return { key: key!, meta: conv!.meta, list: entries(f, key!) };
};
const raw = (file: string) => fileLines(file).map((l) => JSON.parse(l) as { type: string; payload: Record<string, unknown> });

describe('codex adapter: files and roots', () => {
  it('honours CODEX_HOME and recognises rollout files', () => {
    expect(adapter.kind).toBe('codex');
    expect(adapter.defaultRoots({}, '/home/u')).toEqual(['/home/u/.codex/sessions']);
    expect(adapter.defaultRoots({ CODEX_HOME: '/ch' }, '/home/u')).toEqual(['/ch/sessions']);
    expect(adapter.isSessionFile(ROLLOUT)).toBe(true);
    expect(adapter.isSessionFile('/s/2026/01/02/history.jsonl')).toBe(false);
    expect(adapter.isSessionFile('/s/rollout-x.json')).toBe(false);
  });
});

describe('codex: injected context and tool outcomes', () => {
  it.each([
    ['<environment_context>\n  <cwd>/w</cwd>\n</environment_context>', true],
    ['<user_instructions>\nbe terse\n</user_instructions>', true],
    ['<permissions instructions>\nsandbox\n</permissions instructions>', true],
    ['# AGENTS.md instructions for /w\n\n<INSTRUCTIONS>\n…\n</INSTRUCTIONS>', true],
    ['<turn_aborted>\ninterrupted\n</turn_aborted>', true],
    ['<some_new_context>\nx\n</some_new_context>', true],
    ['what does <div>x</div> render?', false],
    ['<div>hello</div>', false],
  ])('%j injected: %s', (text, injected) => {
    expect(isInjected(text)).toBe(injected);
  });

  it.each([
    ['Chunk ID: ab12\nWall time: 0.1 seconds\nProcess exited with code 1\nOutput:\nfail', 'error'],
    ['Chunk ID: ab12\nProcess exited with code 0\nOutput:\nProcess exited with code 3', 'ok'],
    ['{"output":"x","metadata":{"exit_code":0}}', 'ok'],
    ['{"output":"x","metadata":{"exit_code":127}}', 'error'],
    ['plain output', 'ok'],
  ])('%j → %s', (output, status) => {
    expect(outputInfo(toCodexOutput(output)).status).toBe(status);
  });
});

describe('codex: an exec rollout with shell calls', () => {
  const { key, meta, list } = only(ROLLOUT);

  it('takes identity, workspace and times from session_meta', () => {
    expect(key).toBe('019b7f94-51b4-7593-922e-ba12b5b73b52');
    expect(meta).toEqual({
      sessionId: key,
      createdAt: Date.parse('2026-01-02T16:39:45.332Z'),
      workspace: '/Users/Nikita_Levyankov/repos/EPMCDME/codemie-ai/codemie-code',
      updatedAt: Date.parse('2026-01-02T16:39:58.808Z'),
      title: 'what is current repository about? summarize purpuse and explain goals',
      titleRank: 1,
    });
  });

  it('keeps AGENTS.md and environment context out of user text, and the event copy out too', () => {
    expect(list.filter((e) => e.role === 'user').map((e) => e.text)).toEqual([
      'what is current repository about? summarize purpuse and explain goals',
    ]);
    expect(list.some((e) => /AGENTS\.md instructions|<environment_context>/.test(e.text))).toBe(false);
  });

  it('maps reasoning, calls and outputs, settling each call by call_id', () => {
    expect(countKinds(list)).toEqual({ 'user/message': 1, 'assistant/thinking': 3, 'tool/tool_call': 3, 'tool/tool_result': 3 });
    expect(list.filter((e) => e.kind === 'thinking').map((e) => e.text.slice(0, 41))).toEqual([
      '[reasoning]', // encrypted only
      '[reasoning]',
      '**Clarifying documentation instructions**', // its summary text
    ]);
    expect(list.filter((e) => e.kind === 'tool_call').map((e) => [e.toolName, e.toolStatus, e.text])).toEqual([
      ['shell', 'ok', 'bash -lc ls'],
      ['shell', 'ok', "bash -lc rg --files -g 'AGENTS.md'"],
      ['shell', 'ok', "bash -lc sed -n '1,160p' README.md"],
    ]);
    const result = list.find((e) => e.kind === 'tool_result' && e.sourceId === 'line:18')!;
    expect(result).toMatchObject({ role: 'tool', toolName: 'shell', toolStatus: 'ok', text: 'docs/AGENTS.md\n', indexed: false });
    expect(list.every((e) => e.indexed === (e.kind === 'message'))).toBe(true);
  });
});

describe('codex: a 0.129 rollout with developer messages', () => {
  const { meta, list } = only(TURN2);

  it('stores two user turns and two replies, nothing from developer or injected messages', () => {
    expect(list.map((e) => [e.role, e.kind, e.text])).toEqual([
      ['user', 'message', 'Hello, Codex! Please explain what you do.'],
      ['assistant', 'thinking', '[reasoning]'],
      ['assistant', 'message', 'I am Codex, an AI coding assistant by OpenAI.'],
      ['user', 'message', 'What languages can you work with?'],
      ['assistant', 'thinking', '[reasoning]'],
      ['assistant', 'message', 'I can work with many programming languages including Python, JavaScript, TypeScript, Go, and Rust.'],
    ]);
    expect(meta).toMatchObject({
      sessionId: 'a1b2c3d4-e5f6-7890-abcd-ef1234567890',
      workspace: '/home/user/project',
      title: 'Hello, Codex! Please explain what you do.',
      summary: 'I am Codex, an AI coding assistant by OpenAI.',
    });
  });

  it('stores a compacted line as a compaction whose first kept entry is itself', () => {
    // No public rollout has a `compacted` line; this one follows Codex's RolloutItem::Compacted shape.
    const compacted = JSON.stringify({
      timestamp: '2026-05-12T10:02:00.000Z',
      type: 'compacted',
      payload: { message: 'The user asked what Codex does and which languages it supports.', replacement_history: [] },
    });
    const lines = [...fileLines(TURN2), compacted, fileLines(TURN2)[17]!];
    const f = fold(run(adapter, TURN2, lines).ops);
    const list = entries(f, 'a1b2c3d4-e5f6-7890-abcd-ef1234567890');
    const c = list.find((e) => e.kind === 'compaction')!;
    expect(c).toMatchObject({
      role: 'system',
      text: 'The user asked what Codex does and which languages it supports.',
      indexed: false,
      sourceId: `line:${lines.length - 1}`,
      firstKeptSourceId: `line:${lines.length - 1}`,
    });
    expect(list.at(-1)).toMatchObject({ seq: c.seq + 1, role: 'user' }); // the first entry after the boundary
  });
});

describe('codex: user text recorded twice or once', () => {
  it('keeps one copy when both the response item and the user_message event are written', () => {
    const { list } = only(TUI);
    const events = raw(TUI).filter((o) => o.type === 'event_msg' && o.payload.type === 'user_message');
    expect(events).toHaveLength(2);
    expect(list.filter((e) => e.role === 'user').map((e) => e.text)).toEqual([
      'show tools',
      "let's update the defailt context compart to 90 in env var",
    ]);
  });

  it('uses the event when the rollout has no user response item (Codex Desktop)', () => {
    const { meta, list } = only(DESKTOP);
    expect(list.filter((e) => e.role === 'user')).toHaveLength(3);
    expect(list[0]!.text).toMatch(/^\n# Files mentioned by the user:/);
    // The title is the request, not the attachment heading.
    expect(meta.title).toBe('analyze trascript and summarzie action items related to codemie and demo preapr…');
    expect(meta.workspace).toBe('/Users/Sample_User/naya');
  });

  it('takes the event when it is the only record (hand-made spawn fixture)', () => {
    const { key, meta, list } = only(SPAWN);
    expect(key).toBe('spawn-test-uuid');
    expect(meta.title).toBe('run a review');
    expect(list.map((e) => [e.kind, e.toolName ?? null, e.toolStatus ?? null])).toEqual([
      ['message', null, null],
      ['tool_call', 'exec_command', 'ok'],
      ['tool_result', 'exec_command', 'ok'],
      ['tool_call', 'spawn_agent', 'pending'], // no output item in the file
      ['tool_call', 'wait_agent', 'pending'],
    ]);
  });
});

describe('codex: tool outcomes in large rollouts', () => {
  it.each([TUI, DESKTOP])('%s: every call is settled, with non-zero exits as errors', (file) => {
    const objs = raw(file).filter((o) => o.type === 'response_item');
    const outputs = objs.filter((o) => String(o.payload.type).endsWith('_call_output'));
    const failed = outputs.filter((o) => /^Process exited with code [1-9]/m.test(String(o.payload.output).slice(0, 500)));
    const { list } = only(file);
    const calls = list.filter((e) => e.kind === 'tool_call');
    expect(calls).toHaveLength(objs.filter((o) => String(o.payload.type).endsWith('_call')).length);
    expect(calls.filter((e) => e.toolStatus === 'pending')).toHaveLength(0);
    expect(calls.filter((e) => e.toolStatus === 'error')).toHaveLength(failed.length);
    expect(list.filter((e) => e.kind === 'tool_result')).toHaveLength(outputs.length);
  });

  it('names namespaced MCP tools and custom tools', () => {
    const names = new Set(only(DESKTOP).list.map((e) => e.toolName));
    expect(names.has('mcp__node_repl__js')).toBe(true);
    const tui = only(TUI).list;
    expect(tui.find((e) => e.toolName === 'apply_patch')!.text).toMatch(/^\*\*\* Begin Patch/);
    expect(tui.filter((e) => e.toolName === 'web_search').map((e) => e.toolStatus)).toEqual(['ok', 'ok', 'ok']);
  });
});

describe('codex: older rollouts without the payload wrapper', () => {
  // Shape of Codex CLI rollouts from mid-2025 (no public fixture): a meta line, bare response items.
  const lines = [
    '{"id":"0197a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b","timestamp":"2025-06-20T10:00:00.000Z","instructions":null,"git":{"branch":"main"}}',
    '{"record_type":"state"}',
    '{"type":"message","id":null,"role":"user","content":[{"type":"input_text","text":"<environment_context>\\n  <cwd>/w</cwd>\\n</environment_context>"}]}',
    '{"type":"message","id":null,"role":"user","content":[{"type":"input_text","text":"list the files"}]}',
    '{"type":"function_call","id":"fc_1","name":"shell","arguments":"{\\"command\\":[\\"ls\\"]}","call_id":"call_1"}',
    '{"type":"function_call_output","call_id":"call_1","output":"{\\"output\\":\\"x\\\\n\\",\\"metadata\\":{\\"exit_code\\":2}}"}',
    '{"type":"message","id":"msg_1","role":"assistant","content":[{"type":"output_text","text":"ls failed."}]}',
  ];
  it('reads them the same way', () => {
    const f = fold(run(adapter, '/s/rollout-2025-06-20T10-00-00-0197a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b.jsonl', lines).ops);
    const key = '0197a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b';
    expect(f.get(key)!.meta).toMatchObject({ createdAt: Date.parse('2025-06-20T10:00:00.000Z'), title: 'list the files', summary: 'ls failed.' });
    expect(entries(f, key).map((e) => [e.kind, e.text, e.toolStatus ?? null])).toEqual([
      ['message', 'list the files', null],
      ['tool_call', 'ls', 'error'],
      ['tool_result', 'x\n', 'error'],
      ['message', 'ls failed.', null],
    ]);
  });
});

describe('codex: malformed lines and resuming', () => {
  it('skips a malformed line with a LineError and parses the rest', () => {
    const lines = fileLines(TURN2);
    const bad = [...lines.slice(0, 5), '{"type":', '42', ...lines.slice(5)];
    const r = run(adapter, TURN2, bad);
    expect(r.errors.map((e) => e.lineNo)).toEqual([6, 7]);
    expect(r.errors.every((e) => isLineError(e.error))).toBe(true);
    expect((r.errors[1]!.error as LineError).message).toBe('not a JSON object (number)');
    const list = entries(fold(r.ops), 'a1b2c3d4-e5f6-7890-abcd-ef1234567890');
    // Same entries as a clean parse; only their line-number sourceIds moved by the two inserted lines.
    expect(list.map((e) => [e.seq, e.role, e.kind, e.text])).toEqual(only(TURN2).list.map((e) => [e.seq, e.role, e.kind, e.text]));
  });

  it.each([ROLLOUT, TURN2, SPAWN, DESKTOP])('gives the same result whatever line it stops at: %s', (file) => {
    const lines = fileLines(file);
    const whole = snapshot(parseFile(adapter, file));
    for (let cut = 1; cut < lines.length; cut++) expect(snapshot(parseResumed(adapter, file, lines, cut))).toEqual(whole);
  });

  it('keeps its state small', () => {
    const r = run(adapter, TUI, fileLines(TUI));
    expect(JSON.stringify(r.state).length).toBeLessThan(2_000);
  });
});
