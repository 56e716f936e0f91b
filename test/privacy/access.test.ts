// Issue 11 §2: a workspace-limited token can neither read, nor append to, nor move a conversation
// outside its workspaces, whichever form of reference it uses: the api resolves the reference once
// and checks that very conversation. The repro over a real socket and a real index.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCore } from '../../src/main/api/core.js';
import { connectRpc, type RpcCallError, type RpcClient } from '../../src/main/client/socket-client.js';
import { startDaemon, type Daemon } from '../../src/main/daemon/daemon.js';
import { tempDir } from '../server/helpers.js';

const HOSTILE = '/home/user/hostile';
const VICTIM = '/secret/victim';
const TOKEN = 'limited-token-0123456789abcdef';
let dir: string;
let daemon: Daemon;
let lim: RpcClient;
let me: RpcClient;
let hostileId: number;
let victimId: number;

const line = (o: object) => JSON.stringify(o) + '\n';
const code = (p: Promise<unknown>) => p.then(() => 'ok' as const, (e: RpcCallError) => e.code);

beforeAll(async () => {
  dir = tempDir('tl-access-');
  const imports = path.join(dir, 'import');
  fs.mkdirSync(imports);
  const settingsPath = path.join(dir, 'settings.json');
  fs.writeFileSync(settingsPath, JSON.stringify({ tokens: [{ name: 'lim', token: TOKEN, workspaces: [HOSTILE] }] }));
  const options = { dbPath: path.join(dir, 'index.sqlite'), settingsPath, sources: [{ kind: 'jsonl' as const, root: imports }] };
  fs.writeFileSync(path.join(imports, 'hostile.jsonl'), line({ type: 'conversation', id: 'hostile-own', workspace: HOSTILE }) + line({ type: 'message', role: 'user', text: 'the hostile side' }));
  let core = createCore(options);
  await core.scan();
  hostileId = core.db.prepare("SELECT id FROM conversations WHERE key = 'hostile-own'").pluck().get() as number;
  core.close();
  // The victim's import id is the hostile conversation's row id.
  fs.writeFileSync(path.join(imports, 'victim.jsonl'), line({ type: 'conversation', id: String(hostileId), workspace: VICTIM }) + line({ type: 'message', role: 'user', text: 'zyxvictimsecret payroll' }));
  core = createCore(options);
  await core.scan();
  victimId = core.db.prepare('SELECT id FROM conversations WHERE key = ?').pluck().get(String(hostileId)) as number;
  core.close();
  daemon = await startDaemon({ ...options, socketPath: path.join(dir, 'agent.sock'), log: false, watch: false });
  lim = await connectRpc(daemon.socketPath, { token: TOKEN });
  me = await connectRpc(daemon.socketPath);
});

afterAll(async () => {
  lim?.close();
  me?.close();
  await daemon?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('the issue’s repro', () => {
  it('the ids collide as the issue describes', () => {
    expect(victimId).not.toBe(hostileId);
    expect(victimId).toBeGreaterThan(0);
  });

  it('a limited token cannot reach the victim through its import id, which is also its own row id', async () => {
    expect(await code(lim.call('read_conversation', { conversation_id: victimId }))).toBe(-32003);
    // The push lands in a conversation of its own, in the token's workspace: the victim belongs to its
    // import file, and a push never writes into another file's conversation.
    const appended = await lim.call('ingest.append', { conversation: { id: String(hostileId) }, entries: [{ role: 'user', text: 'hi' }] });
    expect(appended.conversation).not.toBe(victimId);
    expect((await me.call('conversations.get', { conversation_id: appended.conversation! })).conversation.workspace).toBe(HOSTILE);
    expect(await code(lim.call('read_conversation', { conversation_id: victimId }))).toBe(-32003);
    const victim = await me.call('conversations.get', { conversation_id: victimId });
    expect(victim.conversation.workspace).toBe(VICTIM);
    expect(victim.conversation.entryCount).toBe(1);
    expect(JSON.stringify(await lim.call('read_conversation', { conversation_id: appended.conversation! }))).not.toContain('zyxvictimsecret');
  });

  it('a limited token cannot append to a pushed conversation outside its workspaces', async () => {
    const pushed = await me.call('ingest.append', { conversation: { id: 'pushed-victim', workspace: VICTIM }, entries: [{ role: 'user', text: 'zyxpushedsecret' }] });
    expect(await code(lim.call('ingest.append', { conversation: { id: 'pushed-victim' }, entries: [{ role: 'user', text: 'hi' }] }))).toBe(-32003);
    expect(await code(lim.call('ingest.append', { conversation: { id: 'pushed-victim', workspace: HOSTILE }, entries: [{ role: 'user', text: 'hi' }] }))).toBe(-32003);
    const after = await me.call('conversations.get', { conversation_id: pushed.conversation! });
    expect(after.conversation).toMatchObject({ workspace: VICTIM, entryCount: 1 });
  });
});

describe('every method that names a conversation', () => {
  const refs = () => [victimId, String(victimId), path.join(dir, 'import', 'victim.jsonl')];

  it('refuses the victim by row id, id as text and file path', async () => {
    for (const ref of refs()) {
      expect(await code(lim.call('read_conversation', { conversation_id: ref })), String(ref)).toBe(-32003);
      expect(await code(lim.call('conversation_inspect', { conversation_id: ref, query: 'payroll' })), String(ref)).toBe(-32003);
      const conversation = String(ref);
      expect(await code(lim.call('history_search', { conversation, query: 'payroll' })), conversation).toBe(-32003);
      expect(await code(lim.call('history_read', { conversation, mode: 'tail' })), conversation).toBe(-32003);
      expect(await code(lim.call('history_handoff', { conversation, text: 'taken over' })), conversation).toBe(-32003);
    }
    expect((await me.call('conversations.get', { conversation_id: victimId })).handoffs).toEqual([]);
  });

  it('answers the token’s own conversation by the same reference forms', async () => {
    expect((await lim.call('read_conversation', { conversation_id: hostileId })).text).toContain('hostile side');
    expect((await lim.call('read_conversation', { conversation_id: 'hostile-own' })).text).toContain('hostile side');
  });
});

describe('an append never moves a conversation', () => {
  it('keeps the workspace of an existing conversation, whoever appends and whatever workspace they name', async () => {
    await me.call('ingest.append', { conversation: { id: 'stays-put', workspace: '/open/first' }, entries: [{ role: 'user', text: 'one' }] });
    const moved = await me.call('ingest.append', { conversation: { id: 'stays-put', workspace: HOSTILE }, entries: [{ role: 'user', text: 'two' }] });
    const c = await me.call('conversations.get', { conversation_id: moved.conversation! });
    expect(c.conversation.workspace).toBe('/open/first');
    expect(c.conversation.entryCount).toBe(2);
    expect(await code(lim.call('ingest.append', { conversation: { id: 'stays-put' }, entries: [{ role: 'user', text: 'three' }] }))).toBe(-32003);
  });

  it('lets the limited token append to its own conversations', async () => {
    const r = await lim.call('ingest.append', { conversation: { id: 'hostile-own-pushed' }, entries: [{ role: 'user', text: 'mine' }] });
    expect((await lim.call('read_conversation', { conversation_id: r.conversation! })).text).toContain('mine');
  });
});
