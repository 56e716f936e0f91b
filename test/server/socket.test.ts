// The agent socket end to end: `throughline serve` in its own process, clients over the real socket.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDaemon } from '../../src/main/daemon/daemon.js';
import { buildIndex, exchange, req, runNode, spawnDaemon, ROOT, SHARED_TERM, type DaemonProcess, type RpcAnswer, type TestIndex } from './helpers.js';

let index: TestIndex;
let daemon: DaemonProcess;

beforeAll(async () => {
  index = await buildIndex();
  daemon = await spawnDaemon(index);
}, 60_000);

afterAll(async () => {
  await daemon?.stop();
});

const one = async (payload: string): Promise<RpcAnswer> => (await exchange(daemon.socketPath, payload, 1))[0] as RpcAnswer;

describe('protocol errors', () => {
  it('answers malformed JSON with -32700 and keeps the connection usable', async () => {
    const [bad, good] = (await exchange(daemon.socketPath, '{"jsonrpc":"2.0", "id": 1, "method": \n' + req(2, 'status'), 2)) as RpcAnswer[];
    expect(bad!.error!.code).toBe(-32700);
    expect(bad!.id).toBeNull();
    expect(good!.id).toBe(2);
    expect(good!.result!.conversations).toBeGreaterThan(0);
  });

  it('answers invalid requests with -32600, echoing a readable id', async () => {
    const answers = (await exchange(
      daemon.socketPath,
      [
        '{"id":1,"method":"status"}', // no jsonrpc
        '{"jsonrpc":"2.0","id":{"x":1},"method":"status"}', // bad id
        '{"jsonrpc":"2.0","id":3,"method":7}',
        '{"jsonrpc":"2.0","id":4,"method":"status","params":"x"}',
        '42',
        '[]',
      ].join('\n') + '\n',
      6,
    )) as RpcAnswer[];
    expect(answers.map((a) => a.error?.code)).toEqual([-32600, -32600, -32600, -32600, -32600, -32600]);
    expect(answers[2]!.id).toBe(3);
  });

  it('answers an unknown method with -32601', async () => {
    const a = await one(req(1, 'drop_table'));
    expect(a.error!.code).toBe(-32601);
    expect(a.error!.message).toContain('drop_table');
  });

  it('names the offending field for wrong types (-32602)', async () => {
    const cases: [string, unknown, string][] = [
      ['recall_conversations', { query: 5 }, 'query'],
      ['recall_conversations', { query: 'x', limit: 'ten' }, 'limit'],
      ['suggest', {}, 'text'],
      ['read_conversation', { conversation_id: -1 }, 'conversation_id'],
      ['history_read', { conversation: 'x', mode: 'items', entries: 'all' }, 'entries'],
      ['status', { extra: 1 }, '(params)'],
      ['conversation_inspect', { conversation_id: 1, around: 99 }, 'around'],
    ];
    const payload = cases.map(([m, p], i) => req(i, m, p)).join('');
    const answers = (await exchange(daemon.socketPath, payload, cases.length)) as RpcAnswer[];
    answers.forEach((a, i) => {
      expect(a.error?.code, cases[i]![0]).toBe(-32602);
      expect(a.error!.message).toContain(cases[i]![2]);
    });
  });

  it('refuses positional params', async () => {
    const a = await one('{"jsonrpc":"2.0","id":1,"method":"recall_conversations","params":["x"]}\n');
    expect(a.error!.code).toBe(-32602);
  });

  it('refuses a request over 1 MB without buffering it, then serves the next line', async () => {
    const huge = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'suggest', params: { text: 'x'.repeat(1_200_000) } });
    const [tooBig, next] = (await exchange(daemon.socketPath, huge + '\n' + req(2, 'status'), 2)) as RpcAnswer[];
    expect(tooBig!.error!.code).toBe(-32005);
    expect(next!.id).toBe(2);
    expect(next!.result).toBeDefined();
  });

  it('does not answer notifications, and answers batches as arrays', async () => {
    const payload =
      '{"jsonrpc":"2.0","method":"status"}\n' +
      JSON.stringify([
        { jsonrpc: '2.0', id: 'a', method: 'status' },
        { jsonrpc: '2.0', method: 'status' },
        { jsonrpc: '2.0', id: 'b', method: 'nope' },
      ]) +
      '\n' +
      req('last', 'status');
    const answers = await exchange(daemon.socketPath, payload, 2);
    expect(Array.isArray(answers[0])).toBe(true);
    expect((answers[0] as RpcAnswer[]).map((a) => a.id)).toEqual(['a', 'b']);
    expect((answers[1] as RpcAnswer).id).toBe('last');
  });

  it("answers another connection's call between the calls of a batch", async () => {
    // Two connections open before anything is sent: a batch of 100 searches on one, then a status on
    // the other. The status must not wait for the whole batch (it waited over a second at 10k).
    const open = () =>
      new Promise<net.Socket>((resolve, reject) => {
        const s = net.connect(daemon.socketPath);
        s.setEncoding('utf8');
        s.once('error', reject);
        s.once('connect', () => resolve(s));
      });
    const [batcher, other] = await Promise.all([open(), open()]);
    const order: string[] = [];
    const answered = (s: net.Socket, name: string) =>
      new Promise<string>((resolve) => {
        let buf = '';
        s.on('data', (d: string) => {
          buf += d;
          if (!buf.endsWith('\n')) return;
          order.push(name);
          resolve(buf);
        });
      });
    const batchAnswer = answered(batcher, 'batch');
    const statusAnswer = answered(other, 'status');
    const calls = Array.from({ length: 100 }, (_, i) => ({ jsonrpc: '2.0', id: i, method: 'recall_conversations', params: { query: `${SHARED_TERM} plan ${i}` } }));
    batcher.write(JSON.stringify(calls) + '\n');
    other.write(req('s', 'status'));
    const [batch, status] = await Promise.all([batchAnswer, statusAnswer]);
    batcher.destroy();
    other.destroy();
    expect((JSON.parse(status) as RpcAnswer).result).toBeDefined();
    expect((JSON.parse(batch) as RpcAnswer[]).map((a) => a.id)).toEqual(calls.map((c) => c.id));
    expect(order).toEqual(['status', 'batch']);
  });

  it('answers a request split across many small writes, UTF-8 intact', async () => {
    const text = `ünïcødé ${SHARED_TERM} 日本語`;
    const bytes = Buffer.from(req(1, 'recall_conversations', { query: text }));
    const answer = await new Promise<RpcAnswer>((resolve, reject) => {
      const s = net.connect(daemon.socketPath);
      let buf = '';
      s.on('error', reject);
      s.on('data', (d) => {
        buf += d.toString();
        if (buf.includes('\n')) {
          s.destroy();
          resolve(JSON.parse(buf));
        }
      });
      s.on('connect', async () => {
        for (let i = 0; i < bytes.length; i += 3) {
          s.write(bytes.subarray(i, i + 3));
          if (i % 30 === 0) await new Promise((r) => setTimeout(r, 1));
        }
      });
    });
    expect(answer.result).toBeDefined();
  });
});

describe('load and misbehaving clients', () => {
  it('serves 500 concurrent requests from 50 clients in another process, each answered once with its id', async () => {
    const r = await runNode([path.join(ROOT, 'test/server/load-client.mjs'), daemon.socketPath, '50', '10', 'recall_conversations', JSON.stringify({ query: SHARED_TERM, workspace: 'all' })]);
    const summary = JSON.parse(r.stdout) as { answered: number; errors: Record<string, number>; mismatched: number };
    expect(summary).toMatchObject({ answered: 500, errors: {}, mismatched: 0 });
  }, 30_000);

  it('serves 300 clients connected at once', async () => {
    const r = await runNode([path.join(ROOT, 'test/server/load-client.mjs'), daemon.socketPath, '300', '1', 'status', '{}']);
    expect(JSON.parse(r.stdout)).toMatchObject({ answered: 300, errors: {}, mismatched: 0 });
  }, 30_000);

  it('survives clients that vanish mid-request and one that never reads', async () => {
    // 20 clients fire requests and reset the connection at once.
    await Promise.all(
      Array.from({ length: 20 }, () => new Promise<void>((resolve) => {
        const s = net.connect(daemon.socketPath, () => {
          s.write(req(1, 'recall_conversations', { query: SHARED_TERM, workspace: 'all' }).repeat(20));
          s.write('{"jsonrpc":"2.0","id":99,"method":"sta'); // half a line
          s.destroy();
          resolve();
        });
        s.on('error', () => resolve());
      })),
    );
    // A client that sends a lot and never reads its answers.
    const hog = net.connect(daemon.socketPath);
    hog.on('error', () => {});
    hog.pause();
    await new Promise((r) => hog.once('connect', r));
    const big = req(1, 'read_conversation', { conversation_id: index.a, detail: 'full' });
    for (let i = 0; i < 2000; i++) hog.write(big);
    // Everyone else is still served promptly.
    const started = Date.now();
    const a = await one(req(7, 'status'));
    expect(a.id).toBe(7);
    expect(Date.now() - started).toBeLessThan(3000);
    hog.destroy();
    const b = await one(req(8, 'status'));
    expect(b.id).toBe(8);
  }, 30_000);
});

describe('socket file', () => {
  it('is 0600 in a 0700 folder, with a pid file naming the daemon', () => {
    expect(fs.statSync(daemon.socketPath).mode & 0o777).toBe(0o600);
    expect(fs.statSync(path.dirname(daemon.socketPath)).mode & 0o777).toBe(0o700);
    expect(fs.readFileSync(daemon.socketPath.replace(/\.sock$/, '.pid'), 'utf8').trim()).toBe(String(daemon.proc.pid));
  });

  it.skipIf(process.getuid?.() !== 0)('cannot be opened by another user', async () => {
    const asNobody = await new Promise<string>((resolve) => {
      const p = spawn(process.execPath, ['-e', `require('net').connect(${JSON.stringify(daemon.socketPath)}).on('error', e => console.log(e.code)).on('connect', () => console.log('connected'))`], { uid: 65534, gid: 65534 });
      let out = '';
      p.stdout.on('data', (d: Buffer) => (out += d.toString()));
      p.on('close', () => resolve(out.trim()));
    });
    expect(asNobody).toBe('EACCES');
  });

  it('refuses a second server on the same socket, naming the running process', async () => {
    await expect(startDaemon({ dbPath: index.dbPath, settingsPath: index.settingsPath, socketPath: daemon.socketPath, log: false, watch: false })).rejects.toThrow(
      new RegExp(`already serving agents on .*process ${daemon.proc.pid}: .*throughline.mjs serve`),
    );
    // The refusal left the running daemon's socket and pid file alone.
    expect((await one(req(1, 'status'))).id).toBe(1);
  });
});
