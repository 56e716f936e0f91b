// Gemini CLI on its real files: the legacy whole-file JSON (codemie-code) and the 0.40+ JSONL
// (agent-sessions), indexed by the real pipeline from where Gemini keeps them.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { geminiAdapter } from '../../src/main/ingest/adapters/gemini.js';
import { agentIndex } from '../helpers/agent-index.js';
import { FIXTURES, useTmp } from '../helpers/tmp.js';

const tmp = useTmp('tl-gemini-');
const LEGACY = path.join(FIXTURES, 'gemini/session-2026-01-16T11-01-file-ops-37b7abef.json');
const JSONL = path.join(FIXTURES, 'gemini/agent-sessions-jsonl_v040.jsonl');
const LEGACY_ID = '37b7abef-713d-4522-85f0-8ff15a4e6d17';
const PROJECT = '.gemini/tmp/codemie-code';
const legacyDoc = () => JSON.parse(fs.readFileSync(LEGACY, 'utf8')) as { messages: unknown[] } & Record<string, unknown>;
const jsonlLines = () => fs.readFileSync(JSONL, 'utf8').split('\n').filter((l) => l.trim());

describe('gemini adapter: roots and files', () => {
  it('finds ~/.gemini/tmp, moved by GEMINI_CLI_HOME, and tells session files apart', () => {
    expect(geminiAdapter.defaultRoots({}, '/home/u')).toEqual(['/home/u/.gemini/tmp']);
    expect(geminiAdapter.defaultRoots({ GEMINI_CLI_HOME: '/g' }, '/home/u')).toEqual(['/g/.gemini/tmp']);
    expect(geminiAdapter.isSessionFile('/h/.gemini/tmp/p/chats/session-2026-04-29T21-39-abcd1234.jsonl')).toBe(true);
    expect(geminiAdapter.isSessionFile('/h/.gemini/tmp/p/chats/parent-id/child-id.jsonl')).toBe(true);
    expect(geminiAdapter.isSessionFile('/h/.gemini/tmp/p/checkpoint-mytag.json')).toBe(false);
    expect(geminiAdapter.isSessionFile('/h/.gemini/tmp/p/logs.json')).toBe(false);
    expect(geminiAdapter.readsWhole?.('/x/chats/session-a.json')).toBe(true);
    expect(geminiAdapter.readsWhole?.('/x/chats/session-a.jsonl')).toBe(false);
  });
});

describe('gemini: the legacy whole-file JSON', () => {
  it('indexes the session: identity, workspace from .project_root, title, times, text, tool calls and results', () => {
    const t = agentIndex(tmp(), 'gemini');
    t.put(`${PROJECT}/.project_root`, '/Users/nl/repos/codemie-code\n');
    const file = t.put(`${PROJECT}/chats/session-2026-01-16T11-01-37b7abef.json`, fs.readFileSync(LEGACY));
    const before = fs.readFileSync(file);
    t.scan();
    const c = t.conversation(LEGACY_ID);
    expect(c.workspace).toBe('/Users/nl/repos/codemie-code');
    expect(c.title).toBe('show tools');
    expect(c.created_at).toBe(Date.parse('2026-01-16T11:01:22.281Z'));
    expect(c.updated_at).toBe(Date.parse('2026-01-16T12:34:29.824Z'));
    const entries = t.entries(LEGACY_ID);
    const count = (kind: string, role: string) => entries.filter((e) => e.kind === kind && e.role === role).length;
    expect(count('message', 'user')).toBe(5);
    expect(count('message', 'assistant')).toBe(5);
    expect(count('tool_call', 'tool')).toBe(14);
    expect(count('tool_result', 'tool')).toBe(14);
    expect(entries.filter((e) => e.indexed).every((e) => e.kind === 'message')).toBe(true);
    const write = entries.find((e) => e.kind === 'tool_call' && e.tool_name === 'write_file')!;
    expect(write.tool_status).toBe('ok');
    expect(write.text).toBe('hello.md');
    expect(t.search('adaptability')).toBeGreaterThan(0);
    expect(fs.readFileSync(file).equals(before)).toBe(true); // read-only
    t.close();
  });

  it('leaves the workspace empty when the project cannot be resolved (the hash stays in the path)', () => {
    const t = agentIndex(tmp(), 'gemini');
    t.put('.gemini/tmp/907f20644716c92a8309a8b7c1ceec79d422233ff220b7fdb8772b360bd8273f/chats/session-a.json', fs.readFileSync(LEGACY));
    t.scan();
    const c = t.conversation(LEGACY_ID);
    expect(c.workspace).toBeNull();
    expect(c.path).toContain('907f20644716c92a8309a8b7c1ceec79d422233ff220b7fdb8772b360bd8273f');
    t.close();
  });

  it('resolves the project through projects.json when its slug names the folder', () => {
    const t = agentIndex(tmp(), 'gemini');
    t.put('.gemini/projects.json', JSON.stringify({ projects: { '/work/codemie-code': 'codemie-code' } }));
    t.put(`${PROJECT}/chats/session-a.json`, fs.readFileSync(LEGACY));
    t.scan();
    expect(t.conversation(LEGACY_ID).workspace).toBe('/work/codemie-code');
    t.close();
  });

  it('a document rewritten as it grows is read again only when it changed, without duplicating entries', () => {
    const t = agentIndex(tmp(), 'gemini');
    const doc = legacyDoc();
    const early = { ...doc, messages: doc.messages.slice(0, 8) };
    const file = t.put(`${PROJECT}/chats/session-a.json`, JSON.stringify(early, null, 2));
    const inode = fs.statSync(file).ino;
    t.scan();
    expect(t.entries(LEGACY_ID)).toHaveLength(3 + 3 + 2 * 10); // 3 prompts, 3 replies, 10 calls and their results
    expect(t.scan().parsedFiles).toBe(0); // unchanged: not read
    fs.writeFileSync(file, fs.readFileSync(LEGACY)); // Gemini rewrites the same file in place
    expect(fs.statSync(file).ino).toBe(inode);
    expect(t.scan().parsedFiles).toBe(1);
    const grown = t.entries(LEGACY_ID);
    expect(grown).toHaveLength(38);
    expect(new Set(grown.map((e) => e.source_id)).size).toBe(38);

    const single = agentIndex(tmp(), 'gemini');
    single.put(`${PROJECT}/chats/session-a.json`, fs.readFileSync(LEGACY));
    single.scan();
    const strip = (es: typeof grown) => es.map(({ seq: _s, ...rest }) => rest);
    expect(strip(grown)).toEqual(strip(single.entries(LEGACY_ID)));
    single.close();
    t.close();
  });

  it('a damaged document is recorded with its file and line, and what was indexed stays', () => {
    const t = agentIndex(tmp(), 'gemini');
    const file = t.put(`${PROJECT}/chats/session-a.json`, fs.readFileSync(LEGACY));
    t.scan();
    const text = fs.readFileSync(LEGACY, 'utf8');
    fs.writeFileSync(file, text.slice(0, text.indexOf('"remove 2 and 3 line"') + 10)); // cut mid-write
    const stats = t.scan();
    expect(stats.skippedLines).toBe(1);
    const [err] = t.errors();
    expect(err!.path).toBe(file);
    expect(err!.line).toBe(text.slice(0, text.indexOf('"remove 2 and 3 line"')).split('\n').length);
    expect(t.entries(LEGACY_ID)).toHaveLength(38);
    expect(t.scan().parsedFiles).toBe(0); // not read again until it changes
    t.close();
  });

  it('skips a legacy .json that Gemini has moved to .jsonl', () => {
    const t = agentIndex(tmp(), 'gemini');
    const json = t.put(`${PROJECT}/chats/session-a.json`, fs.readFileSync(LEGACY));
    expect(geminiAdapter.isSessionFile(json)).toBe(true);
    t.put(`${PROJECT}/chats/session-a.jsonl`, '');
    expect(geminiAdapter.isSessionFile(json)).toBe(false);
    t.close();
  });
});

describe('gemini: the JSONL session', () => {
  const KEY = 'gemini_stage0_jsonl';

  it('indexes metadata, messages, $set updates and tool calls with their results', () => {
    const t = agentIndex(tmp(), 'gemini');
    t.put(`${PROJECT}/chats/session-2026-04-29T21-39-gemini_s.jsonl`, fs.readFileSync(JSONL));
    t.scan();
    const c = t.conversation(KEY);
    expect(c.title).toBe('Say hello and list files.');
    expect(c.created_at).toBe(Date.parse('2026-04-29T21:39:22.319Z'));
    expect(c.updated_at).toBe(Date.parse('2026-04-29T21:39:45.996Z'));
    expect(t.entries(KEY).map((e) => [e.kind, e.role, e.tool_name, e.tool_status])).toEqual([
      ['message', 'user', null, null],
      ['tool_call', 'tool', 'run_shell_command', 'ok'],
      ['tool_result', 'tool', 'run_shell_command', 'ok'],
      ['message', 'assistant', null, null],
    ]);
    t.close();
  });

  it('reads a file that grows between two scans from its offset; a message written again replaces itself', () => {
    const t = agentIndex(tmp(), 'gemini');
    const lines = jsonlLines();
    const file = t.put(`${PROJECT}/chats/session-x.jsonl`, `${lines.slice(0, 3).join('\n')}\n`);
    t.scan();
    expect(t.entries(KEY)).toHaveLength(1);
    // The rest arrives, then Gemini writes the last reply again (as recordMessageTokens does).
    const last = JSON.parse(lines[4]!) as Record<string, unknown>;
    fs.appendFileSync(file, `${lines.slice(3).join('\n')}\n${JSON.stringify({ ...last, content: 'Hello! I listed the files again.' })}\n`);
    const stats = t.scan();
    expect(stats.bytes).toBeLessThan(fs.statSync(file).size);
    const entries = t.entries(KEY);
    expect(entries).toHaveLength(4);
    expect(entries.at(-1)!.text).toBe('Hello! I listed the files again.');
    t.close();
  });

  it('a damaged line costs only itself and is recorded with its line', () => {
    const t = agentIndex(tmp(), 'gemini');
    const lines = jsonlLines();
    const file = t.put(`${PROJECT}/chats/session-x.jsonl`, `${[lines[0], lines[1], '{"id":"cut', ...lines.slice(2)].join('\n')}\n`);
    t.scan();
    expect(t.errors()).toEqual([{ path: file, line: 3, reason: expect.stringContaining('gemini: invalid JSON') }]);
    expect(t.entries(KEY)).toHaveLength(4);
    t.close();
  });

  it('$rewindTo takes the message and all after it back; a compressed $set.messages becomes the boundary', () => {
    const t = agentIndex(tmp(), 'gemini');
    const lines = jsonlLines();
    const [meta, user, , call, reply] = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    const file = t.put(`${PROJECT}/chats/session-x.jsonl`, `${lines.join('\n')}\n`);
    t.scan();
    fs.appendFileSync(file, `${JSON.stringify({ $rewindTo: reply!.id })}\n`);
    t.scan();
    expect(t.entries(KEY).map((e) => e.kind)).toEqual(['message', 'tool_call', 'tool_result']);
    // A compression: the history now starts with a summary turn and keeps the call only.
    const summary = { id: 'g-summary', timestamp: '2026-04-29T21:40:00.000Z', type: 'user', content: [{ text: '<state_snapshot>listed files</state_snapshot>' }] };
    fs.appendFileSync(file, `${JSON.stringify(summary)}\n${JSON.stringify({ $set: { messages: [summary, call] } })}\n`);
    t.scan();
    const entries = t.entries(KEY);
    const boundary = entries.find((e) => e.kind === 'compaction')!;
    expect(boundary.text).toContain('listed files');
    expect(boundary.indexed).toBe(0);
    expect(boundary.first_kept_source_id).toBe(call!.id);
    expect(entries.find((e) => e.source_id === user!.id)).toBeDefined(); // history before the boundary stays
    expect(meta).toBeDefined();
    t.close();
  });

  it('a sub-agent file in chats/<parent session>/ is a child conversation', () => {
    const t = agentIndex(tmp(), 'gemini');
    t.put(`${PROJECT}/chats/session-x.jsonl`, fs.readFileSync(JSONL));
    const child = jsonlLines().map((l) => l.replace('"sessionId":"gemini_stage0_jsonl"', '"sessionId":"child-1","kind":"subagent"'));
    t.put(`${PROJECT}/chats/${KEY}/child-1.jsonl`, `${child.join('\n')}\n`);
    t.scan();
    const c = t.conversation('child-1');
    expect(c.is_subagent).toBe(1);
    expect(c.parent_id).toBe(t.conversation(KEY).id);
    t.close();
  });
});
