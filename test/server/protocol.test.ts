// The socket protocol's version and the client's checks: `auth` carries a version and a server
// refuses one it does not speak with -32007 (the connection may try again); the client refuses a
// daemon that answers another version, and any answer whose shape is not its method's.
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectRpc, RpcCallError } from '../../src/main/client/socket-client.js';
import { startDaemon, type Daemon } from '../../src/main/daemon/daemon.js';
import { PROTOCOL_VERSION, RPC } from '../../src/shared/rpc.js';
import { buildIndex, tempDir } from './helpers.js';

/** Sends the lines on a fresh connection and resolves to the parsed answer lines (one per request). */
function exchange(socketPath: string, lines: object[]): Promise<Record<string, unknown>[]> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(socketPath);
    let text = '';
    socket.setEncoding('utf8');
    socket.on('data', (d: string) => {
      text += d;
      const done = text.split('\n').filter(Boolean);
      if (done.length >= lines.length) {
        socket.destroy();
        resolve(done.map((l) => JSON.parse(l)));
      }
    });
    socket.on('error', reject);
    socket.on('connect', () => socket.write(lines.map((l) => JSON.stringify(l) + '\n').join('')));
  });
}

describe('auth and the protocol version, against the real daemon', () => {
  let daemon: Daemon;
  beforeAll(async () => {
    const index = await buildIndex(tempDir());
    daemon = await startDaemon({ dbPath: index.dbPath, settingsPath: index.settingsPath, socketPath: path.join(index.dir, 'agent.sock'), log: false, watch: false });
  }, 30_000);
  afterAll(async () => {
    await daemon?.close();
  });

  it('refuses a version it does not speak with a clear error, then takes one it does', async () => {
    const [newer, older, right, status] = await exchange(daemon.socketPath, [
      { jsonrpc: '2.0', id: 1, method: 'auth', params: { client: 'from-the-future', protocol: PROTOCOL_VERSION + 1 } },
      { jsonrpc: '2.0', id: 2, method: 'auth', params: { client: 'from-the-past', protocol: 0 } },
      { jsonrpc: '2.0', id: 3, method: 'auth', params: { client: 'now', protocol: PROTOCOL_VERSION } },
      { jsonrpc: '2.0', id: 4, method: 'status', params: {} },
    ]);
    expect(newer!.error).toEqual({
      code: RPC.UNSUPPORTED_PROTOCOL,
      message: expect.stringMatching(/speaks protocol 1; the client asked for protocol 2 \(a newer version\)/),
      data: { supported: [PROTOCOL_VERSION], requested: PROTOCOL_VERSION + 1 },
    });
    expect(older!.error).toMatchObject({ code: RPC.UNSUPPORTED_PROTOCOL, message: expect.stringContaining('(an older version)') });
    expect(right!.result).toEqual({ client: 'now', token: null, workspaces: null, protocol: PROTOCOL_VERSION });
    expect(status!.result).toMatchObject({ conversations: expect.any(Number) });
  });

  it('takes an auth without a version as this one (scripts from before versions), and a version that is not a number as bad params', async () => {
    const [plain] = await exchange(daemon.socketPath, [{ jsonrpc: '2.0', id: 1, method: 'auth', params: { client: 'script' } }]);
    expect(plain!.result).toMatchObject({ client: 'script', protocol: PROTOCOL_VERSION });
    const [odd] = await exchange(daemon.socketPath, [{ jsonrpc: '2.0', id: 1, method: 'auth', params: { protocol: 'one' } }]);
    expect(odd!.error).toMatchObject({ code: RPC.INVALID_PARAMS, data: { field: 'protocol' } });
  });

  it('the client names itself with its version and checks the answers of the real daemon', async () => {
    const rpc = await connectRpc(daemon.socketPath, { client: 'checked' });
    expect((await rpc.call('status', {})).conversations).toBeGreaterThan(0);
    expect((await rpc.call('recall_conversations', { query: 'redis', workspace: 'all' })).text).toEqual(expect.any(String));
    rpc.close();
  });
});

/** A server on a socket that answers each request line with what `answer` makes of it. */
async function fakeServer(answer: (req: { id: number; method: string }) => object): Promise<{ socketPath: string; close: () => void }> {
  const dir = tempDir();
  const socketPath = path.join(dir, 'fake.sock');
  const server = net.createServer((c) => {
    let text = '';
    c.setEncoding('utf8');
    c.on('data', (d: string) => {
      text += d;
      let nl: number;
      while ((nl = text.indexOf('\n')) >= 0) {
        const req = JSON.parse(text.slice(0, nl));
        text = text.slice(nl + 1);
        c.write(JSON.stringify({ jsonrpc: '2.0', id: req.id, ...answer(req) }) + '\n');
      }
    });
  });
  await new Promise<void>((r) => server.listen(socketPath, r));
  return { socketPath, close: () => (server.close(), fs.rmSync(dir, { recursive: true, force: true })) };
}

describe('the client refuses answers it does not understand', () => {
  it('an auth answer of another version, or of none (a release from before versions)', async () => {
    for (const protocol of [PROTOCOL_VERSION + 1, undefined]) {
      const fake = await fakeServer(() => ({ result: { client: 'x', token: null, workspaces: null, protocol } }));
      const err = await connectRpc(fake.socketPath, { client: 'x' }).catch((e: RpcCallError) => e);
      fake.close();
      expect(err).toBeInstanceOf(RpcCallError);
      expect(err).toMatchObject({ code: RPC.UNSUPPORTED_PROTOCOL, message: expect.stringContaining(`this client speaks protocol ${PROTOCOL_VERSION}`) });
    }
  });

  it('a result without the fields its method has, naming the method and the field', async () => {
    const fake = await fakeServer((req) => (req.method === 'suggest' ? { result: { suggestions: [], reason: 'none' } } : { result: { hits: 'not a list' } }));
    const rpc = await connectRpc(fake.socketPath);
    await expect(rpc.call('suggest', { text: 'x' })).rejects.toMatchObject({
      code: RPC.INTERNAL,
      message: expect.stringMatching(/^The answer to suggest is not one this client understands: block: .*same Throughline release/),
      data: { method: 'suggest' },
    });
    await expect(rpc.call('recall_conversations', { query: 'x' })).rejects.toMatchObject({ message: expect.stringContaining('recall_conversations is not one this client understands: hits:') });
    rpc.close();
    fake.close();
  });

  it('an error without a numeric code, and an answer with neither result nor error', async () => {
    const fake = await fakeServer((req) => (req.method === 'status' ? { error: 'broken' } : {}));
    const rpc = await connectRpc(fake.socketPath);
    await expect(rpc.call('status', {})).rejects.toMatchObject({ code: RPC.INTERNAL, message: expect.stringContaining('an error without a numeric code and a message') });
    await expect(rpc.call('activity', {})).rejects.toMatchObject({ message: expect.stringContaining('neither a result nor an error') });
    rpc.close();
    fake.close();
  });
});
