// The daemon's reader threads start a moment after its socket (daemon.ts READERS_DELAY_MS), so their
// start (~250 ms of CPU each) does not take the CPU its first answer needs; that answer and any
// before the readers are up come from the main thread, as they did while the readers were starting.
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { READERS_DELAY_MS, startDaemon, type Daemon } from '../../src/main/daemon/daemon.js';
import { connectRpc, type RpcClient } from '../../src/main/client/socket-client.js';
import type { RecallResult } from '../../src/shared/api.js';
import { buildIndex, SHARED_TERM } from './helpers.js';

let daemon: Daemon | null = null;
let client: RpcClient | null = null;
afterEach(async () => {
  client?.close();
  client = null;
  await daemon?.close();
  daemon = null;
});

describe('reader threads after the first answer', () => {
  it('none runs when the daemon answers its first call; both start after the delay and answer then', async () => {
    const index = await buildIndex();
    const started = performance.now();
    daemon = await startDaemon({ dbPath: index.dbPath, settingsPath: index.settingsPath, socketPath: path.join(index.dir, 'a.sock'), watch: false, log: false, readers: 2 });
    // Listening, and no reader thread started (both were, with the socket, before).
    expect(daemon.readers!.threads()).toHaveLength(0);
    client = await connectRpc(daemon.socketPath, { timeoutMs: 60_000 });
    const first = (await client.request('recall_conversations', { query: SHARED_TERM, workspace: 'all' })) as RecallResult;
    expect(first.hits.length).toBeGreaterThan(0);
    expect(await daemon.readers!.ready()).toBe(2);
    expect(performance.now() - started).toBeGreaterThanOrEqual(READERS_DELAY_MS);
    expect(daemon.readers!.threads()).toHaveLength(2);
    const later = (await client.request('recall_conversations', { query: SHARED_TERM, workspace: 'all' })) as RecallResult;
    expect(later.hits.map((h) => h.id)).toEqual(first.hits.map((h) => h.id));
  });

  it('a daemon closed before its readers start leaves none behind', async () => {
    const index = await buildIndex();
    daemon = await startDaemon({ dbPath: index.dbPath, settingsPath: index.settingsPath, socketPath: path.join(index.dir, 'b.sock'), watch: false, log: false, readers: 2 });
    const pool = daemon.readers!;
    await daemon.close();
    daemon = null;
    expect(await pool.ready()).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, READERS_DELAY_MS + 200));
    expect(pool.threads()).toHaveLength(0);
  });
});
