// Aider on real chat histories (PROVENANCE.md): Aider's own test fixture (aider 0.4x, 2024), a user's
// history committed to a public repository (Aider 0.86, 2026, a reasoning model) and the first form of
// May 2023, each put where Aider writes it (`.aider.chat.history.md` at a repository's root) and indexed
// by the real pipeline; then the daemon's core finding a history from a workspace it knows and
// following it as Aider appends.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { aiderAdapter } from '../../src/main/ingest/adapters/aider.js';
import { createCore, type Core } from '../../src/main/api/core.js';
import { historiesOf } from '../../src/main/ingest/aider-sources.js';
import { agentIndex } from '../helpers/agent-index.js';
import { FIXTURES, useTmp } from '../helpers/tmp.js';

const tmp = useTmp('tl-aider-');
const fixture = (name: string) => fs.readFileSync(path.join(FIXTURES, 'aider', name));
const HISTORY = '.aider.chat.history.md';
/** Aider writes its header in the machine's local time, without a zone. */
const local = (y: number, mo: number, d: number, h: number, mi: number, s: number) => new Date(y, mo - 1, d, h, mi, s).getTime();

/** An index whose source is a folder of repositories (`--source aider=FOLDER`). */
function repos() {
  const t = agentIndex(tmp(), 'aider', {}, (home) => [path.join(home, 'code')]);
  const repo = (name: string, content: string | Buffer) => t.put(path.join('code', name, HISTORY), content);
  const keyOf = (file: string, stamp: string) => `${file}#${stamp}`;
  return { ...t, repo, keyOf };
}

const view = (es: { seq: number; role: string; kind: string; text: string; indexed: number; tool_name: string | null }[]) =>
  es.map((e) => ({ seq: e.seq, role: e.role, kind: e.kind, text: e.text, indexed: e.indexed, tool: e.tool_name }));

describe('aider adapter', () => {
  it('has no folder of its own: a history file is found by its name, and dependency folders are not walked', () => {
    expect(aiderAdapter.defaultRoots({}, '/home/u')).toEqual([]);
    expect(aiderAdapter.isSessionFile('/home/u/code/shop/.aider.chat.history.md')).toBe(true);
    expect(aiderAdapter.isSessionFile('/home/u/code/shop/.aider.input.history')).toBe(false);
    expect(aiderAdapter.skipFolder?.('node_modules')).toBe(true);
    expect(aiderAdapter.skipFolder?.('.git')).toBe(true);
    expect(aiderAdapter.skipFolder?.('src')).toBe(false);
    // Aider's override, --chat-history-file as AIDER_CHAT_HISTORY_FILE: an absolute file is a source of its own.
    expect(aiderAdapter.defaultRoots({ AIDER_CHAT_HISTORY_FILE: '/srv/notes/chat.md' }, '/home/u')).toEqual(['/srv/notes/chat.md']);
    expect(aiderAdapter.defaultRoots({ AIDER_CHAT_HISTORY_FILE: 'chat.md' }, '/home/u')).toEqual([]);
  });

  it('a relative AIDER_CHAT_HISTORY_FILE is looked for in each repository, up to its git root and no further', () => {
    const dir = tmp();
    const repo = path.join(dir, 'outer', 'repo');
    fs.mkdirSync(path.join(repo, '.git'), { recursive: true });
    fs.mkdirSync(path.join(repo, 'a', 'b'), { recursive: true });
    for (const f of [path.join(repo, HISTORY), path.join(repo, 'chat.md'), path.join(dir, 'outer', HISTORY)]) fs.writeFileSync(f, '');
    expect(historiesOf(path.join(repo, 'a', 'b'), [HISTORY, 'chat.md'])).toEqual([path.join(repo, HISTORY), path.join(repo, 'chat.md')]);
  });

  it('one conversation per run with input: title, workspace, times, prompts and replies indexed, reasoning and notes kept apart', () => {
    const t = repos();
    const file = t.repo('mozgoslav', fixture('mozgoslav.aider.chat.history.md'));
    const before = fs.readFileSync(file);
    expect(t.scan().skippedLines).toBe(0);
    const cs = t.conversations();
    expect(cs.map((c) => c.session_id)).toEqual(['2026-04-22T22:40:12', '2026-04-22T22:40:47', '2026-04-22T23:13:03'].map((s) => t.keyOf(file, s)));
    for (const c of cs) expect(c.workspace).toBe(path.dirname(file));
    expect(cs[0]!.created_at).toBe(local(2026, 4, 22, 22, 40, 12));
    // A run ends where the next one starts; the file's last run was last active when the file was written.
    expect(cs[1]!.updated_at).toBe(local(2026, 4, 22, 22, 40, 47));
    expect(cs[2]!.updated_at).toBe(Math.floor(fs.statSync(file).mtimeMs));
    expect(cs[1]!.title).toBe('hi');
    expect(cs[2]!.title).toMatch(/^Мы работали над задачей/);

    const es = t.entries(cs[1]!.key);
    expect(view(es.slice(0, 5)).map((e) => `${e.seq} ${e.role}/${e.kind} ${e.indexed}`)).toEqual([
      '0 system/custom 0', // Aider's start-up notices
      '1 user/message 1',
      '2 assistant/thinking 0',
      '3 assistant/message 1',
      '4 system/custom 0', // "Tokens: 1.8k sent, 653 received."
    ]);
    expect(es[3]!.text).toMatch(/^Привет! Готов к работе/);
    expect(es[4]!.text).toBe('Tokens: 1.8k sent, 653 received.');
    // Aider's question answered for a group of files is logged as input: kept, not indexed as the user's words.
    expect(es.find((e) => e.text.startsWith('Add file to the chat?') && e.role === 'user')).toMatchObject({ kind: 'custom', indexed: 0 });
    expect(t.search('Mozgoslav')).toBeGreaterThan(0);
    expect(t.search('litellm')).toBe(0); // an error notice of the first run: not the user's or the model's text
    expect(fs.readFileSync(file).equals(before)).toBe(true);
    t.close();
  });

  it("Aider's own fixture: commands kept, /test as a tool call with its output, /clear as a boundary, runs without input dropped", () => {
    const t = repos();
    const file = t.repo('aider', fixture('aider-chat-history-head2705.md'));
    expect(t.scan().skippedLines).toBe(0);
    const cs = t.conversations();
    // 12 runs start in these lines; 8 of them (lint runs, runs left before the first prompt) have no input.
    expect(cs).toHaveLength(5);
    expect(cs.map((c) => c.title)).toContain('Add tests for `subtree_only`.');
    // Lines before the file's first header belong to no run: a conversation of their own, ended by the first header.
    const first = t.conversation(`${file}#start`);
    expect(first.created_at).toBeNull();
    expect(first.updated_at).toBe(local(2024, 8, 5, 19, 33, 2));

    const c = cs.find((x) => x.title === 'Add tests for `subtree_only`.')!;
    const es = view(t.entries(c.key));
    expect(es.find((e) => e.text === '/add tests/basic/test_repomap.py')).toMatchObject({ role: 'user', kind: 'custom', indexed: 0 });
    const call = es.findIndex((e) => e.kind === 'tool_call');
    expect(es[call]).toMatchObject({ role: 'tool', tool: 'test', text: 'pytest tests/basic/test_repomap.py', indexed: 0 });
    expect(es[call + 1]).toMatchObject({ role: 'tool', kind: 'tool_result', tool: 'test', indexed: 0 });
    expect(es[call + 1]!.text).toMatch(/^=+ test session starts =+/);
    expect(es.find((e) => e.text === '/clear')).toMatchObject({ role: 'user', kind: 'reset', indexed: 0 });
    expect(es.filter((e) => e.role === 'user' && e.kind === 'message').map((e) => e.text)[0]).toBe('Add tests for `subtree_only`.');
    t.close();
  });

  it('a schema variant: the first form of May 2023 (`# Aider chat started at`, `---`, `#### >` inputs, notes in italics)', () => {
    const t = repos();
    t.repo('flask', fixture('aider-hello-world-flask-2023-05-12.md'));
    expect(t.scan().skippedLines).toBe(0);
    const [c] = t.conversations();
    expect(c).toMatchObject({ title: 'make a flask app with a /hello endpoint that returns hello world', created_at: local(2023, 5, 12, 15, 23, 26) });
    const es = view(t.entries(c!.key));
    expect(es.filter((e) => e.role === 'user').map((e) => e.text)).toEqual([
      'make a flask app with a /hello endpoint that returns hello world',
      'add an endpoint like /add/3/5 which returns the sum of the 2 numbers',
      'add /fibonacci/X',
      'remove the hello endpoint',
    ]);
    expect(es.filter((e) => e.role === 'assistant')).toHaveLength(4);
    expect(es[0]).toMatchObject({ role: 'system', kind: 'custom', indexed: 0 });
    expect(es[0]!.text).toMatch(/^This tool will almost certainly fail/);
    expect(es[3]!.text).toMatch(/^Applied edit to app.py\nd8dab4e aider:/);
    t.close();
  });

  it('a history that grows between two scans (cut inside a reply and inside a line) ends as if read at once, nothing twice', () => {
    const whole = fixture('mozgoslav.aider.chat.history.md');
    const once = repos();
    const onceFile = once.repo('m', whole);
    once.scan();
    const t = repos();
    const file = t.repo('m', whole.subarray(0, 200_000));
    expect(whole.subarray(199_990, 200_000).includes(0x0a)).toBe(false); // the cut is inside a line
    t.scan();
    const cs = t.conversations();
    expect(cs).toHaveLength(3);
    const partial = t.entries(cs[2]!.key).length;
    fs.appendFileSync(file, whole.subarray(200_000));
    t.scan();
    const rel = (f: string, k: string) => k.replace(f, '');
    expect(t.conversations().map((c) => [rel(file, c.key), c.title, c.created_at])).toEqual(
      once.conversations().map((c) => [rel(onceFile, c.key), c.title, c.created_at]),
    );
    for (const [i, c] of t.conversations().entries()) {
      expect(view(t.entries(c.key))).toEqual(view(once.entries(once.conversations()[i]!.key)));
    }
    expect(t.entries(cs[2]!.key).length).toBeGreaterThan(partial);
    expect(t.errors()).toEqual([]);
    once.close();
    t.close();
  });

  it('damaged lines (NUL bytes from a crash, a header with an impossible time) are recorded with their line and cost only themselves', () => {
    const lines = fixture('aider-hello-world-flask-2023-05-12.md').toString('utf8').split('\n');
    const damaged = [...lines.slice(0, 13), '\0\0\0\0\0\0', ...lines.slice(13, 40), '# aider chat started at 2024-13-45 99:00:00', ...lines.slice(40)].join('\n');
    const t = repos();
    const file = t.repo('flask', damaged);
    t.scan();
    expect(t.errors()).toEqual([
      { path: file, line: 14, reason: expect.stringContaining('NUL bytes') },
      { path: file, line: 42, reason: expect.stringContaining('session header whose time') },
    ]);
    const [c] = t.conversations();
    expect(t.entries(c!.key).filter((e) => e.role === 'user')).toHaveLength(4);
    t.close();
  });
});

describe('aider histories found from the workspaces the index knows', () => {
  let core: Core | undefined;
  afterEach(() => core?.close());

  it("a conversation of another agent in a repository's sub-folder leads to the history at its git root; appends are followed", async () => {
    const dir = tmp();
    const home = path.join(dir, 'home');
    const repo = path.join(dir, 'work', 'flask');
    fs.mkdirSync(path.join(repo, '.git'), { recursive: true });
    fs.mkdirSync(path.join(repo, 'src'));
    const history = path.join(repo, HISTORY);
    fs.writeFileSync(history, fixture('aider-hello-world-flask-2023-05-12.md'));
    // Throughline's own import format stands for any agent whose conversation ran in the repository.
    const imports = path.join(home, '.local', 'share', 'throughline', 'import');
    fs.mkdirSync(imports, { recursive: true });
    const line = (o: object) => `${JSON.stringify(o)}\n`;
    fs.writeFileSync(path.join(imports, 'other.jsonl'), line({ type: 'conversation', id: 'other', workspace: path.join(repo, 'src') }) + line({ type: 'message', role: 'user', text: 'hello' }));

    core = createCore({ dbPath: path.join(dir, 'index.sqlite'), settingsPath: path.join(dir, 'settings.json'), env: { HOME: home } });
    await core.scan();
    const aider = () => core!.db.prepare("SELECT id, title FROM conversations WHERE source = 'aider' ORDER BY id").all() as { id: number; title: string }[];
    expect(aider().map((c) => c.title)).toEqual(['make a flask app with a /hello endpoint that returns hello world']);
    const status = await core.api.status({});
    expect(status.folders).toContainEqual({ kind: 'aider', path: history, found: true, files: 1 });
    const detail = await core.api['conversations.get']({ conversation_id: aider()[0]!.id });
    expect(detail.resumeCommand).toBe(`cd ${JSON.stringify(repo)} && aider --restore-chat-history`);

    await core.watch();
    fs.appendFileSync(history, '\n# aider chat started at 2023-05-13 09:00:00\n\n#### add a /ping endpoint  \n\nHere it is.\n');
    const end = Date.now() + 5000;
    while (aider().length < 2 && Date.now() < end) await new Promise((resolve) => setTimeout(resolve, 25));
    expect(aider().map((c) => c.title)).toContain('add a /ping endpoint');
  });
});
