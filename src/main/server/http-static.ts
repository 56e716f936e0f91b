// Serves the built renderer from one folder: no directory listings, no path outside it, and a
// clear page when the UI has not been built yet (the api keeps working either way).
import fs from 'node:fs';
import path from 'node:path';
import type { ServerResponse } from 'node:http';
import { SECURITY_HEADERS } from './http-security.js';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
};

/** Resolves a URL path inside `root`, or null when it would step outside it or names nothing. */
export function resolveStatic(root: string, urlPath: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  if (decoded.includes('\0')) return null;
  const rel = decoded === '/' ? 'index.html' : decoded.replace(/^\/+/, '');
  const full = path.resolve(root, rel);
  if (full !== root && !full.startsWith(root + path.sep)) return null;
  try {
    return fs.statSync(full).isFile() ? full : null;
  } catch {
    return null;
  }
}

export function sendText(res: ServerResponse, status: number, text: string, type = 'text/plain; charset=utf-8'): void {
  res.writeHead(status, { ...SECURITY_HEADERS, 'Content-Type': type, 'Cache-Control': 'no-store' });
  res.end(text);
}

const NOT_BUILT = (dir: string) => `<!doctype html><meta charset="utf-8"><title>Throughline</title>
<p>The Throughline UI has not been built at ${dir.replace(/[<>&"]/g, '')}.</p>
<p>Run <code>npm run build:ui</code>, then reload. The api at <code>/api/METHOD</code> works meanwhile.</p>`;

export function serveStatic(res: ServerResponse, root: string, urlPath: string, head: boolean): void {
  const file = resolveStatic(root, urlPath);
  if (!file) {
    if (urlPath === '/' || urlPath === '/index.html') return sendText(res, 503, NOT_BUILT(root), 'text/html; charset=utf-8');
    return sendText(res, 404, 'Not found.');
  }
  const ext = path.extname(file);
  // Hashed assets never change under one name; index.html must always be fetched fresh.
  const cache = file.includes(`${path.sep}assets${path.sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache';
  const size = fs.statSync(file).size;
  res.writeHead(200, { ...SECURITY_HEADERS, 'Content-Type': TYPES[ext] ?? 'application/octet-stream', 'Content-Length': size, 'Cache-Control': cache });
  if (head) return void res.end();
  fs.createReadStream(file).on('error', () => res.destroy()).pipe(res);
}
