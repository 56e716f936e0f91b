// The browser bridge's gatekeeping: which Host and Origin may talk to it, how the token travels,
// and the headers every response carries. Kept apart from the server so each rule is easy to read
// and to test on its own.
import crypto from 'node:crypto';
import type { IncomingMessage, OutgoingHttpHeaders } from 'node:http';

/**
 * The page may load its own scripts, styles and data: images (the transcript renderer turns every
 * other image into a placeholder), and talk only to its own origin. Nothing inline, nothing remote.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "manifest-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

export const SECURITY_HEADERS: OutgoingHttpHeaders = {
  'Content-Security-Policy': CONTENT_SECURITY_POLICY,
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'no-referrer',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin',
  'Permissions-Policy': 'camera=(), microphone=(), geolocation=(), clipboard-read=()',
};

export function newToken(): string {
  return crypto.randomBytes(24).toString('base64url');
}

/**
 * Cookies are not scoped by port, so two bridges on one host (an app and a `serve --ui`) would
 * overwrite each other's token under a shared name. The port keeps them apart.
 */
export function cookieName(port: number): string {
  return `throughline_${port}`;
}

export function sameToken(given: string | undefined, expected: string): boolean {
  if (!given) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && crypto.timingSafeEqual(a, b);
}

function cookie(req: IncomingMessage, name: string): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/** The token a program sends in a header. Never from the api URL. */
export function headerToken(req: IncomingMessage): string | undefined {
  const auth = req.headers.authorization;
  if (auth?.startsWith('Bearer ')) return auth.slice(7).trim();
  const header = req.headers['x-throughline-token'];
  return typeof header === 'string' ? header : undefined;
}

/**
 * The page's sessions. Cookies are not scoped by port: the browser sends this server's cookie to
 * every other server on 127.0.0.1 as well, so the cookie never holds the token. Opening the printed
 * URL trades the token for a random session value that only this running server knows; it is
 * worthless to any other server, and dies with this one. The oldest sessions make way past MAX_SESSIONS.
 */
export const MAX_SESSIONS = 32;

export interface Sessions {
  open(): string;
  /** The session value of the request's cookie, if this server issued it. */
  valid(req: IncomingMessage, port: number): boolean;
}

export function createSessions(): Sessions {
  const live: string[] = [];
  return {
    open() {
      const value = newToken();
      live.push(value);
      if (live.length > MAX_SESSIONS) live.shift();
      return value;
    },
    valid(req, port) {
      const given = cookie(req, cookieName(port));
      return live.some((value) => sameToken(given, value));
    },
  };
}

/** A program's header token must be the token; otherwise the page's session cookie must be one of ours. */
export function authorized(req: IncomingMessage, port: number, token: string, sessions: Sessions): boolean {
  const given = headerToken(req);
  return given !== undefined ? sameToken(given, token) : sessions.valid(req, port);
}

/**
 * Where the token exchange sends the page: the same path on this server. A path starting with two
 * slashes (`/.//evil.com/` normalises to `//evil.com/`) would be a link to another host.
 */
export function sameServerLocation(url: URL): string {
  return url.pathname.replace(/^[/\\]+/, '/') + url.search;
}

export function remoteRefusal(host: string): string {
  return `Refusing to serve the UI on ${host}: anyone who can reach it and learns the token reads every indexed conversation. Use an SSH tunnel to 127.0.0.1, or add --allow-remote if you mean it.`;
}

/** Hosts on this machine only: 127.0.0.0/8, ::1, localhost. */
export function isLoopback(host: string): boolean {
  const h = host.toLowerCase().replace(/^\[|\]$/g, '');
  return h === 'localhost' || h === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h) || /^::ffff:127\./.test(h);
}

const WILDCARDS = new Set(['0.0.0.0', '::', '']);

/**
 * Against DNS rebinding: a hostile page that makes evil.example resolve to 127.0.0.1 still sends
 * `Host: evil.example`, which is refused here before any token or file is looked at.
 */
export function allowedHosts(bindHost: string, port: number): Set<string> {
  const hosts = new Set([`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`]);
  if (!WILDCARDS.has(bindHost)) hosts.add(bindHost.includes(':') ? `[${bindHost}]:${port}` : `${bindHost}:${port}`);
  return hosts;
}

export function hostAllowed(req: IncomingMessage, allowed: Set<string>): boolean {
  const host = req.headers.host?.toLowerCase();
  return host !== undefined && allowed.has(host);
}

/** A request with an Origin must come from this very origin; one without (curl, same-origin GET) is fine. */
export function originAllowed(req: IncomingMessage): boolean {
  if (req.headers['sec-fetch-site'] === 'cross-site') return false;
  const origin = req.headers.origin;
  if (origin === undefined) return true;
  return origin === `http://${req.headers.host?.toLowerCase()}`;
}
