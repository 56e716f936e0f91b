// Every agent call over the socket is recorded, and `throughline activity` shows it.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ActivityItem } from '../../src/shared/api.js';
import { connectRpc } from '../../src/main/client/socket-client.js';
import { startDaemon, type Daemon } from '../../src/main/daemon/daemon.js';
import { BIN, buildIndex, runNode, SHARED_TERM, type TestIndex } from './helpers.js';

let index: TestIndex;
let daemon: Daemon;

beforeAll(async () => {
  index = await buildIndex();
  daemon = await startDaemon({ dbPath: index.dbPath, settingsPath: index.settingsPath, socketPath: path.join(index.dir, 'agent.sock'), log: false, watch: false });
}, 30_000);
afterAll(async () => {
  await daemon?.close();
});

describe('activity', () => {
  it('records client, method, a short params summary, the conversations returned and the size', async () => {
    const named = await connectRpc(daemon.socketPath, { client: 'my-agent' });
    const hits = await named.call('recall_conversations', { query: SHARED_TERM, workspace: 'all' });
    await named.call('suggest', { text: `${SHARED_TERM} `.repeat(1000) });
    named.close();
    const anon = await connectRpc(daemon.socketPath);
    await anon.call('read_conversation', { conversation_id: index.a });
    await anon.request('history_search', { conversation: 'conv-alpha', query: 'nothing-here', before: 100 });
    await anon.request('no_such_method').catch(() => {});
    const { items } = await anon.call('activity', { limit: 10 });
    anon.close();

    const [history, read, suggest, recall] = items as ActivityItem[];
    expect(recall).toMatchObject({ client: 'my-agent', method: 'recall_conversations' });
    expect(recall!.params).toContain(SHARED_TERM);
    expect(recall!.conversations.sort()).toEqual(hits.hits.map((h) => h.id).sort());
    expect(recall!.bytes).toBeGreaterThan(100);
    expect(suggest!.params.length).toBeLessThanOrEqual(300);
    expect(read).toMatchObject({ client: 'socket', method: 'read_conversation', conversations: [index.a] });
    // History calls name the caller's own conversation; unknown methods are not activity.
    expect(history).toMatchObject({ method: 'history_search', conversations: [index.a] });
    expect(items.some((i) => i.method === 'no_such_method' || i.method === 'activity')).toBe(false);
  });

  it('`throughline activity` prints it, newest first, as text or JSON', async () => {
    const env = { ...process.env, THROUGHLINE_SETTINGS: index.settingsPath };
    const [json, text] = await Promise.all([
      runNode([BIN, 'activity', '--db', index.dbPath, '--json', '--limit', '2'], { env }),
      runNode([BIN, 'activity', '--db', index.dbPath], { env }),
    ]);
    expect(json.code).toBe(0);
    const { items } = JSON.parse(json.stdout) as { items: ActivityItem[] };
    expect(items).toHaveLength(2);
    expect(items[0]!.at).toBeGreaterThanOrEqual(items[1]!.at);
    expect(text.stdout).toMatch(/my-agent\s+recall_conversations/);
  }, 30_000);
});
