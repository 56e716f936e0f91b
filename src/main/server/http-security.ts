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

/** The token from a header (programs) or the cookie set on first load (the page). Never from the api URL. */
export function requestToken(req: IncomingMessage, port: number): string | undefined {
  const auth = req.headers.authorization;
  if (auth?.startsWith('Bearer ')) return auth.slice(7).trim();
  const header = req.headers['x-throughline-token'];
  if (typeof header === 'string') return header;
  return cookie(req, cookieName(port));
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
