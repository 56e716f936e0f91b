import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { claudeCodeAdapter as adapter } from '../../src/main/ingest/adapters/claude-code.js';
import { classifyUserText, fileInfo } from '../../src/main/ingest/adapters/claude-code-content.js';
import { LineError } from '../../src/main/ingest/types.js';
import { countKinds, entries, fileLines, fold, isLineError, parseFile, parseResumed, run, snapshot, type Fold } from '../helpers/ops-claude.js';

const FIX = fileURLToPath(new URL('../fixtures', import.meta.url));
const CC = path.join(FIX, 'claude-code');
const LARGE = path.join(FIX, 'large/claude-code');
const KITCHEN = path.join(CC, 'agent-sessions-small-all-entry-types.jsonl');
const MAIN = path.join(CC, 'codemie-main-4c2ddfdc.jsonl');
const LAYOUT = path.join(CC, 'agent-sessions-subagent-layout');
const LAYOUT_SESSION = '0a1b2c3d-4e5f-4061-8071-2a3b4c5d6e7f';

const kinds = (f: Fold, conv: string) => countKinds(entries(f, conv));
const parseLines = (lines: string[], file = KITCHEN) => {
  const r = run(adapter, file, lines);
  expect(r.errors).toEqual([]);
  return fold(r.ops);
};
const raw = (file: string) => fileLines(file).map((l) => JSON.parse(l) as Record<string, unknown>);

describe('claude-code adapter: files and roots', () => {
  it('honours CLAUDE_CONFIG_DIR and recognises session files', () => {
    expect(adapter.kind).toBe('claude-code');
    expect(adapter.defaultRoots({}, '/home/u')).toEqual(['/home/u/.claude/projects']);
    expect(adapter.defaultRoots({ CLAUDE_CONFIG_DIR: '/cfg' }, '/home/u')).toEqual(['/cfg/projects']);
    expect(adapter.isSessionFile('/p/-tmp/0a1b.jsonl')).toBe(true);
    expect(adapter.isSessionFile('/p/-tmp/s/subagents/agent-a1.jsonl')).toBe(true);
    expect(adapter.isSessionFile('/p/-tmp/s/subagents/agent-a1.meta.json')).toBe(false);
  });
});

describe('claude-code: user text that is not a prompt', () => {
  // Wrappers Claude Code writes as user text (shapes from its transcripts; few are in the fixtures).
  it.each([
    ['fix the bug', { kind: 'prompt', text: 'fix the bug' }],
    ['<command-name>/model</command-name>\n<command-message>model</command-message>\n<command-args>opus</command-args>', { kind: 'command', text: '/model opus' }],
    ['<command-message>review</command-message>\n<command-name>/review</command-name>', { kind: 'command', text: '/review' }],
    ['<bash-input>git status</bash-input>', { kind: 'bash', role: 'user', text: '$ git status' }],
    ['<bash-stdout>On branch main</bash-stdout><bash-stderr></bash-stderr>', { kind: 'bash', role: 'system', text: 'On branch main' }],
    ['<local-command-stdout>Set model to opus</local-command-stdout>', { kind: 'notice', text: 'Set model to opus' }],
    ['<local-command-stdout></local-command-stdout>', { kind: 'skip' }],
    ['[Request interrupted by user for tool use]', { kind: 'notice', text: '[Request interrupted by user for tool use]' }],
    ['<task-notification>\n<status>completed</status>\n</task-notification>', { kind: 'notice', text: '<task-notification>\n<status>completed</status>\n</task-notification>' }],
    ['<system-reminder>be brief</system-reminder>\nand this', { kind: 'prompt', text: 'and this' }],
    ['<system-reminder>only a reminder</system-reminder>', { kind: 'skip' }],
  ])('%j', (text, expected) => {
    expect(classifyUserText(text)).toEqual(expected);
  });

  it('tells sub-agent files from session files by name and folder', () => {
    expect(fileInfo('/p/x/0a1b2c3d-4e5f-4061-8071-2a3b4c5d6e7f.jsonl')).toEqual({
      stem: '0a1b2c3d-4e5f-4061-8071-2a3b4c5d6e7f',
      sessionId: '0a1b2c3d-4e5f-4061-8071-2a3b4c5d6e7f',
    });
    expect(fileInfo('/p/x/agent-50243ee8.jsonl')).toEqual({ stem: 'agent-50243ee8', agentId: '50243ee8', sessionDir: undefined });
    expect(fileInfo('/p/x/s1/subagents/agent-acompact-1.jsonl')).toEqual({ stem: 'agent-acompact-1', agentId: 'acompact-1', sessionDir: 's1' });
    expect(fileInfo(KITCHEN).agentId).toBeUndefined(); // "agent-sessions-…" is not a sub-agent id
  });
});

describe('claude-code: kitchen-sink file of modern entry types', () => {
  const f = parseFile(adapter, KITCHEN);
  const main = 'ses_stage0_small';
  const side = 'ses_stage0_small/sidechain';

  it('keys the session by its sessionId and puts isSidechain lines without agentId in a child', () => {
    expect([...f.keys()].sort()).toEqual([main, side]);
    expect(f.get(side)!.meta).toMatchObject({ parentKey: main, isSubagent: true, title: 'Hello', titleRank: 1 });
    expect(f.get(main)!.meta.parentKey).toBeUndefined();
  });

  it('takes the workspace from real cwds only (scrubbed placeholders are ignored)', () => {
    expect(f.get(main)!.meta.workspace).toBe('/tmp');
    expect(f.get(side)!.meta.workspace).toBe('/tmp');
    expect(f.get(side)!.meta.createdAt).toBe(Date.parse('2025-12-16T00:00:01.000Z'));
    expect(f.get(main)!.meta.updatedAt).toBe(Date.parse('2025-12-16T00:00:20.000Z'));
  });

  it('produces entries of each kind and ignores bookkeeping lines without errors', () => {
    expect(kinds(f, main)).toEqual({
      'system/compaction': 2,
      'assistant/thinking': 2,
      'assistant/message': 2,
      'tool/tool_call': 2,
      'tool/tool_result': 1,
      'system/custom': 1, // the <synthetic> assistant message
      'user/message': 5,
    });
    const sideEntries = entries(f, side).map((e) => [e.role, e.kind, e.text, e.toolStatus ?? null]);
    expect(sideEntries).toEqual([
      ['user', 'message', 'Hello', null],
      ['assistant', 'thinking', 'Reasoning goes here.', null],
      ['assistant', 'message', "I'll list files.", null],
      ['tool', 'tool_call', 'ls', 'pending'], // its tool_use has no id, so no result can settle it
      ['tool', 'tool_result', 'ok', 'ok'],
      ['tool', 'tool_result', "The user doesn't want to proceed with this tool use.", 'error'],
      ['assistant', 'message', 'Done.', null],
      ['assistant', 'message', 'Partial reply', null],
    ]);
  });

  it('settles a tool call when its result arrives and names the result', () => {
    const list = entries(f, main);
    const call = list.find((e) => e.kind === 'tool_call' && e.toolName === 'Bash')!;
    const result = list.find((e) => e.kind === 'tool_result')!;
    expect(call).toMatchObject({ role: 'tool', toolStatus: 'ok', text: 'ls', indexed: false, sourceId: 'a-nested-1' });
    expect(result).toMatchObject({ role: 'tool', toolName: 'Bash', toolStatus: 'ok', text: 'a.txt\nb.txt\n', indexed: false });
    // thinking, text and tool_use of one line keep the line's order.
    const fromLine = list.filter((e) => e.sourceId === 'a-nested-1').map((e) => e.kind);
    expect(fromLine).toEqual(['thinking', 'message', 'tool_call']);
  });

  it('joins compact_boundary and its isCompactSummary line into one compaction entry', () => {
    const compaction = entries(f, main)[0]!;
    expect(compaction).toMatchObject({
      role: 'system',
      kind: 'compaction',
      text: 'Summary of prior context.',
      indexed: false,
      sourceId: 's4',
      parentSourceId: 's3', // logicalParentUuid: a boundary's parentUuid is null
      firstKeptSourceId: 's4',
    });
  });

  describe('title ranks: custom-title > ai-title > summary line > first prompt', () => {
    const lines = fileLines(KITCHEN);
    const without = (...types: string[]) => lines.filter((l) => !types.includes((JSON.parse(l) as { type: string }).type));
    // The fixture's summary line points at a leaf outside the file (as real ones usually do); here it
    // is pointed at the main conversation's assistant line so that it counts.
    const pointed = lines.map((l) => l.replace('"leafUuid":"leaf_stage0"', '"leafUuid":"a-nested-1"'));
    const pointedWithout = (...types: string[]) => pointed.filter((l) => !types.includes((JSON.parse(l) as { type: string }).type));
    const title = (ls: string[]) => parseLines(ls).get(main)!.meta;

    it('uses the custom title over everything', () => {
      expect(f.get(main)!.meta).toMatchObject({ title: 'Stage0 small fixture', titleRank: 4 });
      expect(title(pointed)).toMatchObject({ title: 'Stage0 small fixture', titleRank: 4 });
    });
    it('falls back to the ai title, then the summary, then the first prompt', () => {
      expect(title(pointedWithout('custom-title'))).toMatchObject({ title: 'Stage0 AI title', titleRank: 3 });
      expect(title(pointedWithout('custom-title', 'ai-title'))).toMatchObject({
        title: 'Claude Code: Context usage summary',
        titleRank: 2,
        summary: 'Claude Code: Context usage summary',
      });
      // Unpointed, the summary belongs to another session and is not used: the first prompt wins.
      expect(title(without('custom-title', 'ai-title'))).toMatchObject({ title: '[trimmed for fixture]', titleRank: 1 });
      expect(title(without('custom-title', 'ai-title')).summary).toBe('Listing the files.');
    });
  });
});

describe('claude-code: a plain session', () => {
  const f = parseFile(adapter, MAIN);
  const key = '4c2ddfdc-b619-4525-8d03-1950fb1b0257';

  it('keys by the file name and reads title, preview, workspace and times', () => {
    expect([...f.keys()]).toEqual([key]);
    expect(f.get(key)!.meta).toEqual({
      sessionId: key,
      workspace: '/tmp/private',
      createdAt: Date.parse('2025-12-10T19:37:45.343Z'),
      updatedAt: Date.parse('2025-12-10T19:38:31.216Z'),
      title: 'create hello.py, md and js',
      titleRank: 1,
      summary: "I'll create three simple files: hello.py, hello.md, and hello.js.",
    });
  });

  it('turns a message split over four lines into one message and three tool calls, all settled', () => {
    const list = entries(f, key).map((e) => [e.seq, e.role, e.kind, e.toolName ?? null, e.toolStatus ?? null]);
    expect(list.slice(0, 8)).toEqual([
      [0, 'user', 'message', null, null],
      [1, 'assistant', 'message', null, null],
      [2, 'tool', 'tool_call', 'Write', 'ok'],
      [3, 'tool', 'tool_call', 'Write', 'ok'],
      [4, 'tool', 'tool_call', 'Write', 'ok'],
      [5, 'tool', 'tool_result', 'Write', 'ok'],
      [6, 'tool', 'tool_result', 'Write', 'ok'],
      [7, 'tool', 'tool_result', 'Write', 'ok'],
    ]);
    expect(kinds(f, key)).toEqual({ 'user/message': 3, 'assistant/message': 4, 'tool/tool_call': 6, 'tool/tool_result': 6 });
    // A user line carrying only tool results is not user text.
    expect(entries(f, key).filter((e) => e.role === 'user').map((e) => e.text)).toEqual([
      'create hello.py, md and js',
      'update py with one liner comment',
      'delete js',
    ]);
  });

  it('skips a malformed line with a LineError and parses the rest', () => {
    const lines = fileLines(MAIN);
    const bad = [...lines.slice(0, 3), 'not json {', '[1,2,3]', '{"type":"user","uuid":"x"}', ...lines.slice(3)];
    const r = run(adapter, MAIN, bad);
    expect(r.errors.map((e) => e.lineNo)).toEqual([4, 5, 6]);
    expect(r.errors.every((e) => isLineError(e.error))).toBe(true);
    expect(r.errors.map((e) => (e.error as LineError).message)).toEqual([
      expect.stringMatching(/^invalid JSON/),
      'not a JSON object (array)',
      'user line without a message object',
    ]);
    expect(snapshot(fold(r.ops))).toEqual(snapshot(f));
  });
});

describe('claude-code: assistant messages split over lines', () => {
  /** Message ids of assistant lines having a block of `type`, from the raw file. */
  const idsWith = (file: string, type: string) =>
    new Set(
      raw(file)
        .filter((o) => o.type === 'assistant')
        .map((o) => o.message as { id: string; content: { type: string }[] })
        .filter((m) => m.content.some((b) => b.type === type))
        .map((m) => m.id),
    );

  it.each(['session-624a4a58.jsonl', 'session-3fe1b6bc.jsonl', 'session-196820da.jsonl', 'session-9eda1058.jsonl'])(
    '%s: one message entry and one thinking entry per message id',
    (name) => {
      const file = path.join(LARGE, name);
      const f = parseFile(adapter, file);
      const [key] = [...f.keys()];
      const k = kinds(f, key!);
      expect(k['assistant/message']).toBe(idsWith(file, 'text').size);
      expect(k['assistant/thinking'] ?? 0).toBe(idsWith(file, 'thinking').size);
    },
  );

  it('keeps the thinking and text of a split message with the seqs of their first lines', () => {
    const f = parseFile(adapter, path.join(LARGE, 'session-624a4a58.jsonl'));
    const list = entries(f, '624a4a58-b34c-462d-a70d-13421c8125a8');
    const think = list.find((e) => e.sourceId === '6191ddda-7f81-49a4-80f3-9376de1913de')!;
    const text = list.find((e) => e.sourceId === '399aa674-bf2f-44b7-b31f-566e8504b791')!;
    expect(think).toMatchObject({ kind: 'thinking', indexed: false });
    expect(text).toMatchObject({ kind: 'message', role: 'assistant', indexed: true, seq: think.seq + 1 });
    expect(text.text).toMatch(/^I'll continue by reading the current Phase 4\.1 section/);
  });

  it('accumulates text blocks of one message id into one entry re-emitted with the same seq', () => {
    // Derived from a real line: the same message streamed as two text lines (as Claude Code does
    // when a reply has text, then a tool call, then more text).
    const line = fileLines(MAIN).find((l) => l.includes('"uuid":"f4dfad6e'))!;
    const second = line.replace('"uuid":"f4dfad6e', '"uuid":"f4dfad6f').replace(/"text":"[^"]*"/, '"text":"And more."');
    const r = run(adapter, MAIN, [line, second]);
    const texts = r.ops.flatMap((o) => (o.op === 'entry' ? [[o.entry.seq, o.entry.text]] : []));
    expect(texts).toEqual([
      [0, "I'll create three simple files: hello.py, hello.md, and hello.js."],
      [0, "I'll create three simple files: hello.py, hello.md, and hello.js.\n\nAnd more."],
    ]);
  });
});

describe('claude-code: compaction in a real session', () => {
  const f = parseFile(adapter, path.join(LARGE, 'session-624a4a58.jsonl'));
  const list = entries(f, '624a4a58-b34c-462d-a70d-13421c8125a8');

  it('stores the whole summary as a compaction whose first kept entry resolves to itself', () => {
    const compactions = list.filter((e) => e.kind === 'compaction');
    expect(compactions).toHaveLength(1);
    const c = compactions[0]!;
    expect(c).toMatchObject({
      role: 'system',
      indexed: false,
      sourceId: '0ef6aa04-0891-4fae-8565-2dae6810816f',
      parentSourceId: 'c199c148-d599-4171-a83b-3589965168df',
      firstKeptSourceId: '0ef6aa04-0891-4fae-8565-2dae6810816f',
    });
    expect(c.text).toMatch(/^This session is being continued from a previous conversation/);
    expect(c.text).toHaveLength(13364);
    // How the store resolves the boundary: the first entry whose sourceId is firstKeptSourceId.
    expect(list.find((e) => e.sourceId === c.firstKeptSourceId)!.seq).toBe(c.seq);
    expect(list.some((e) => e.role === 'user' && e.text.startsWith('This session is being continued'))).toBe(false);
  });

  it('counts prompts, commands and interrupt notices', () => {
    expect(kinds(f, '624a4a58-b34c-462d-a70d-13421c8125a8')).toEqual({
      'user/message': 15, // 14 prompts and /clear
      'assistant/thinking': 55,
      'assistant/message': 29,
      'tool/tool_call': 48,
      'tool/tool_result': 48,
      'system/custom': 3, // [Request interrupted by user]
      'system/compaction': 1,
    });
  });
});

describe('claude-code: titles skip what the user did not type as a prompt', () => {
  it('ignores caveats, /clear, empty command output and skill bodies', () => {
    const f = parseFile(adapter, path.join(LARGE, 'session-3fe1b6bc.jsonl'));
    const key = '3fe1b6bc-dbd0-4320-b980-4f147befa187';
    expect(f.get(key)!.meta.title).toBe('analyze existing codex folder for sessions structure and writen details. there…');
    expect(
      entries(f, key)
        .slice(0, 3)
        .map((e) => [e.role, e.kind, e.text.slice(0, 37)]),
    ).toEqual([
      ['user', 'message', '/clear'],
      ['user', 'message', '/bmad:bmm:workflows:create-tech-spec'],
      ['assistant', 'message', "I'll help you execute the create-tech"],
    ]);
  });

  it('does not take summary lines that describe other sessions', () => {
    for (const name of ['incremental-simple/turn-2.jsonl', 'session-9eda1058.jsonl']) {
      const f = parseFile(adapter, path.join(LARGE, name));
      const [meta] = [...f.values()].map((c) => c.meta);
      expect(meta!.titleRank).toBe(1);
    }
    const f = parseFile(adapter, path.join(LARGE, 'session-9eda1058.jsonl'));
    const key = '9eda1058-9706-484a-b992-d03f9cfa2546';
    expect(f.get(key)!.meta.title).toBe('show tools and store response in file');
    expect(entries(f, key).filter((e) => e.kind === 'custom').map((e) => e.text)).toEqual(['[Request interrupted by user for tool use]']);
  });

  it('uses a summary line once its leaf is in the file, before or after it', () => {
    const file = path.join(CC, 'episodic-short-conversation.jsonl');
    const lines = fileLines(file).map((l) => l.replace('1c9b07e0-afba-4daf-a52b-1506632fe48f', 'adaebf86-70f8-448e-8e27-8f2636608fc5'));
    const title = 'Prerequisites Checking: Unveiling Hidden Requirements and Technical Nuances';
    const key = '982581eb-41b9-46da-86c1-ac34168117a8';
    for (const order of [lines, [...lines.slice(1), lines[0]!]]) {
      expect(parseLines(order, file).get(key)!.meta).toMatchObject({ title, titleRank: 2, summary: title });
    }
    expect(parseFile(adapter, file).get(key)!.meta.titleRank).toBe(1);
  });
});

describe('claude-code: sub-agents', () => {
  it('new layout: <session>/subagents/agent-<id>.jsonl is a child titled by its agent type and task', () => {
    const file = path.join(LAYOUT, LAYOUT_SESSION, 'subagents/agent-a0ad4f44468bdf20d.jsonl');
    const f = parseFile(adapter, file);
    const key = `${LAYOUT_SESSION}/agent-a0ad4f44468bdf20d`;
    expect([...f.keys()]).toEqual([key]);
    expect(f.get(key)!.meta).toMatchObject({
      sessionId: key,
      parentKey: LAYOUT_SESSION, // from the folder: these lines carry "agent-<id>" as sessionId
      isSubagent: true,
      title: 'general-purpose: Search the repo for TODO comments',
      workspace: '/tmp',
    });
    expect(kinds(f, key)).toEqual({ 'user/message': 1, 'assistant/message': 1, 'tool/tool_call': 1, 'tool/tool_result': 1 });
    const parent = parseFile(adapter, path.join(LAYOUT, `${LAYOUT_SESSION}.jsonl`));
    expect([...parent.keys()]).toEqual([LAYOUT_SESSION]);
    expect(parent.get(LAYOUT_SESSION)!.meta.title).toBe('Delegate a repo search to a subagent');
  });

  it('without a .meta.json the first prompt is the title', () => {
    const file = path.join(LARGE, 'incremental-subagents/turn-2/subagents/agent-a485154.jsonl');
    const f = parseFile(adapter, file);
    const key = 'e9fb405b-169f-40eb-9396-7e75076f045d/agent-a485154';
    expect([...f.keys()]).toEqual([key]);
    expect(f.get(key)!.meta).toMatchObject({ parentKey: 'e9fb405b-169f-40eb-9396-7e75076f045d', isSubagent: true, titleRank: 1 });
    expect(f.get(key)!.meta.title).toMatch(/^Analyze the existing CLI command structure/);
    expect(kinds(f, key)).toEqual({ 'user/message': 1, 'assistant/message': 3, 'tool/tool_call': 20, 'tool/tool_result': 20 });
  });

  it('old layout agent-<id>.jsonl beside the session, or sidechain lines in any file, key the same child', () => {
    const file = path.join(CC, 'codemie-subagent-agent-50243ee8.jsonl');
    const key = '4c2ddfdc-b619-4525-8d03-1950fb1b0257/agent-50243ee8';
    const asAgentFile = parseFile(adapter, file, path.join(CC, 'agent-50243ee8.jsonl'));
    const asSidechain = parseFile(adapter, file);
    // A file of sidechain lines only does not touch (and so claim) its parent conversation.
    expect([...asSidechain.keys()]).toEqual([key]);
    expect(snapshot(asSidechain)).toEqual(snapshot(asAgentFile));
    expect(asAgentFile.get(key)!.meta).toMatchObject({ parentKey: '4c2ddfdc-b619-4525-8d03-1950fb1b0257', isSubagent: true, title: 'Warmup' });
  });
});

describe('claude-code: resuming from saved state', () => {
  it('parses the lines appended between two captures from the state after the first', () => {
    const turn1 = fs.readFileSync(path.join(LARGE, 'incremental-simple/turn-1.jsonl'));
    const turn2 = fs.readFileSync(path.join(LARGE, 'incremental-simple/turn-2.jsonl'));
    expect(turn2.length).toBeGreaterThan(turn1.length);
    expect(turn2.subarray(0, turn1.length).equals(turn1)).toBe(true); // turn-2 is turn-1 grown by appends
    const file = path.join(LARGE, 'incremental-simple/turn-2.jsonl');
    const lines = fileLines(file);
    const cut = fileLines(path.join(LARGE, 'incremental-simple/turn-1.jsonl')).length;
    expect(snapshot(parseResumed(adapter, file, lines, cut))).toEqual(snapshot(parseFile(adapter, file)));
  });

  it.each([
    KITCHEN,
    MAIN,
    path.join(LARGE, 'session-9eda1058.jsonl'),
    path.join(LARGE, 'incremental-subagents/turn-2.jsonl'),
    path.join(LAYOUT, LAYOUT_SESSION, 'subagents/agent-a0ad4f44468bdf20d.jsonl'),
  ])('gives the same result whatever line it stops at: %s', (file) => {
    const lines = fileLines(file);
    const whole = snapshot(parseFile(adapter, file));
    for (let cut = 1; cut < lines.length; cut++) expect(snapshot(parseResumed(adapter, file, lines, cut))).toEqual(whole);
  });

  it('keeps its state small', () => {
    const file = path.join(LARGE, 'session-624a4a58.jsonl');
    const r = run(adapter, file, fileLines(file));
    expect(JSON.stringify(r.state).length).toBeLessThan(8_000);
  });
});

describe('claude-code: large real sessions', () => {
  it.each(['session-624a4a58.jsonl', 'session-3fe1b6bc.jsonl', 'session-196820da.jsonl', 'session-9eda1058.jsonl', 'incremental-subagents/turn-2.jsonl'])(
    '%s: every answered tool call is settled with the result status',
    (name) => {
      const file = path.join(LARGE, name);
      const objs = raw(file);
      const blocks = (type: string) =>
        objs.flatMap((o) => {
          const content = (o.message as { content?: unknown } | undefined)?.content;
          return Array.isArray(content) ? (content as Record<string, unknown>[]).filter((b) => b.type === type) : [];
        });
      const answered = new Set(blocks('tool_result').map((b) => b.tool_use_id));
      const errors = blocks('tool_result').filter((b) => b.is_error === true).length;
      const unanswered = blocks('tool_use').filter((b) => !answered.has(b.id)).length;
      const f = parseFile(adapter, file);
      const calls = [...f.keys()].flatMap((k) => entries(f, k)).filter((e) => e.kind === 'tool_call');
      expect(calls.filter((e) => e.toolStatus === 'pending')).toHaveLength(unanswered);
      expect(calls.filter((e) => e.toolStatus === 'error')).toHaveLength(errors);
      expect(calls).toHaveLength(blocks('tool_use').length);
    },
  );
});
