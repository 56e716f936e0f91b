// Cursor's agent transcripts (agent-sessions' captures, see PROVENANCE.md), indexed by the real pipeline
// from ~/.cursor/projects/<slug>/agent-transcripts.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cursorAdapter, transcriptInfo, workspaceFromSlug } from '../../src/main/ingest/adapters/cursor.js';
import { agentIndex } from '../helpers/agent-index.js';
import { FIXTURES, useTmp } from '../helpers/tmp.js';

const tmp = useTmp('tl-cursor-');
const fixture = (rel: string) => fs.readFileSync(path.join(FIXTURES, 'cursor', rel));
const kinds = (es: { kind: string; role: string }[]) => es.map((e) => `${e.kind}/${e.role}`);
const ID = '0c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f';
const CHILD = '1c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f';

describe('cursor adapter: where transcripts are', () => {
  it('finds ~/.cursor/projects/*/agent-transcripts and reads ids, parents and slugs from paths', () => {
    expect(cursorAdapter.defaultRoots({}, '/home/u')).toEqual(['/home/u/.cursor/projects']);
    expect(cursorAdapter.isSessionFile(`/h/.cursor/projects/p/agent-transcripts/${ID}/${ID}.jsonl`)).toBe(true);
    expect(cursorAdapter.isSessionFile('/h/.cursor/projects/p/worker.log')).toBe(false);
    expect(transcriptInfo(`/h/.cursor/projects/home-u-app/agent-transcripts/${ID}/subagents/${CHILD}.jsonl`)).toEqual({ id: CHILD, parent: ID, slug: 'home-u-app' });
    expect(transcriptInfo(`/h/.cursor/projects/home-u-app/agent-transcripts/${ID}.jsonl`)).toEqual({ id: ID, parent: undefined, slug: 'home-u-app' });
  });

  it('resolves a workspace slug against the disk, keeping dashes that are part of a name', () => {
    const dirs = new Set(['/home', '/home/u', '/home/u/code', '/home/u/code/my-app']);
    expect(workspaceFromSlug('home-u-code-my-app', (p) => dirs.has(p))).toBe('/home/u/code/my-app');
    expect(workspaceFromSlug('home-u-gone', (p) => dirs.has(p))).toBeUndefined();
  });
});

describe('cursor: transcripts', () => {
  it('indexes prompts (without <user_query>), replies, tool calls, the workspace and the file’s times', () => {
    const dir = tmp();
    const t = agentIndex(dir, 'cursor');
    const ws = path.join(dir, 'work', 'my-app');
    fs.mkdirSync(ws, { recursive: true });
    const slug = ws.slice(1).replaceAll('/', '-');
    const file = t.put(`.cursor/projects/${slug}/agent-transcripts/${ID}/${ID}.jsonl`, fixture('agent-sessions-test-session.jsonl'));
    const before = fs.readFileSync(file);
    t.scan();
    const c = t.conversation(ID);
    expect(c.title).toBe('run ls command');
    expect(c.workspace).toBe(ws);
    expect(c.updated_at).toBe(Math.floor(fs.statSync(file).mtimeMs));
    const es = t.entries(ID);
    expect(kinds(es)).toEqual(['message/user', 'message/assistant', 'tool_call/tool', 'message/assistant', 'message/user', 'message/assistant', 'tool_call/tool', 'message/assistant']);
    expect(es[0]!.text).toBe('run ls command');
    expect(es[2]).toMatchObject({ tool_name: 'Shell', text: 'ls -la /tmp' });
    expect(fs.readFileSync(file).equals(before)).toBe(true);
    t.close();
  });

  it('a sub-agent transcript in <parent>/subagents/ is a child conversation', () => {
    const t = agentIndex(tmp(), 'cursor');
    t.put(`.cursor/projects/p/agent-transcripts/${ID}/${ID}.jsonl`, fixture('subagent/parent.jsonl'));
    t.put(`.cursor/projects/p/agent-transcripts/${ID}/subagents/${CHILD}.jsonl`, fixture('subagent/subagents/child.jsonl'));
    t.scan();
    const child = t.conversation(CHILD);
    expect(child.is_subagent).toBe(1);
    expect(child.parent_id).toBe(t.conversation(ID).id);
    expect(t.entries(CHILD).map((e) => e.text)).toEqual(['List files', 'file1.txt\nfile2.txt']);
    t.close();
  });

  it('grows between scans, records a damaged line, ends a turn with an error notice', () => {
    const lines = fixture('agent-sessions-large.jsonl').toString('utf8').split('\n').filter(Boolean);
    const t = agentIndex(tmp(), 'cursor');
    const file = t.put(`.cursor/projects/p/agent-transcripts/${ID}.jsonl`, `${lines.slice(0, 3).join('\n')}\n`);
    t.scan();
    expect(kinds(t.entries(ID))).toEqual(['message/user', 'thinking/assistant', 'message/assistant', 'tool_call/tool', 'tool_result/tool']);
    fs.appendFileSync(file, `${lines.slice(3).join('\n')}\n{"role":"assistant","message":\n{"type":"turn_ended","status":"error","error":"rate limited"}\n`);
    t.scan();
    expect(t.errors()).toEqual([{ path: file, line: lines.length + 1, reason: expect.stringContaining('cursor: invalid JSON') }]);
    const es = t.entries(ID);
    expect(es).toHaveLength(13);
    expect(es.at(-1)).toMatchObject({ kind: 'custom', role: 'system', text: 'rate limited', indexed: 0 });
    t.close();
  });

  it('a schema variant: tool_call and tool-result blocks, an unknown block with text, extra keys', () => {
    const t = agentIndex(tmp(), 'cursor');
    t.put(`.cursor/projects/p/agent-transcripts/${ID}.jsonl`, fixture('agent-sessions-schema_drift.jsonl'));
    expect(t.scan().skippedLines).toBe(0);
    const es = t.entries(ID);
    expect(kinds(es)).toEqual(['message/user', 'thinking/assistant', 'tool_call/tool', 'message/assistant', 'tool_result/tool', 'message/assistant']);
    expect(es[2]).toMatchObject({ tool_name: 'read_file', text: 'build.log' });
    expect(es[3]!.text).toBe('Cursor added an unknown block with visible text.');
    t.close();
  });
});
