// Who may see what: a token limited to workspace A never gets anything from workspace B, by any method.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import path from 'node:path';
import { connectRpc, RpcCallError, type RpcClient } from '../../src/main/client/socket-client.js';
import { startDaemon, type Daemon } from '../../src/main/daemon/daemon.js';
import { buildIndex, SHARED_TERM, tempDir, WS_A, WS_B, type TestIndex } from './helpers.js';

const TOKEN_A = 'token-for-alpha-0123456789';
const TOKEN_ALL = 'token-for-everything-012345';
let index: TestIndex;
let daemon: Daemon;

beforeAll(async () => {
  index = await buildIndex(tempDir(), {
    tokens: [
      { name: 'alpha-agent', token: TOKEN_A, workspaces: [WS_A] },
      { name: 'trusted-agent', token: TOKEN_ALL },
    ],
  });
  daemon = await startDaemon({ dbPath: index.dbPath, settingsPath: index.settingsPath, socketPath: path.join(index.dir, 'agent.sock'), log: false, watch: false });
}, 30_000);
afterAll(async () => {
  await daemon?.close();
});

async function code(p: Promise<unknown>): Promise<number | 'ok'> {
  try {
    await p;
    return 'ok';
  } catch (err) {
    return (err as RpcCallError).code;
  }
}

/** B's workspace, its id, or its secret (only B's transcript holds "4711"; queries never contain it). */
const leaksB = (value: unknown): boolean => {
  const s = JSON.stringify(value);
  return s.includes(WS_B) || s.includes('conv-beta') || s.includes('4711') || new RegExp(`"id":${index.b}\\b`).test(s);
};

describe('a token limited to workspace A', () => {
  let rpc: RpcClient;
  beforeAll(async () => {
    rpc = await connectRpc(daemon.socketPath, { token: TOKEN_A });
  });
  afterAll(() => rpc.close());

  it('is told its workspaces on auth', async () => {
    const other = await connectRpc(daemon.socketPath);
    expect(await other.request('auth', { token: TOKEN_A, client: 'tester' })).toEqual({ client: 'tester', token: 'alpha-agent', workspaces: [WS_A], protocol: 1 });
    // Once authenticated, a connection cannot become someone else.
    expect(await code(other.request('auth', {}))).toBe(-32003);
    other.close();
  });

  it('searches only inside A, whatever workspace it asks for', async () => {
    const all = await rpc.call('recall_conversations', { query: SHARED_TERM, workspace: 'all' });
    expect(all.hits.map((h) => h.id)).toEqual([index.a]);
    expect(leaksB(all)).toBe(false);
    const implicit = await rpc.call('recall_conversations', { query: SHARED_TERM });
    expect(implicit.hits.map((h) => h.id)).toEqual([index.a]);
    expect(await code(rpc.call('recall_conversations', { query: SHARED_TERM, workspace: WS_B }))).toBe(-32003);
    expect(await code(rpc.call('suggest', { text: `plan the ${SHARED_TERM} rollout`, workspace: WS_B }))).toBe(-32003);
    const s = await rpc.call('suggest', { text: `plan the ${SHARED_TERM} migration and rollout`, scope: 'everywhere' });
    expect(s.suggestions.every((x) => x.workspace === WS_A)).toBe(true);
    expect(leaksB(s)).toBe(false);
  });

  it('cannot read, inspect or search B’s conversation by any reference', async () => {
    for (const ref of [index.b, 'conv-beta', 'throughline-append://conv-beta']) {
      expect(await code(rpc.call('read_conversation', { conversation_id: ref }))).toBe(-32003);
      expect(await code(rpc.call('conversation_inspect', { conversation_id: ref, query: SHARED_TERM }))).toBe(-32003);
    }
    expect(await code(rpc.call('history_search', { conversation: 'conv-beta', query: SHARED_TERM }))).toBe(-32003);
    expect(await code(rpc.call('history_read', { conversation: 'conv-beta', mode: 'tail' }))).toBe(-32003);
    expect(await code(rpc.call('history_read', { conversation: 'conv-beta', mode: 'range', from: 0 }))).toBe(-32003);
    expect(await code(rpc.call('history_handoff', { conversation: 'conv-beta', text: 'hijack' }))).toBe(-32003);
    // And A's own conversation is readable.
    expect((await rpc.call('read_conversation', { conversation_id: index.a })).text).toContain(SHARED_TERM);
    expect((await rpc.call('history_search', { conversation: 'conv-alpha', query: SHARED_TERM, before: 100 })).hits.length).toBeGreaterThan(0);
  });

  it('cannot push entries into B, nor move B’s conversation into reach', async () => {
    const entries = [{ role: 'user' as const, text: 'hello' }];
    expect(await code(rpc.call('ingest.append', { conversation: { id: 'new-in-b', workspace: WS_B }, entries }))).toBe(-32003);
    expect(await code(rpc.call('ingest.append', { conversation: { id: 'conv-beta', workspace: WS_A }, entries }))).toBe(-32003);
    const ok = await rpc.call('ingest.append', { conversation: { id: 'new-in-a' }, entries });
    expect(ok.entries).toBe(1);
  });

  it('may not call the settings, activity or list methods', async () => {
    for (const m of ['settings.get', 'activity', 'conversations.list', 'conversations.workspaces'] as const) expect(await code(rpc.call(m, {}))).toBe(-32003);
    const status = await rpc.call('status', {});
    expect(status.errors).toEqual([]);
  });

  it('gets nothing of B for any query through any string parameter', async () => {
    const queries = [SHARED_TERM, 'rollout', `${SHARED_TERM} rollout`, 'port', 'secret detail port', 'plan', '"rollout"', 'roll*', 'beta'];
    for (const q of queries) {
      for (const call of [
        rpc.call('recall_conversations', { query: q, workspace: 'all' }),
        rpc.call('suggest', { text: q, scope: 'everywhere' }),
        rpc.call('conversation_inspect', { conversation_id: index.a, query: q }),
      ]) {
        const r = await call.catch((e: RpcCallError) => ({ code: e.code }));
        expect(leaksB(r), q).toBe(false);
      }
    }
  });
});

describe('other callers', () => {
  it('a wrong token is refused, and the connection stays refused', async () => {
    await expect(connectRpc(daemon.socketPath, { token: 'not-a-token-at-all-000' })).rejects.toMatchObject({ code: -32003 });
    const raw = await connectRpc(daemon.socketPath);
    expect(await code(raw.request('auth', { token: 'not-a-token-at-all-000' }))).toBe(-32003);
    expect(await code(raw.call('status', {}))).toBe(-32003);
    raw.close();
  });

  it('an unlimited token and the local user (no token) see every workspace', async () => {
    for (const rpc of [await connectRpc(daemon.socketPath, { token: TOKEN_ALL }), await connectRpc(daemon.socketPath)]) {
      const r = await rpc.call('recall_conversations', { query: SHARED_TERM, workspace: 'all' });
      expect(r.hits.map((h) => h.id).sort()).toEqual([index.a, index.b].sort());
      // The leak detector used above does fire on B's material.
      expect(leaksB(await rpc.call('conversation_inspect', { conversation_id: index.b, query: 'port' }))).toBe(true);
      rpc.close();
    }
  });
});
