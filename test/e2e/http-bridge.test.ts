// The browser bridge's gatekeeping, over real HTTP with a stand-in api: Host and Origin checks
// (DNS rebinding), the token's trip from URL to cookie, the api's errors, static files, headers.
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RPC } from '../../src/shared/rpc.js';
import { startHttpBridge, type HttpBridge } from '../../src/main/server/http.js';
import { fakeApi } from './fake-api.js';

interface Reply {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

function request(bridge: HttpBridge, pathname: string, options: { method?: string; headers?: Record<string, string>; body?: string | Buffer } = {}): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port: bridge.port, path: pathname, method: options.method ?? 'GET', headers: { Host: `127.0.0.1:${bridge.port}`, ...options.headers } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

const json = (token: string, extra: Record<string, string> = {}) => ({ 'Content-Type': 'application/json', Authorization: `Bearer ${token}`, ...extra });

describe('HTTP bridge', () => {
  let bridge: HttpBridge;
  let base: string;
  let ui: string;
  beforeAll(async () => {
    // base/ui is served; base/secret.txt is right beside it, where a traversal would reach.
    base = fs.mkdtempSync(path.join(os.tmpdir(), 'tl-http-'));
    ui = path.join(base, 'ui');
    fs.mkdirSync(path.join(ui, 'assets'), { recursive: true });
    fs.writeFileSync(path.join(ui, 'index.html'), '<!doctype html><title>Throughline</title>');
    fs.writeFileSync(path.join(ui, 'assets', 'app.js'), 'console.log(1)');
    fs.writeFileSync(path.join(base, 'secret.txt'), 'secret');
    bridge = await startHttpBridge(fakeApi(10).api, { rendererDir: ui });
  });
  afterAll(async () => {
    await bridge?.close();
    fs.rmSync(base, { recursive: true, force: true });
  });

  it('listens on 127.0.0.1 with a random port and token in its URL', () => {
    expect(bridge.url).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${bridge.port}/\\?token=[A-Za-z0-9_-]{32}$`));
    expect(bridge.port).toBeGreaterThan(0);
  });

  it('trades the URL token for an HttpOnly, SameSite=Strict cookie and a redirect that drops it', async () => {
    const first = await request(bridge, `/?token=${bridge.token}`);
    expect(first.status).toBe(303);
    expect(first.headers.location).toBe('/');
    const cookie = first.headers['set-cookie']![0]!;
    // A session value of this server, never the token itself (the browser sends it to every local port).
    expect(cookie).toMatch(new RegExp(`^throughline_${bridge.port}=[A-Za-z0-9_-]{32};`));
    expect(cookie).not.toContain(bridge.token);
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Strict/);
    const page = await request(bridge, '/', { headers: { Cookie: cookie.split(';')[0]! } });
    expect(page.status).toBe(200);
    expect(page.body).toContain('<title>Throughline</title>');
    expect((await request(bridge, '/?token=wrong')).status).toBe(401);
    expect((await request(bridge, '/')).status).toBe(401);
  });

  it('refuses a foreign Host header even with the token (DNS rebinding)', async () => {
    for (const host of ['evil.example', `evil.example:${bridge.port}`, `127.0.0.1:${bridge.port + 1}`, `127.0.0.1.nip.io:${bridge.port}`]) {
      const r = await request(bridge, '/api/status', { method: 'POST', headers: { ...json(bridge.token), Host: host }, body: '{}' });
      expect(r.status, host).toBe(403);
    }
    expect((await request(bridge, '/api/status', { method: 'POST', headers: { ...json(bridge.token), Host: `localhost:${bridge.port}` }, body: '{}' })).status).toBe(200);
  });

  it('refuses cross-origin api calls, and accepts its own origin', async () => {
    const origin = `http://127.0.0.1:${bridge.port}`;
    expect((await request(bridge, '/api/status', { method: 'POST', headers: json(bridge.token, { Origin: 'http://evil.example' }), body: '{}' })).status).toBe(403);
    expect((await request(bridge, '/api/status', { method: 'POST', headers: json(bridge.token, { Origin: 'null' }), body: '{}' })).status).toBe(403);
    expect((await request(bridge, '/api/status', { method: 'POST', headers: json(bridge.token, { 'Sec-Fetch-Site': 'cross-site' }), body: '{}' })).status).toBe(403);
    expect((await request(bridge, '/api/status', { method: 'POST', headers: json(bridge.token, { Origin: origin }), body: '{}' })).status).toBe(200);
  });

  it('needs the token for the api and answers JSON results', async () => {
    const none = await request(bridge, '/api/status', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' });
    expect(none.status).toBe(403);
    expect(JSON.parse(none.body).error.code).toBe(RPC.FORBIDDEN);
    const ok = await request(bridge, '/api/conversations.list', { method: 'POST', headers: json(bridge.token), body: JSON.stringify({ limit: 3 }) });
    expect(ok.status).toBe(200);
    expect(ok.headers['cache-control']).toBe('no-store');
    expect(JSON.parse(ok.body)).toMatchObject({ total: 10, items: [{ id: 1 }, { id: 2 }, { id: 3 }] });
    const viaHeader = await request(bridge, '/api/status', { method: 'POST', headers: { 'Content-Type': 'application/json', 'X-Throughline-Token': bridge.token }, body: '' });
    expect(viaHeader.status).toBe(200);
  });

  it('answers bad calls with JSON-RPC errors and matching statuses', async () => {
    const call = (method: string, body: string, headers: Record<string, string> = json(bridge.token)) => request(bridge, `/api/${method}`, { method: 'POST', headers, body });
    const unknown = await call('no_such_method', '{}');
    expect([unknown.status, JSON.parse(unknown.body).error.code]).toEqual([404, RPC.METHOD_NOT_FOUND]);
    const invalid = await call('conversations.list', JSON.stringify({ limit: 'ten' }));
    expect([invalid.status, JSON.parse(invalid.body).error.code]).toEqual([400, RPC.INVALID_PARAMS]);
    expect(JSON.parse(invalid.body).error.data).toEqual({ field: 'limit' });
    const garbled = await call('status', '{"a":');
    expect([garbled.status, JSON.parse(garbled.body).error.code]).toEqual([400, RPC.PARSE_ERROR]);
    const form = await call('status', '{}', { 'Content-Type': 'text/plain', Authorization: `Bearer ${bridge.token}` });
    expect([form.status, JSON.parse(form.body).error.code]).toEqual([400, RPC.INVALID_REQUEST]);
    const huge = await call('status', JSON.stringify({ pad: 'x'.repeat(1024 * 1024 + 10) }));
    expect([huge.status, JSON.parse(huge.body).error.code]).toEqual([413, RPC.TOO_LARGE]);
    const failing = await call('suggest', JSON.stringify({ text: 'x' }));
    expect([failing.status, JSON.parse(failing.body).error.code]).toEqual([500, RPC.INTERNAL]);
    expect((await request(bridge, '/api/status', { headers: json(bridge.token) })).status).toBe(405);
    const malformed = await call('%E0%A4%A', '{}');
    expect([malformed.status, JSON.parse(malformed.body).error.code]).toEqual([400, RPC.INVALID_REQUEST]);
    expect((await request(bridge, '/%E0%A4%A', { headers: { Authorization: `Bearer ${bridge.token}` } })).status).toBe(404);
  });

  it('serves only files inside the renderer folder, with security headers', async () => {
    const auth = { Authorization: `Bearer ${bridge.token}` };
    const asset = await request(bridge, '/assets/app.js', { headers: auth });
    expect(asset.status).toBe(200);
    expect(asset.headers['content-type']).toMatch(/^text\/javascript/);
    expect(asset.headers['content-security-policy']).toMatch(/default-src 'none'; script-src 'self'/);
    expect(asset.headers['content-security-policy']).toMatch(/img-src 'self' data:/);
    expect(asset.headers['x-content-type-options']).toBe('nosniff');
    expect(asset.headers['x-frame-options']).toBe('DENY');
    expect(asset.headers['referrer-policy']).toBe('no-referrer');
    for (const p of ['/../secret.txt', '/%2e%2e/secret.txt', '/assets/..%2f..%2fsecret.txt', '/..%5csecret.txt', '/%00', '/assets']) {
      expect((await request(bridge, p, { headers: auth })).status, p).toBe(404);
    }
  });

  it('says how to build the UI when it is missing, and keeps the api working', async () => {
    const bare = await startHttpBridge(fakeApi(1).api, { rendererDir: path.join(ui, 'nothing-here') });
    try {
      const page = await request(bare, '/', { headers: { Authorization: `Bearer ${bare.token}` } });
      expect(page.status).toBe(503);
      expect(page.body).toContain('npm run build:ui');
      expect((await request(bare, '/api/status', { method: 'POST', headers: json(bare.token), body: '{}' })).status).toBe(200);
    } finally {
      await bare.close();
    }
  });
});
