// The newline-JSON answers of the daemon's socket, as both clients read them (client/json-lines.ts):
// lines cut across chunks, several in one chunk, blank lines, lines that are not JSON or are JSON but
// no object. Over a real Unix socket, the hook's one-call client and the socket client get their answer.
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { jsonLines } from '../../src/main/client/json-lines.js';
import { connectRpc } from '../../src/main/client/socket-client.js';
import { callDaemon } from '../../src/main/hook/daemon-call.js';
import { PROTOCOL_VERSION } from '../../src/shared/rpc.js';
import { tempDir } from '../server/helpers.js';

const cleanup: (() => void)[] = [];
afterEach(() => cleanup.splice(0).forEach((f) => f()));

/** A socket that answers each request line with `answer(request)`, written out in `pieces`. */
async function fakeDaemon(answer: (req: { id: number; method: string }) => string, pieces: (text: string) => string[]): Promise<string> {
  const dir = tempDir('tl-lines-');
  const socketPath = path.join(dir, 'd.sock');
  const server = net.createServer((c) => {
    c.setEncoding('utf8');
    c.on(
      'data',
      jsonLines((req) => {
        for (const piece of pieces(answer(req as { id: number; method: string }))) c.write(piece);
      }),
    );
  });
  await new Promise<void>((resolve) => server.listen(socketPath, resolve));
  cleanup.push(() => {
    server.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  return socketPath;
}

const result = (id: number, value: unknown) => JSON.stringify({ jsonrpc: '2.0', id, result: value });
const authResult = (id: number) => result(id, { client: 'test', token: null, workspaces: null, protocol: PROTOCOL_VERSION });
/** Noise before the real answer: a blank line, a non-JSON line, and JSON lines that are no message. */
const NOISE = '\n  \nnot json\nnull\n42\n"text"\n[1]\n';
/** The text cut every 7 characters: no line arrives whole. */
const cut = (text: string) => text.match(/[\s\S]{1,7}/g) ?? [];

describe('newline-delimited JSON from the socket', () => {
  it('the splitter passes each whole line on, in order, whatever the chunks', () => {
    const seen: unknown[] = [];
    const feed = jsonLines((m) => seen.push(m));
    for (const piece of cut(`{"a":1}\n\n{"b":[2,3]}\nnot json\n{"c":"x\\ny"}\n{"d":`)) feed(piece);
    expect(seen).toEqual([{ a: 1 }, { b: [2, 3] }, { c: 'x\ny' }]);
    feed('4}\n');
    expect(seen.at(-1)).toEqual({ d: 4 });
  });

  it('the hook’s one call gets its answer through noise and lines cut into pieces', async () => {
    const socketPath = await fakeDaemon((req) => NOISE + (req.method === 'auth' ? authResult(req.id) : result(req.id, { echoed: req.method })) + '\n', cut);
    const answer = await callDaemon<{ echoed: string }>('stats', {}, { socketPath, client: 'test', handshakeMs: 2000, deadline: Date.now() + 5000 });
    expect(answer).toEqual({ echoed: 'stats' });
  });

  it('the socket client too', async () => {
    const socketPath = await fakeDaemon((req) => NOISE + (req.method === 'auth' ? authResult(req.id) : result(req.id, { echoed: req.method })) + '\n', cut);
    const client = await connectRpc(socketPath, { client: 'test' });
    cleanup.push(() => client.close());
    expect(await client.request('ping')).toEqual({ echoed: 'ping' });
  });
});
