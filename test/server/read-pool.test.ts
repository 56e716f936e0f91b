// The daemon's reader threads (src/main/api/read-pool.ts): recall's reads answered off the event loop,
// each thread on its own read-only connection. Real daemon, real socket, real threads and SQLite file.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startDaemon, type Daemon } from '../../src/main/daemon/daemon.js';
import { connectRpc, type RpcClient } from '../../src/main/client/socket-client.js';
import { createReadPool } from '../../src/main/api/read-pool.js';
import { localReads } from '../../src/main/api/read-calls.js';
import { withDeadline } from '../../src/main/api/call-deadline.js';
import { createRecall } from '../../src/main/recall/index.js';
import { openDb } from '../../src/main/store/db.js';
import type { RecallResult } from '../../src/shared/api.js';
import { buildIndex, tempDir, SHARED_TERM, WS_A } from './helpers.js';

let daemon: Daemon | null = null;
let client: RpcClient | null = null;
afterEach(async () => {
  client?.close();
  client = null;
  await daemon?.close();
  daemon = null;
});

async function serve(readers: number): Promise<{ daemon: Daemon; client: RpcClient }> {
  const index = await buildIndex();
  daemon = await startDaemon({ dbPath: index.dbPath, settingsPath: index.settingsPath, socketPath: path.join(index.dir, 'a.sock'), watch: false, log: false, readers });
  expect(await daemon.readers!.ready()).toBe(readers);
  client = await connectRpc(daemon.socketPath, { timeoutMs: 60_000 });
  return { daemon, client };
}

/** CPU time a thread has spent running JavaScript (its event loop's active time), ms. */
const busyMs = (d: Daemon): number => d.readers!.threads().reduce((a, w) => a + w.performance.eventLoopUtilization().active, 0);

describe('reader threads', () => {
  it('answer recall over the socket, and a client that appends then reads finds what it appended', async () => {
    const { daemon: d, client: c } = await serve(2);
    const before = busyMs(d);
    for (let i = 0; i < 12; i++) {
      const word = `quokkaledger${i}x${Date.now().toString(36)}`;
      const appended = (await c.request('ingest.append', {
        conversation: { id: `ryw-${i}`, workspace: WS_A, title: `round ${i}` },
        entries: [{ role: 'user', text: `the ${word} is stored under the stairs` }],
      })) as { conversation: number };
      const found = (await c.request('recall_conversations', { query: word, workspace: 'all' })) as RecallResult;
      expect(found.hits.map((h) => h.id)).toEqual([appended.conversation]);
      // A second append to the same conversation, then a read of it: the new entry is there.
      await c.request('ingest.append', { conversation: { id: `ryw-${i}` }, entries: [{ role: 'assistant', text: `moved the ${word} to the attic` }] });
      const read = (await c.request('history_search', { conversation: `ryw-${i}`, query: 'attic' })) as { hits: unknown[] };
      expect(read.hits.length).toBe(1);
    }
    // The reads ran on the reader threads: their event loops did work.
    expect(busyMs(d)).toBeGreaterThan(before);
  });

  it('give the same answers as the main thread', async () => {
    const { daemon: d, client: c } = await serve(1);
    const db = openDb(d.core.db.name, { readonly: true });
    try {
      const here = localReads(createRecall(db));
      const viaThread = await c.request('recall_conversations', { query: SHARED_TERM, workspace: 'all', now: '2026-12-01T00:00:00Z' });
      expect(viaThread).toEqual(await here.recall({ query: SHARED_TERM, workspace: 'all', now: '2026-12-01T00:00:00Z' }));
      const suggestion = (await c.request('suggest', { text: `the ${SHARED_TERM} migration plan`, workspace: WS_A, scope: 'everywhere', sensitivity: 'broad' })) as { suggestions: unknown[] };
      expect(suggestion.suggestions.length).toBeGreaterThan(0);
      // A refusal made on a reader thread comes back as the same JSON-RPC error.
      await expect(c.request('read_conversation', { conversation_id: 999_999 })).rejects.toMatchObject({ code: -32004 });
      await expect(c.request('read_conversation', { conversation_id: 'conv-alpha', turns: '5-2' })).rejects.toMatchObject({ code: -32602 });
    } finally {
      db.close();
    }
  });

  it('recover from a thread that stops mid-call: the call is answered, the thread replaced', async () => {
    const { daemon: d, client: c } = await serve(2);
    const pool = d.readers!;
    const [first, second] = pool.threads();
    // The call is handed to the first free thread as it is made; that thread dies with it.
    const pending = d.core.api.recall_conversations({ query: SHARED_TERM, workspace: 'all' });
    await first!.terminate();
    expect((await pending).hits.length).toBe(2);
    expect(await pool.ready()).toBe(2);
    const now = pool.threads();
    expect(now).toContain(second);
    expect(now).not.toContain(first);
    // The replacement answers: the socket client, which never noticed, still gets its results.
    for (let i = 0; i < 4; i++) expect(((await c.request('recall_conversations', { query: SHARED_TERM, workspace: 'all' })) as RecallResult).hits.length).toBe(2);
  });

  it('answer on the main thread when every thread is gone, and refuse nothing', async () => {
    const dir = tempDir();
    const index = await buildIndex(dir);
    const db = openDb(index.dbPath, { readonly: true });
    const logged: string[] = [];
    const pool = createReadPool({ dbPath: index.dbPath, size: 1, fallback: localReads(createRecall(db)), log: (_l, m) => logged.push(m) });
    try {
      expect(await pool.ready()).toBe(1);
      const [only] = pool.threads();
      const pending = pool.reads.recall({ query: SHARED_TERM, workspace: 'all' });
      await only!.terminate();
      // Given again: no other thread is ready (the replacement is starting), so this thread answers.
      expect((await pending).hits.length).toBe(2);
      expect(logged.some((m) => /stopped .*starting another/.test(m))).toBe(true);
    } finally {
      await pool.close();
      db.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('are not started for 0, and a worker script that cannot start leaves the calls on the main thread', async () => {
    const none = await buildIndex();
    daemon = await startDaemon({ dbPath: none.dbPath, settingsPath: none.settingsPath, socketPath: path.join(none.dir, 'a.sock'), watch: false, log: false, readers: 0 });
    expect(daemon.readers).toBeNull();
    const dir = tempDir();
    const index = await buildIndex(dir);
    const db = openDb(index.dbPath, { readonly: true });
    const logged: string[] = [];
    const pool = createReadPool({ dbPath: path.join(dir, 'no-such.sqlite'), size: 1, fallback: localReads(createRecall(db)), log: (_l, m) => logged.push(m) });
    try {
      expect(await pool.ready()).toBe(0);
      expect((await pool.reads.recall({ query: SHARED_TERM, workspace: 'all' })).hits.length).toBe(2);
      expect(logged.some((m) => /did not start/.test(m))).toBe(true);
    } finally {
      await pool.close();
      db.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
  it('stop when idle, and start again (up to their number) when calls come, the first answered here meanwhile', async () => {
    const dir = tempDir();
    const index = await buildIndex(dir);
    const db = openDb(index.dbPath, { readonly: true });
    const pool = createReadPool({ dbPath: index.dbPath, size: 2, fallback: localReads(createRecall(db)), idleMs: 300 });
    const until = async (check: () => boolean) => {
      for (let waited = 0; !check(); waited += 20) {
        if (waited > 30_000) throw new Error('readers did not stop');
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    };
    try {
      // (One may stop before the other is ready, on a busy machine: 300 ms is short.)
      expect(await pool.ready()).toBeGreaterThan(0);
      expect((await pool.reads.recall({ query: SHARED_TERM, workspace: 'all' })).hits.length).toBe(2);
      await until(() => pool.threads().length === 0);
      // None running: this call is answered on this thread, and one reader is started.
      expect((await pool.reads.recall({ query: SHARED_TERM, workspace: 'all' })).hits.length).toBe(2);
      expect(pool.threads()).toHaveLength(1);
      expect(await pool.ready()).toBe(1);
      // Calls waiting with the one reader busy: a second is started, no third.
      const calls = Array.from({ length: 6 }, () => pool.reads.recall({ query: SHARED_TERM, workspace: 'all' }));
      expect(pool.threads()).toHaveLength(2);
      for (const hits of await Promise.all(calls)) expect(hits.hits.length).toBe(2);
      expect(pool.threads().length).toBeLessThanOrEqual(2);
    } finally {
      await pool.close();
      db.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
    // Three reader starts through tsx: well over the default 30 s on a busy machine.
  }, 180_000);
  it('while one starts, answer a burst here only at half this thread\'s time: the others wait for it, and all are answered', async () => {
    const dir = tempDir();
    const index = await buildIndex(dir);
    const db = openDb(index.dbPath, { readonly: true });
    // Started later than the test's calls: the burst comes while the readers wait to start.
    const pool = createReadPool({ dbPath: index.dbPath, size: 2, fallback: localReads(createRecall(db)), startDelayMs: 60_000 });
    try {
      let settled = 0;
      const calls = Array.from({ length: 8 }, () => pool.reads.recall({ query: SHARED_TERM, workspace: 'all' }).finally(() => settled++));
      // Answered here one after another, all eight were done before any other task ran (the old way).
      // Now the second waits for this thread's next turn, a timer as long as the first call took: when
      // that took under a millisecond (a warm cache), the timer may fire before the next task too.
      await new Promise((resolve) => setImmediate(resolve));
      expect(settled).toBeGreaterThanOrEqual(1);
      expect(settled).toBeLessThanOrEqual(2);
      // The burst started the readers at once instead of after their delay.
      expect(pool.threads().length).toBeGreaterThan(0);
      for (const result of await Promise.all(calls)) expect(result.hits.length).toBe(2);
      expect(pool.timing().calls).toBe(8);
    } finally {
      await pool.close();
      db.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
  it('stop a spare reader after its short idle time and keep the last one until its own', async () => {
    const dir = tempDir();
    const index = await buildIndex(dir);
    const db = openDb(index.dbPath, { readonly: true });
    const pool = createReadPool({ dbPath: index.dbPath, size: 2, fallback: localReads(createRecall(db)), idleMs: 600_000, spareIdleMs: 300 });
    try {
      // Both start with the pool; the slower of the two may already be the spare that stops.
      expect(await pool.ready()).toBeGreaterThan(0);
      for (let waited = 0; pool.threads().length > 1; waited += 20) {
        if (waited > 30_000) throw new Error('the spare reader did not stop');
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      // Well past the spare's 300 ms: the last reader stays (its own idle time is ten minutes) and answers.
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      expect(pool.threads()).toHaveLength(1);
      expect(await pool.ready()).toBe(1);
      expect((await pool.reads.recall({ query: SHARED_TERM, workspace: 'all' })).hits.length).toBe(2);
      expect(pool.threads()).toHaveLength(1);
    } finally {
      await pool.close();
      db.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
  it('log where the calls spent their time: waiting for a reader, running, handed over', async () => {
    const dir = tempDir();
    const index = await buildIndex(dir);
    const db = openDb(index.dbPath, { readonly: true });
    const lines: string[] = [];
    const pool = createReadPool({ dbPath: index.dbPath, size: 1, fallback: localReads(createRecall(db)), timingEvery: 4, log: (_level, message) => lines.push(message) });
    try {
      expect(await pool.ready()).toBe(1);
      // Four calls at once on one reader: three of them wait for the one before.
      await Promise.all(Array.from({ length: 4 }, () => pool.reads.recall({ query: SHARED_TERM, workspace: 'all' })));
      const line = lines.find((l) => l.startsWith('reads: 4 calls (0 on the main thread, 1 reader)'));
      expect(line).toMatch(/waited for a reader p50 [\d.]+ \/ p99 [\d.]+ \/ mean [\d.]+ ms; ran p50 [\d.]+ .*; handed over p50 /);
      // The summary since that line starts again; a call that ran says how long.
      await pool.reads.recall({ query: SHARED_TERM, workspace: 'all' });
      const since = pool.timing();
      expect(since.calls).toBe(1);
      expect(since.ran.p50).toBeGreaterThan(0);
      expect(since.waited.p50).toBeGreaterThanOrEqual(0);
    } finally {
      await pool.close();
      db.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuse a call still queued past its deadline instead of running it, and run the others', async () => {
    const dir = tempDir();
    const index = await buildIndex(dir);
    const db = openDb(index.dbPath, { readonly: true });
    const pool = createReadPool({ dbPath: index.dbPath, size: 1, fallback: localReads(createRecall(db)) });
    try {
      expect(await pool.ready()).toBe(1);
      // The only thread takes the first call; the next two wait for it. One of them is past its
      // deadline (the socket has refused it already): a thread would answer nobody.
      const running = pool.reads.recall({ query: SHARED_TERM, workspace: 'all' });
      const expired = withDeadline(Date.now() - 1, () => pool.reads.recall({ query: SHARED_TERM, workspace: 'all' }));
      const awaited = withDeadline(Date.now() + 60_000, () => pool.reads.recall({ query: SHARED_TERM, workspace: 'all' }));
      await expect(expired).rejects.toMatchObject({ code: -32001 });
      expect((await running).hits.length).toBe(2);
      expect((await awaited).hits.length).toBe(2);
    } finally {
      await pool.close();
      db.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
