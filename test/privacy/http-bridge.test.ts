// Issue 11 §6 and §7: the HTTP bridge (`serve --ui`) keeps its token to itself and cannot be
// starved by another local user. The cookie the browser also sends to every other server on
// 127.0.0.1 holds a session value only this bridge knows, never the token; the token exchange
// redirects on this server only; a host other than loopback needs --allow-remote; daemon.log never
// holds the token; connections are capped and idle ones closed, so the agent socket keeps answering.
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Api } from '../../src/shared/api.js';
import { connectRpc } from '../../src/main/client/socket-client.js';
import { startDaemon, type Daemon } from '../../src/main/daemon/daemon.js';
import { MAX_CONNECTIONS, startHttpBridge, type HttpBridge } from '../../src/main/server/http.js';
import { isLoopback } from '../../src/main/server/http-security.js';
import { fakeHome, importFile, type FakeHome } from './home.js';

const status = { status: async () => ({ ok: true }) } as unknown as Api;
const cleanup: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const f of cleanup.splice(0).reverse()) await f();
});

async function bridgeFor(options: Parameters<typeof startHttpBridge>[1] = {}): Promise<HttpBridge> {
  const b = await startHttpBridge(status, { rendererDir: '/nonexistent', ...options });
  cleanup.push(() => b.close());
  return b;
}

function get(b: HttpBridge, pathname: string, headers: Record<string, string> = {}): Promise<http.IncomingMessage> {
  return new Promise((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port: b.port, path: pathname, headers: { Host: `127.0.0.1:${b.port}`, ...headers } }, (res) => {
        res.resume();
        resolve(res);
      })
      .on('error', reject);
  });
}

function callStatus(b: HttpBridge, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port: b.port, method: 'POST', path: '/api/status', headers: { Host: `127.0.0.1:${b.port}`, 'Content-Type': 'application/json', ...headers } },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end('{}');
  });
}

const cookieOf = (res: http.IncomingMessage) => res.headers['set-cookie']![0]!.split(';')[0]!;

describe('the token cookie (§6)', () => {
  it('holds a session value of this bridge, never the token, and no other bridge takes it', async () => {
    const one = await bridgeFor();
    const other = await bridgeFor();
    const first = await get(one, `/?token=${one.token}`);
    const cookie = cookieOf(first);
    expect(cookie).not.toContain(one.token);
    expect(first.headers['set-cookie']![0]).toMatch(/; HttpOnly; SameSite=Strict$/);
    expect(await callStatus(one, { Cookie: cookie })).toBe(200);
    // What another local server receives from the browser: the same cookie line. It is no token.
    const value = cookie.split('=')[1]!;
    expect(await callStatus(one, { Authorization: `Bearer ${value}` })).toBe(403);
    expect(await callStatus(other, { Cookie: `throughline_${other.port}=${value}` })).toBe(403);
    // The old cookie (the raw token) is refused.
    expect(await callStatus(one, { Cookie: `throughline_${one.port}=${one.token}` })).toBe(403);
    // Each load gets its own session; both work.
    const second = cookieOf(await get(one, `/?token=${one.token}`));
    expect(second).not.toBe(cookie);
    expect(await callStatus(one, { Cookie: second })).toBe(200);
    expect(await callStatus(one, { Cookie: cookie })).toBe(200);
  });

  it('redirects to this server only, whatever the path looks like', async () => {
    const b = await bridgeFor();
    for (const p of ['/.//evil.com/', '//evil.com/', '/%2F/evil.com/', '/\\evil.com/', '/./\\/evil.com/']) {
      const res = await get(b, `${p}?token=${b.token}`);
      expect(res.statusCode, p).toBe(303);
      const location = res.headers.location!;
      expect(location, p).toMatch(/^\/(?![/\\])/);
      // As the browser resolves it: still this server.
      expect(new URL(location, `http://127.0.0.1:${b.port}/`).host, p).toBe(`127.0.0.1:${b.port}`);
    }
    expect((await get(b, `/c/3?x=1&token=${b.token}`)).headers.location).toBe('/c/3?x=1');
  });
});

describe('where the bridge listens (§6)', () => {
  it('refuses a host other than loopback unless the person says they mean it', async () => {
    for (const host of ['0.0.0.0', '::', '192.168.1.20', 'example.com']) {
      await expect(startHttpBridge(status, { host }), host).rejects.toThrow(/--allow-remote/);
    }
    const meant = await bridgeFor({ host: '0.0.0.0', allowRemote: true });
    expect(meant.port).toBeGreaterThan(0);
    expect(['127.0.0.1', '127.1.2.3', 'localhost', 'LOCALHOST', '::1', '[::1]'].every(isLoopback)).toBe(true);
    expect(['0.0.0.0', '::', '128.0.0.1', '127.0.0.1.evil.com', 'localhost.evil.com', ''].some(isLoopback)).toBe(false);
  });

  it('`serve --ui --host 0.0.0.0` stops with the reason before anything starts', async () => {
    const home = fakeHome();
    cleanup.push(() => fs.rmSync(home.dir, { recursive: true, force: true }));
    const refused = await home.cli(['serve', '--no-watch', '--ui', '--host', '0.0.0.0']);
    expect(refused.code).toBe(1);
    expect(refused.out).toMatch(/Refusing to serve the UI on 0\.0\.0\.0.*--allow-remote/);
  });
});

describe('daemon.log (§6)', () => {
  let home: FakeHome;
  it('never holds the token', async () => {
    home = fakeHome();
    cleanup.push(() => fs.rmSync(home.dir, { recursive: true, force: true }));
    importFile(home, 'logged', '/w/logged');
    const log = path.join(home.dir, 'daemon.log');
    const daemon: Daemon = await startDaemon({
      dbPath: home.db,
      settingsPath: home.settings,
      socketPath: path.join(home.dir, 'agent.sock'),
      log,
      watch: false,
      http: { rendererDir: '/nonexistent' },
    });
    const token = new URL(daemon.httpUrl!).searchParams.get('token')!;
    await daemon.close();
    const text = fs.readFileSync(log, 'utf8');
    expect(text).toMatch(/UI at http:\/\/127\.0\.0\.1:\d+\//);
    expect(text).not.toContain(token);
  });
});

/** Opens `n` idle TCP connections; resolves once each is either connected or closed by the server. */
async function idleConnections(port: number, n: number): Promise<{ sockets: net.Socket[]; closedByServer: () => number }> {
  const sockets: net.Socket[] = [];
  let closed = 0;
  await Promise.all(
    Array.from({ length: n }, () =>
      new Promise<void>((resolve) => {
        const s = net.connect(port, '127.0.0.1', () => resolve());
        s.on('error', () => resolve());
        s.on('close', () => {
          closed++;
          resolve();
        });
        sockets.push(s);
      }),
    ),
  );
  return { sockets, closedByServer: () => closed };
}

async function until(what: string, probe: () => boolean, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!probe()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('connections (§7)', () => {
  it('holds at most MAX_CONNECTIONS, and the agent socket keeps answering', async () => {
    const home = fakeHome();
    cleanup.push(() => fs.rmSync(home.dir, { recursive: true, force: true }));
    importFile(home, 'busy', '/w/busy');
    const socketPath = path.join(home.dir, 'agent.sock');
    const daemon = await startDaemon({ dbPath: home.db, settingsPath: home.settings, socketPath, log: false, watch: false, http: { rendererDir: '/nonexistent' } });
    cleanup.push(() => daemon.close());
    const port = Number(new URL(daemon.httpUrl!).port);
    const extra = 40;
    const { sockets, closedByServer } = await idleConnections(port, MAX_CONNECTIONS + extra);
    cleanup.push(() => sockets.forEach((s) => s.destroy()));
    // The ones over the cap are closed as they arrive; the rest are held (until idle too long).
    await until('the connections over the cap to be closed', () => closedByServer() >= extra);
    expect(closedByServer()).toBeLessThan(MAX_CONNECTIONS + extra);
    const rpc = await connectRpc(socketPath);
    try {
      expect((await rpc.call('status', {})).db).toBe(home.db);
    } finally {
      rpc.close();
    }
  });

  it('closes a connection that sends nothing, or nothing more, after the idle time', async () => {
    const b = await bridgeFor({ idleMs: 400 });
    const { sockets, closedByServer } = await idleConnections(b.port, 5);
    cleanup.push(() => sockets.forEach((s) => s.destroy()));
    expect(closedByServer()).toBe(0);
    await until('idle connections to be closed', () => closedByServer() === 5, 5_000);
    // A kept-alive connection after its answer is closed too; a call in between still works.
    expect(await callStatus(b, { Authorization: `Bearer ${b.token}` })).toBe(200);
  });
});
