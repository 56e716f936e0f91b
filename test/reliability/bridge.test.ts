// The HTTP bridge's gate, fuzzed (issue 7 §4): for any mix of Host, Origin, Sec-Fetch-Site and
// token (header, cookie, none, wrong, almost right), an api call gets through only with an allowed
// Host, its own origin (or none), and the exact token; everything else is refused before the api
// is touched. (test/e2e/http-bridge.test.ts checks the same rules by example, with a browser.)
import http from 'node:http';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Api } from '../../src/shared/api.js';
import { startHttpBridge, type HttpBridge } from '../../src/main/server/http.js';
import { cookieName } from '../../src/main/server/http-security.js';
import { checkAsyncProperty } from '../helpers/fuzz-ops.js';

export const RUNS = { gate: 400 } as const;
const TOKEN = 'reliability-token-0123456789abcdef';
let bridge: HttpBridge;
let calls = 0;
/** The page's session value, traded for the token on first load (the cookie never holds the token). */
let session = '';

beforeAll(async () => {
  const status = async () => {
    calls++;
    return { ok: true };
  };
  bridge = await startHttpBridge({ status } as unknown as Api, { token: TOKEN, rendererDir: '/nonexistent' });
  session = await new Promise<string>((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port: bridge.port, path: `/?token=${TOKEN}`, headers: { Host: `127.0.0.1:${bridge.port}` } }, (res) => {
        res.resume();
        resolve(/=([^;]+);/.exec(res.headers['set-cookie']![0]!)![1]!);
      })
      .on('error', reject);
  });
});
afterAll(async () => {
  await bridge?.close();
});

function post(headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port: bridge.port, method: 'POST', path: '/api/status', headers: { 'Content-Type': 'application/json', ...headers } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end('{}');
  });
}

describe('HTTP bridge gate', () => {
  it('lets a call through only with an allowed Host, its own origin or none, and the exact token', async () => {
    const port = () => bridge.port;
    const goodHosts = () => [`127.0.0.1:${port()}`, `localhost:${port()}`, `[::1]:${port()}`];
    const host = fc.oneof(
      fc.constantFrom('good-0', 'good-1', 'good-2'),
      fc.constantFrom('evil.example', `evil.example:${'PORT'}`, '127.0.0.1', `127.0.0.2:${'PORT'}`, `localhost.evil.example:${'PORT'}`, `LOCALHOST:${'PORT'}`, '0.0.0.0:PORT'),
      fc.string({ maxLength: 20 }).filter((s) => /^[\x21-\x7e]*$/.test(s)),
    );
    const origin = fc.oneof(fc.constant(null), fc.constant('same'), fc.constantFrom('http://evil.example', 'null', 'https://127.0.0.1:PORT', 'http://127.0.0.1', 'http://localhost:PORT.evil.example', 'file://'));
    const site = fc.constantFrom(null, 'same-origin', 'none', 'cross-site', 'same-site');
    const token = fc.constantFrom('right', 'wrong', 'none', 'prefix', 'padded', 'cookie', 'cookie-wrong', 'other-port-cookie', 'token-cookie');
    await checkAsyncProperty(
      fc.asyncProperty(host, origin, site, token, async (h, o, s, t) => {
        const hostValue = (h.startsWith('good-') ? goodHosts()[Number(h.slice(5))]! : h).replace('PORT', String(port()));
        const headers: Record<string, string> = { Host: hostValue };
        if (o === 'same') headers.Origin = `http://${hostValue}`;
        else if (o !== null) headers.Origin = o.replace('PORT', String(port()));
        if (s !== null) headers['Sec-Fetch-Site'] = s;
        if (t === 'right') headers.Authorization = `Bearer ${TOKEN}`;
        else if (t === 'wrong') headers.Authorization = 'Bearer not-the-token-at-all-000000000';
        else if (t === 'prefix') headers.Authorization = `Bearer ${TOKEN.slice(0, -1)}`;
        else if (t === 'padded') headers['X-Throughline-Token'] = `${TOKEN}x`;
        else if (t === 'cookie') headers.Cookie = `${cookieName(port())}=${session}`;
        else if (t === 'cookie-wrong') headers.Cookie = `${cookieName(port())}=${session.toUpperCase()}`;
        else if (t === 'other-port-cookie') headers.Cookie = `${cookieName(port() + 1)}=${session}`;
        else if (t === 'token-cookie') headers.Cookie = `${cookieName(port())}=${TOKEN}`; // the token is no session
        const hostOk = goodHosts().includes(hostValue.toLowerCase());
        const originOk = headers.Origin === undefined || headers.Origin === `http://${hostValue.toLowerCase()}`;
        const tokenOk = t === 'right' || t === 'cookie';
        const before = calls;
        const status = await post(headers);
        if (hostOk && originOk && s !== 'cross-site' && tokenOk) {
          expect(status).toBe(200);
          expect(calls).toBe(before + 1);
        } else {
          expect([401, 403]).toContain(status);
          expect(calls).toBe(before); // refused before the api was touched
        }
      }),
      { seed: 7_6000, numRuns: RUNS.gate },
    );
  });

  it('listens on loopback only unless told otherwise', () => {
    expect(new URL(bridge.url).hostname).toBe('127.0.0.1');
  });
});
