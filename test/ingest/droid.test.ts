// Factory Droid on its session files (agent-sessions' captures, see PROVENANCE.md), indexed by the real
// pipeline from ~/.factory/sessions.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { droidAdapter } from '../../src/main/ingest/adapters/droid.js';
import { agentIndex } from '../helpers/agent-index.js';
import { FIXTURES, useTmp } from '../helpers/tmp.js';

const tmp = useTmp('tl-droid-');
const fixture = (name: string) => fs.readFileSync(path.join(FIXTURES, 'droid', `agent-sessions-session_store_${name}.jsonl`));
const kinds = (es: { kind: string; role: string }[]) => es.map((e) => `${e.kind}/${e.role}`);

describe('droid adapter', () => {
  it('finds ~/.factory/sessions', () => {
    expect(droidAdapter.defaultRoots({}, '/home/u')).toEqual(['/home/u/.factory/sessions']);
    expect(droidAdapter.isSessionFile('/h/.factory/sessions/-tmp/droid_s1.jsonl')).toBe(true);
    expect(droidAdapter.isSessionFile('/h/.factory/sessions/-tmp/droid_s1.settings.json')).toBe(false);
  });

  it('indexes the session: title, workspace, times, text, a tool call settled by its result', () => {
    const t = agentIndex(tmp(), 'droid');
    const file = t.put('.factory/sessions/-tmp/droid_s1.jsonl', fixture('small'));
    const before = fs.readFileSync(file);
    t.scan();
    const c = t.conversation('droid_s1');
    expect(c).toMatchObject({ title: 'Stage0 Droid Small', workspace: '/tmp' });
    expect(c.created_at).toBe(Date.parse('2025-12-26T23:50:00.000Z'));
    expect(c.updated_at).toBe(Date.parse('2025-12-26T23:50:02.000Z'));
    const es = t.entries('droid_s1');
    expect(kinds(es)).toEqual(['message/user', 'tool_call/tool', 'tool_result/tool']);
    expect(es[1]).toMatchObject({ tool_name: 'Execute', tool_status: 'ok', text: 'ls /nope' });
    expect(es[2]!.text).toContain('No such file or directory');
    expect(fs.readFileSync(file).equals(before)).toBe(true);
    t.close();
  });

  it('reads a session that grows between two scans from its offset; a damaged line costs only itself', () => {
    const lines = fixture('large').toString('utf8').split('\n').filter(Boolean);
    const t = agentIndex(tmp(), 'droid');
    const file = t.put('.factory/sessions/-tmp-large/droid_large.jsonl', `${lines.slice(0, 4).join('\n')}\n`);
    t.scan();
    expect(kinds(t.entries('droid_large'))).toEqual(['message/user', 'message/assistant', 'tool_call/tool']);
    expect(t.entries('droid_large')[2]!.tool_status).toBe('pending');
    fs.appendFileSync(file, `{"type":"message","message":\n${lines.slice(4).join('\n')}\n`);
    t.scan();
    expect(t.errors()).toEqual([{ path: file, line: 5, reason: expect.stringContaining('droid: invalid JSON') }]);
    const es = t.entries('droid_large');
    expect(kinds(es)).toEqual(['message/user', 'message/assistant', 'tool_call/tool', 'tool_result/tool', 'message/assistant', 'message/user', 'message/assistant']);
    expect(es[2]!.tool_status).toBe('ok');
    expect(t.search('multiline')).toBe(1);
    t.close();
  });

  it('a schema variant: a numeric version, no parentId, and a <system-reminder> kept out of the user text', () => {
    const t = agentIndex(tmp(), 'droid');
    t.put('.factory/sessions/-tmp/droid_drift.jsonl', fixture('schema_drift'));
    expect(t.scan().skippedLines).toBe(0);
    const es = t.entries('droid_drift');
    expect(es[0]).toMatchObject({ role: 'user', text: 'Do the thing', indexed: 1 });
    expect(t.conversation('droid_drift').title).toBe('Stage0 Droid Drift');
    t.close();
  });
});
