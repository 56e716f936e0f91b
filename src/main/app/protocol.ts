// The built renderer is served from app://throughline/ rather than file://, so every response can
// carry the CSP header and nothing else on disk is reachable from the page.
import fs from 'node:fs';
import path from 'node:path';
import { protocol } from 'electron';
import { resolveStatic } from '../server/http-static.js';
import { SECURITY_HEADERS } from '../server/http-security.js';

import { APP_SCHEME } from './urls.js';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
  '.json': 'application/json',
};

/** Must run before the app is ready. */
export function registerAppScheme(): void {
  protocol.registerSchemesAsPrivileged([{ scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } }]);
}

export function serveRenderer(rendererDir: string): void {
  const root = path.resolve(rendererDir);
  protocol.handle(APP_SCHEME, async (request) => {
    const url = new URL(request.url);
    const file = url.host === 'throughline' ? resolveStatic(root, url.pathname) : null;
    if (!file) return new Response('Not found', { status: 404, headers: { 'Content-Type': 'text/plain' } });
    const headers = new Headers();
    for (const [k, v] of Object.entries(SECURITY_HEADERS)) headers.set(k, String(v));
    headers.set('Content-Type', TYPES[path.extname(file)] ?? 'application/octet-stream');
    return new Response(new Uint8Array(await fs.promises.readFile(file)), { status: 200, headers });
  });
}
