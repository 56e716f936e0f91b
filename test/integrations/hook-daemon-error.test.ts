// A daemon that answers the hook's `suggest` with an error (not "unavailable": it is there and
// refused the call) makes the hook's suggest fail at once, as before the hook read the index around a
// slow daemon: the promise settles, so the hook process ends instead of waiting for nothing.
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { jsonLines } from '../../src/main/client/json-lines.js';
import { hookSuggest } from '../../src/main/hook/suggest.js';
import { PROTOCOL_VERSION } from '../../src/shared/rpc.js';
import { tempDir } from '../server/helpers.js';

const cleanup: (() => void)[] = [];
afterEach(() => cleanup.splice(0).forEach((f) => f()));

/** A daemon that accepts `auth` and answers every other call with a JSON-RPC error. */
async function refusingDaemon(): Promise<{ socketPath: string; dir: string }> {
  const dir = tempDir('tl-refuse-');
  const socketPath = path.join(dir, 'd.sock');
  const server = net.createServer((c) => {
    c.setEncoding('utf8');
    c.on(
      'data',
      jsonLines((raw) => {
        const req = raw as { id: number; method: string };
        const answer =
          req.method === 'auth'
            ? { jsonrpc: '2.0', id: req.id, result: { client: 'test', token: null, workspaces: null, protocol: PROTOCOL_VERSION } }
            : { jsonrpc: '2.0', id: req.id, error: { code: -32602, message: 'invalid params: text is required' } };
        c.write(JSON.stringify(answer) + '\n');
      }),
    );
  });
  await new Promise<void>((resolve) => server.listen(socketPath, resolve));
  cleanup.push(() => {
    server.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  return { socketPath, dir };
}

describe('the hook’s suggest when the daemon refuses the call', () => {
  it('fails with the daemon’s error, without reading the index and without waiting for the deadline', async () => {
    const { socketPath, dir } = await refusingDaemon();
    let fellBack = false;
    const t0 = Date.now();
    const outcome = hookSuggest(
      { text: 'anything' },
      'test',
      { socketPath, dbPath: path.join(dir, 'no-index.sqlite'), settingsPath: path.join(dir, 'settings.json'), env: {} },
      Date.now() + 1500,
      async () => {
        fellBack = true;
        return true;
      },
    );
    await expect(outcome).rejects.toThrow(/invalid params/);
    expect(Date.now() - t0).toBeLessThan(1000);
    expect(fellBack).toBe(false);
  }, 5000);
});
