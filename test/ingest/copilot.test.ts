// GitHub Copilot CLI on its real event logs (agent-sessions' captures, see PROVENANCE.md), indexed by
// the real pipeline from ~/.copilot/session-state.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { copilotAdapter } from '../../src/main/ingest/adapters/copilot.js';
import { agentIndex } from '../helpers/agent-index.js';
import { FIXTURES, useTmp } from '../helpers/tmp.js';

const tmp = useTmp('tl-copilot-');
const DIR = path.join(FIXTURES, 'copilot');
const V1_ID = 'aaaabbbb-1111-2222-3333-ccccddddeeee';
const V1 = path.join(DIR, 'session-state', V1_ID, 'events.jsonl');
const SMALL = path.join(DIR, 'agent-sessions-small.jsonl');
const DRIFT = path.join(DIR, 'agent-sessions-schema_drift.jsonl');
const LARGE = path.join(DIR, 'agent-sessions-large.jsonl');
const kinds = (es: { kind: string; role: string }[]) => es.map((e) => `${e.kind}/${e.role}`);

describe('copilot adapter: roots and files', () => {
  it('finds ~/.copilot/session-state, moved by COPILOT_HOME; both layouts', () => {
    expect(copilotAdapter.defaultRoots({}, '/home/u')).toEqual(['/home/u/.copilot/session-state']);
    expect(copilotAdapter.defaultRoots({ COPILOT_HOME: '/c' }, '/home/u')).toEqual(['/c/session-state']);
    expect(copilotAdapter.isSessionFile('/h/.copilot/session-state/abc/events.jsonl')).toBe(true);
    expect(copilotAdapter.isSessionFile('/h/.copilot/session-state/abc.jsonl')).toBe(true);
    expect(copilotAdapter.isSessionFile('/h/.copilot/session-state/abc/checkpoints/index.jsonl')).toBe(false);
  });
});

describe('copilot: the 1.0 layout (<id>/events.jsonl)', () => {
  it('indexes identity, workspace, title, times, text and a tool call settled by its result', () => {
    const t = agentIndex(tmp(), 'copilot');
    const file = t.put(`.copilot/session-state/${V1_ID}/events.jsonl`, fs.readFileSync(V1));
    const before = fs.readFileSync(file);
    t.scan();
    const c = t.conversation(V1_ID);
    expect(c.workspace).toBe('/tmp/project');
    expect(c.title).toBe('List the files');
    expect(c.created_at).toBe(Date.parse('2026-03-26T17:50:34.263Z'));
    expect(c.updated_at).toBe(Date.parse('2026-03-26T17:50:37.100Z'));
    const es = t.entries(V1_ID);
    expect(kinds(es)).toEqual(['message/user', 'tool_call/tool', 'tool_result/tool', 'message/assistant']);
    expect(es[1]).toMatchObject({ tool_name: 'bash', tool_status: 'ok', text: 'ls' });
    expect(es[2]).toMatchObject({ tool_name: 'bash', tool_status: 'ok', text: 'file1\nfile2\n', indexed: 0 });
    expect(t.search('directory')).toBe(1);
    expect(fs.readFileSync(file).equals(before)).toBe(true);
    t.close();
  });
});

describe('copilot: the older layout (<id>.jsonl) with a sub-agent, errors and reasoning', () => {
  it('puts a sub-agent’s events (parentToolCallId) in a child conversation', () => {
    const t = agentIndex(tmp(), 'copilot');
    t.put('.copilot/session-state/copilot_stage0_small.jsonl', fs.readFileSync(SMALL));
    t.scan();
    const [main, child] = t.conversations();
    expect(main!.key).toBe('copilot_stage0_small');
    expect(main!.workspace).toBe('/tmp/repo');
    expect(child!.key).toBe('copilot_stage0_small/[trimmed for fixture]');
    expect(child!.is_subagent).toBe(1);
    expect(child!.parent_id).toBe(main!.id);
    expect(kinds(t.entries(child!.key))).toEqual(['thinking/assistant', 'message/assistant', 'tool_call/tool', 'tool_result/tool']);
    const es = t.entries(main!.key);
    expect(es.filter((e) => e.kind === 'custom').map((e) => e.text)).toEqual(['Example model error', '[trimmed for fixture]']);
    expect(es.some((e) => e.kind === 'thinking')).toBe(true);
    expect(es.find((e) => e.tool_name === 'shell')).toMatchObject({ kind: 'tool_call', tool_status: 'ok', text: 'ls' });
    t.close();
  });
});

describe('copilot: growth, damage and a schema variant', () => {
  it('reads a log that grows between two scans from its offset and ends equal to one pass', () => {
    const lines = fs.readFileSync(LARGE, 'utf8').split('\n').filter(Boolean);
    const t = agentIndex(tmp(), 'copilot');
    const file = t.put(`.copilot/session-state/x/events.jsonl`, `${lines.slice(0, 8).join('\n')}\n`);
    t.scan();
    expect(t.entries('copilot_stage0_large')).toHaveLength(4); // Step 1, Ok, Step 2, the bash call
    fs.appendFileSync(file, `${lines.slice(8).join('\n')}\n`);
    const second = t.scan();
    expect(second.bytes).toBe(fs.statSync(file).size - Buffer.byteLength(`${lines.slice(0, 8).join('\n')}\n`));
    const single = agentIndex(tmp(), 'copilot');
    single.put(`.copilot/session-state/x/events.jsonl`, fs.readFileSync(LARGE));
    single.scan();
    const strip = (es: ReturnType<typeof t.entries>) => es.map(({ seq: _s, ...rest }) => rest);
    expect(strip(t.entries('copilot_stage0_large'))).toEqual(strip(single.entries('copilot_stage0_large')));
    expect(t.entries('copilot_stage0_large').find((e) => e.text === 'echo hi')).toMatchObject({ tool_status: 'pending' });
    single.close();
    t.close();
  });

  it('a damaged line is recorded with its line and costs only itself', () => {
    const lines = fs.readFileSync(V1, 'utf8').split('\n').filter(Boolean);
    const t = agentIndex(tmp(), 'copilot');
    const file = t.put(`.copilot/session-state/${V1_ID}/events.jsonl`, `${[...lines.slice(0, 2), '{"type":"user.mess', ...lines.slice(2)].join('\n')}\n`);
    t.scan();
    expect(t.errors()).toEqual([{ path: file, line: 3, reason: expect.stringContaining('copilot: invalid JSON') }]);
    expect(t.entries(V1_ID)).toHaveLength(4);
    t.close();
  });

  it('newer event types are skipped; a call logged before its request is one call', () => {
    const t = agentIndex(tmp(), 'copilot');
    t.put('.copilot/session-state/d/events.jsonl', fs.readFileSync(DRIFT));
    const stats = t.scan();
    expect(stats.skippedLines).toBe(0);
    const es = t.entries('copilot_stage0_drift');
    expect(kinds(es)).toEqual(['tool_call/tool', 'tool_result/tool', 'tool_result/tool', 'message/assistant']);
    expect(es[0]).toMatchObject({ tool_name: 'bash', tool_status: 'ok' });
    expect(es[2]).toMatchObject({ tool_status: 'error', text: 'exit code: 1\n' });
    t.close();
  });

  it('a compaction checkpoint is the context boundary', () => {
    const t = agentIndex(tmp(), 'copilot');
    const file = t.put(`.copilot/session-state/${V1_ID}/events.jsonl`, fs.readFileSync(V1));
    // The shape Copilot 1.0 writes after compacting (success, token counts, checkpoint number).
    const event = { type: 'session.compaction_complete', data: { success: true, preCompactionTokens: 90000, postCompactionTokens: 12000, checkpointNumber: 1 }, id: 'e9', timestamp: '2026-03-26T17:51:00.000Z', parentId: 'e8' };
    fs.appendFileSync(file, `${JSON.stringify(event)}\n`);
    t.scan();
    const boundary = t.entries(V1_ID).at(-1)!;
    expect(boundary).toMatchObject({ kind: 'compaction', text: '[context compacted (checkpoint 1)]', indexed: 0 });
    expect(boundary.first_kept_source_id).toBe(boundary.source_id);
    t.close();
  });
});
