// Browser mode: the renderer and the same api over localhost HTTP, for a headless or remote machine
// (reached through an SSH tunnel) and for the end-to-end tests.
//
// The token: `http://127.0.0.1:PORT/?token=T` is printed once. The first load trades the query token
// for a session value of this server in an HttpOnly, SameSite=Strict cookie and redirects to `/`, so
// the token leaves the address bar and history, page scripts never see it, and the cookie the browser
// also sends to other local ports does not hold it. Programs send `Authorization: Bearer T` instead.
// `POST /api/METHOD` with JSON params answers the result as JSON, or `{ error: { code, message, data } }`
// with the JSON-RPC code of dispatch.ts and a matching HTTP status.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Api } from '../../shared/api.js';
import { ApiError, dispatch } from '../api/dispatch.js';
import { RPC } from '../../shared/rpc.js';
import { allowedHosts, authorized, cookieName, createSessions, hostAllowed, isLoopback, newToken, originAllowed, remoteRefusal, sameServerLocation, sameToken, SECURITY_HEADERS } from './http-security.js';
import { packageRoot } from '../package-root.js';
import { sendText, serveStatic } from './http-static.js';

export interface HttpBridgeOptions {
  /** Where to listen; 127.0.0.1 unless told otherwise. */
  host?: string;
  /** 0 (the default) picks a free port. */
  port?: number;
  /** A fixed token (tests, a restarted service); otherwise a random one. */
  token?: string;
  /** The built renderer (`npm run build:ui`). */
  rendererDir?: string;
  /** Listen on a host other than loopback: the person said they mean it (`serve --allow-remote`). */
  allowRemote?: boolean;
  /** Open connections at most (default MAX_CONNECTIONS); more are closed as they arrive. */
  maxConnections?: number;
  /** A connection with nothing in flight is closed after this long (default IDLE_MS). */
  idleMs?: number;
}

export interface HttpBridge {
  /** The address to open, token included. */
  url: string;
  port: number;
  token: string;
  close(): Promise<void>;
}

export const MAX_BODY = 1024 * 1024;
/**
 * Another local user can open connections without a token: without a cap, a thousand idle ones
 * use up the process's file descriptors and the agent socket stops accepting. A browser keeps six
 * or so per host.
 */
export const MAX_CONNECTIONS = 64;
export const IDLE_MS = 30_000;

/** A bridge the person did not mean to expose: refused before anything listens. */
export class RemoteHostError extends Error {
  readonly kind = 'remote-host';
}

/** Where `npm run build:ui` puts the renderer. */
export function defaultRendererDir(): string {
  return path.join(packageRoot(), 'out', 'renderer-web');
}

const HTTP_STATUS: Record<number, number> = {
  [RPC.PARSE_ERROR]: 400,
  [RPC.INVALID_REQUEST]: 400,
  [RPC.INVALID_PARAMS]: 400,
  [RPC.METHOD_NOT_FOUND]: 404,
  [RPC.NOT_FOUND]: 404,
  [RPC.FORBIDDEN]: 403,
  [RPC.TOO_LARGE]: 413,
  [RPC.CONFLICT]: 409,
  [RPC.TIMEOUT]: 504,
  [RPC.INTERNAL]: 500,
};

function sendJson(res: http.ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    ...SECURITY_HEADERS,
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(text),
    'Cache-Control': 'no-store',
  });
  res.end(text);
}

function sendError(res: http.ServerResponse, err: ApiError): void {
  const error = err.data === undefined ? { code: err.code, message: err.message } : { code: err.code, message: err.message, data: err.data };
  sendJson(res, HTTP_STATUS[err.code] ?? 500, { error });
}

function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY) {
        // Answer first, then hang up (see handleApi): destroying now would leave the client an ECONNRESET instead of a reason.
        req.removeAllListeners('data');
        req.pause();
        reject(new ApiError(RPC.TOO_LARGE, `Request body over ${MAX_BODY} bytes.`));
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

async function handleApi(api: Api, req: http.IncomingMessage, res: http.ServerResponse, method: string): Promise<void> {
  // A JSON content type cannot be sent cross-origin without a preflight, which this server never grants.
  if (!/^application\/json\b/i.test(req.headers['content-type'] ?? '')) {
    return sendError(res, new ApiError(RPC.INVALID_REQUEST, 'Send params as JSON with Content-Type: application/json.'));
  }
  let params: unknown;
  try {
    const body = await readBody(req);
    params = body.trim() === '' ? {} : JSON.parse(body);
  } catch (err) {
    if (err instanceof ApiError && err.code === RPC.TOO_LARGE) {
      res.setHeader('Connection', 'close');
      res.on('finish', () => req.destroy());
    }
    if (err instanceof ApiError) return sendError(res, err);
    return sendError(res, new ApiError(RPC.PARSE_ERROR, 'The request body is not valid JSON.'));
  }
  try {
    sendJson(res, 200, await dispatch(api, method, params));
  } catch (err) {
    sendError(res, err instanceof ApiError ? err : new ApiError(RPC.INTERNAL, (err as Error).message));
  }
}

const NEED_TOKEN = `<!doctype html><meta charset="utf-8"><title>Throughline</title>
<p>This Throughline window needs its token. Open the full address that <code>throughline serve --ui</code> printed
(it ends in <code>?token=…</code>).</p>`;

export function startHttpBridge(api: Api, options: HttpBridgeOptions = {}): Promise<HttpBridge> {
  const host = options.host ?? '127.0.0.1';
  if (!isLoopback(host) && !options.allowRemote) {
    return Promise.reject(
      new RemoteHostError(remoteRefusal(host)),
    );
  }
  const token = options.token ?? newToken();
  const sessions = createSessions();
  const rendererDir = path.resolve(options.rendererDir ?? defaultRendererDir());
  let hosts = new Set<string>();
  let port = 0;

  const handle = (req: http.IncomingMessage, res: http.ServerResponse): void => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (!hostAllowed(req, hosts)) return sendText(res, 403, 'Host not allowed: open this server as 127.0.0.1 or localhost.');
    if (!originAllowed(req)) return sendText(res, 403, 'Cross-origin requests are not allowed.');

    if (url.pathname.startsWith('/api/')) {
      if (req.method !== 'POST') return sendText(res, 405, 'Use POST for the api.');
      if (!authorized(req, port, token, sessions)) {
        return sendError(res, new ApiError(RPC.FORBIDDEN, 'Missing or wrong token.'));
      }
      let method: string;
      try {
        method = decodeURIComponent(url.pathname.slice('/api/'.length));
      } catch {
        // A malformed %-escape must be a 400, never an exception thrown out of the request handler.
        return sendError(res, new ApiError(RPC.INVALID_REQUEST, 'Malformed method name in the URL.'));
      }
      void handleApi(api, req, res, method);
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') return sendText(res, 405, 'Method not allowed.');

    const queryToken = url.searchParams.get('token');
    if (queryToken !== null) {
      if (!sameToken(queryToken, token)) return sendText(res, 401, NEED_TOKEN, 'text/html; charset=utf-8');
      url.searchParams.delete('token');
      res.writeHead(303, {
        ...SECURITY_HEADERS,
        'Set-Cookie': `${cookieName(port)}=${sessions.open()}; Path=/; HttpOnly; SameSite=Strict`,
        Location: sameServerLocation(url),
        'Cache-Control': 'no-store',
      });
      return void res.end();
    }
    if (!authorized(req, port, token, sessions)) return sendText(res, 401, NEED_TOKEN, 'text/html; charset=utf-8');
    serveStatic(res, rendererDir, url.pathname, req.method === 'HEAD');
  };
  const server = http.createServer((req, res) => {
    try {
      handle(req, res);
    } catch {
      // Whatever a hostile request line does, it ends this request, not the server.
      if (res.headersSent) res.destroy();
      else sendText(res, 400, 'Bad request.');
    }
  });
  server.headersTimeout = 10_000;
  server.requestTimeout = 30_000;
  server.maxConnections = options.maxConnections ?? MAX_CONNECTIONS;
  // An idle socket (never a request, or a kept-alive one) is closed; a request being answered is not idle.
  server.keepAliveTimeout = Math.min(5_000, options.idleMs ?? IDLE_MS);
  server.setTimeout(options.idleMs ?? IDLE_MS, (socket) => socket.destroy());

  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      port = (server.address() as AddressInfo).port;
      hosts = allowedHosts(host, port);
      const shown = host === '0.0.0.0' || host === '::' || host === '' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
      resolve({
        url: `http://${shown}:${port}/?token=${token}`,
        port,
        token,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            server.closeAllConnections();
          }),
      });
    });
  });
}
