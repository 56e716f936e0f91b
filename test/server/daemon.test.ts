// The daemon's life: a stale socket replaced, clean shutdown, unsafe folders refused, the time limit,
// and the in-process startDaemon() the Electron app uses.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Api } from '../../src/shared/api.js';
import { connectRpc, RpcCallError } from '../../src/main/client/socket-client.js';
import { startDaemon } from '../../src/main/daemon/daemon.js';
import { startSocketServer } from '../../src/main/server/socket.js';
import { buildIndex, exchange, req, spawnDaemon, tempDir, type RpcAnswer, type TestIndex } from './helpers.js';

let index: TestIndex;
beforeAll(async () => {
  index = await buildIndex();
}, 30_000);
afterAll(() => fs.rmSync(index.dir, { recursive: true, force: true }));

/** Leaves a socket file nobody listens on, and a pid file naming a dead process. */
async function staleSocket(socketPath: string): Promise<void> {
  const child = spawn(process.execPath, ['-e', `require('net').createServer().listen(${JSON.stringify(socketPath)}, () => console.log('up'))`], { stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise((resolve) => child.stdout.once('data', resolve));
  child.kill('SIGKILL');
  await new Promise((resolve) => child.once('exit', resolve));
  fs.writeFileSync(socketPath.replace(/\.sock$/, '.pid'), `${child.pid}\n`);
}

describe('throughline serve', () => {
  it('replaces a stale socket, serves, and on SIGTERM removes socket and pid file and closes the index', async () => {
    const dir = tempDir();
    const socketPath = path.join(dir, 'agent.sock');
    await staleSocket(socketPath);
    expect(fs.existsSync(socketPath)).toBe(true);

    const daemon = await spawnDaemon(index, [], socketPath);
    const [a] = (await exchange(socketPath, req(1, 'status'), 1)) as RpcAnswer[];
    expect(a!.result!.socket).toBe(socketPath);
    expect(fs.readFileSync(path.join(dir, 'agent.pid'), 'utf8').trim()).toBe(String(daemon.proc.pid));

    expect(await daemon.stop('SIGTERM')).toBe(0);
    expect(fs.existsSync(socketPath)).toBe(false);
    expect(fs.existsSync(path.join(dir, 'agent.pid'))).toBe(false);
    // A clean close checkpoints and removes the write-ahead log.
    expect(fs.existsSync(index.dbPath + '-wal')).toBe(false);
    expect(fs.readFileSync(path.join(index.dir, 'daemon.log'), 'utf8')).toMatch(/SIGTERM: shutting down[\s\S]*stopped/);
  }, 60_000);
});

describe('startDaemon (in process, as the app runs it)', () => {
  it('answers its first request quickly, without waiting for the initial scan', async () => {
    const dir = tempDir();
    const t0 = performance.now();
    const daemon = await startDaemon({ dbPath: index.dbPath, settingsPath: index.settingsPath, socketPath: path.join(dir, 's.sock'), log: false, sources: [] });
    const client = await connectRpc(daemon.socketPath);
    const status = await client.call('status', {});
    const ms = performance.now() - t0;
    expect(status.conversations).toBeGreaterThan(0);
    expect(ms).toBeLessThan(2000); // goal 500 ms; generous here because test machines are shared
    client.close();
    await daemon.close();
    expect(fs.existsSync(daemon.socketPath)).toBe(false);
  });

  it('refuses a socket folder open to other users', async () => {
    const dir = tempDir();
    fs.chmodSync(dir, 0o755);
    await expect(startDaemon({ dbPath: index.dbPath, settingsPath: index.settingsPath, socketPath: path.join(dir, 's.sock'), log: false, watch: false })).rejects.toThrow(/open to other users/);
  });

  it.skipIf(process.getuid?.() !== 0)('refuses a socket folder owned by someone else', async () => {
    const dir = tempDir();
    fs.chownSync(dir, 65534, 65534);
    await expect(startDaemon({ dbPath: index.dbPath, settingsPath: index.settingsPath, socketPath: path.join(dir, 's.sock'), log: false, watch: false })).rejects.toThrow(/belongs to uid 65534/);
  });
});

describe('time limit', () => {
  it('refuses a call still waiting past the limit with -32001, answering in order', async () => {
    const slow = {
      status: async () => {
        // Synchronous work, as the index's calls are: the next request waits behind it.
        const until = Date.now() + 120;
        while (Date.now() < until);
        return { conversations: 0 };
      },
    } as unknown as Api;
    const server = await startSocketServer({ socketPath: path.join(tempDir(), 't.sock'), api: slow, timeoutMs: 100 });
    try {
      const client = await connectRpc(server.socketPath);
      // request, not call: this api's status is a stub, and the client checks a call's answer against IndexStatus.
      const results = await Promise.allSettled([client.request('status', {}), client.request('status', {}), client.request('status', {})]);
      expect(results[0]!.status).toBe('fulfilled');
      const refused = results.slice(1).filter((r) => r.status === 'rejected') as PromiseRejectedResult[];
      expect(refused.length).toBeGreaterThan(0);
      for (const r of refused) expect((r.reason as RpcCallError).code).toBe(-32001);
      client.close();
    } finally {
      await server.close();
    }
  });

  it('refuses an async call that runs over the limit', async () => {
    const hanging = { status: () => new Promise(() => {}) } as unknown as Api;
    const server = await startSocketServer({ socketPath: path.join(tempDir(), 'h.sock'), api: hanging, timeoutMs: 50 });
    try {
      const [a] = (await exchange(server.socketPath, req(1, 'status'), 1)) as RpcAnswer[];
      expect(a!.error!.code).toBe(-32001);
    } finally {
      await server.close();
    }
  });
});
