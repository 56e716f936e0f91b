// The WAL's checkpoints off the daemon's event loop (src/main/api/checkpoints.ts): while a reader
// thread is ready, the writer no longer checkpoints in its commits and a reader does, so the log
// stays bounded under a long run of writes. Real daemon, real socket, real threads and SQLite files.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startDaemon, type Daemon } from '../../src/main/daemon/daemon.js';
import { connectRpc, type RpcClient } from '../../src/main/client/socket-client.js';
import { createCore } from '../../src/main/api/core.js';
import { BACKSTOP_PAGES, CHECKPOINT_AFTER_MS } from '../../src/main/api/checkpoints.js';
import { SQLITE_AUTOCHECKPOINT } from '../../src/main/store/checkpoint.js';
import { buildIndex, WS_A } from './helpers.js';

let daemon: Daemon | null = null;
let client: RpcClient | null = null;
afterEach(async () => {
  client?.close();
  client = null;
  await daemon?.close();
  daemon = null;
});

const PAGE = 4096;
/** Under writes back to back the log starts over at the writer's backstop: its pages and one transaction's more. */
const BACKSTOP_BOUND = 1.5 * BACKSTOP_PAGES * PAGE;
/** Written in bursts with pauses between, as agents write, the readers' checkpoints let it start over well before. */
const BURST_BOUND = (BACKSTOP_PAGES / 2) * PAGE;
const APPENDS = 250;
const BURSTS = 4;
const BURST = 20;

const walSize = (dbPath: string): number => (fs.existsSync(`${dbPath}-wal`) ? fs.statSync(`${dbPath}-wal`).size : 0);
/** One append's entry: a paragraph of words no other append has, so each writes its own index pages. */
const entryText = (i: number): string => Array.from({ length: 120 }, (_, k) => `w${i}x${k}q${(i * 7919 + k * 104729) % 100003}`).join(' ');
const append = (i: number) => ({ conversation: { id: `wal-${i % 50}`, workspace: WS_A, title: `wal round ${i % 50}` }, entries: [{ role: 'user' as const, text: entryText(i) }] });
const autoCheckpoint = (d: Daemon): number => d.core.db.pragma('wal_autocheckpoint', { simple: true }) as number;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function serve(): Promise<{ daemon: Daemon; client: RpcClient; dbPath: string }> {
  const index = await buildIndex();
  daemon = await startDaemon({ dbPath: index.dbPath, settingsPath: index.settingsPath, socketPath: path.join(index.dir, 'a.sock'), watch: false, log: false, readers: 1 });
  expect(await daemon.readers!.ready()).toBe(1);
  // The writer's own threshold is the backstop's while a reader checkpoints.
  expect(autoCheckpoint(daemon)).toBe(BACKSTOP_PAGES);
  client = await connectRpc(daemon.socketPath, { timeoutMs: 60_000 });
  return { daemon, client, dbPath: index.dbPath };
}

describe('the WAL under a long run of writes', () => {
  it('grows past both bounds when nothing checkpoints (the runs below are long enough to tell)', async () => {
    const index = await buildIndex();
    const core = createCore({ dbPath: index.dbPath, settingsPath: index.settingsPath, sources: [] });
    try {
      core.db.pragma('wal_autocheckpoint = 0');
      for (let i = 0; i < APPENDS; i++) {
        await core.api['ingest.append'](append(i));
        if (i === BURSTS * BURST - 1) expect(walSize(index.dbPath)).toBeGreaterThan(BURST_BOUND);
      }
      expect(walSize(index.dbPath)).toBeGreaterThan(BACKSTOP_BOUND);
    } finally {
      core.close();
    }
  });

  it('written in bursts, starts over after each: the checkpoints run on a reader thread', async () => {
    const { client: c, dbPath } = await serve();
    let largest = 0;
    for (let b = 0; b < BURSTS; b++) {
      for (let i = b * BURST; i < (b + 1) * BURST; i++) {
        await c.request('ingest.append', append(i));
        largest = Math.max(largest, walSize(dbPath));
      }
      await c.request('recall_conversations', { query: `w${b}x3`, workspace: 'all' });
      // The reader's checkpoint comes CHECKPOINT_AFTER_MS after the last commit; the next write starts the log over.
      await sleep(CHECKPOINT_AFTER_MS + 600);
    }
    expect(largest).toBeGreaterThan(0);
    expect(largest).toBeLessThan(BURST_BOUND);
  });

  it('written back to back, stays bounded by the writer’s backstop', async () => {
    const { client: c, dbPath } = await serve();
    let largest = 0;
    for (let i = 0; i < APPENDS; i++) {
      await c.request('ingest.append', append(i));
      if (i % 25 === 0) await c.request('recall_conversations', { query: `w${i}x3`, workspace: 'all' });
      largest = Math.max(largest, walSize(dbPath));
    }
    expect(largest).toBeLessThan(BACKSTOP_BOUND);
    // What was appended is all there.
    const last = APPENDS - 1;
    const found = (await c.request('history_search', { conversation: `wal-${last % 50}`, query: `w${last}x5q${(last * 7919 + 5 * 104729) % 100003}` })) as { hits: unknown[] };
    expect(found.hits.length).toBe(1);
  });

  it('hands the checkpoints back to the writer when its readers stop', async () => {
    const index = await buildIndex();
    daemon = await startDaemon({ dbPath: index.dbPath, settingsPath: index.settingsPath, socketPath: path.join(index.dir, 'a.sock'), watch: false, log: false, readers: 1 });
    expect(await daemon.readers!.ready()).toBe(1);
    expect(autoCheckpoint(daemon)).toBe(BACKSTOP_PAGES);
    await daemon.readers!.threads()[0]!.terminate();
    // The pool replaces a reader that stopped; meanwhile (no reader ready) the writer checkpoints.
    expect(autoCheckpoint(daemon)).toBe(SQLITE_AUTOCHECKPOINT);
    expect(await daemon.readers!.ready()).toBe(1);
    expect(autoCheckpoint(daemon)).toBe(BACKSTOP_PAGES);
  });
});
