// Who may see what over the agent transports (socket, MCP). The api itself trusts its caller; a
// transport decides what a caller may ask. A connection is either the local user (no token: same
// uid, the socket is 0600) with full access, or a named token from settings, optionally limited to
// workspaces. A limited token is held inside its workspaces three times: its params are forced or
// checked before the call, the api checks every conversation it resolves for the call (one
// resolution, so the check and the action cannot differ), and results are filtered after.
import crypto from 'node:crypto';
import path from 'node:path';
import * as z from 'zod';
import type { Api, MethodName } from '../../shared/api.js';
import { ApiError, callApi, validate, type Call } from './dispatch.js';
import { ACCESS, forbidden, type Limit, type MethodPolicy } from './access-table.js';
import { PROTOCOL_VERSION, RPC, SUPPORTED_PROTOCOLS } from '../../shared/rpc.js';
import { invalidParams } from '../../shared/invalid-params.js';
import { redactPrivate } from '../privacy.js';

export interface Principal {
  /** Shown in the activity log. */
  client: string;
  /** The token's name, or null for the local user. */
  token: string | null;
  /** null: every workspace. */
  workspaces: string[] | null;
}

export const localUser = (client = 'socket'): Principal => ({ client, token: null, workspaces: null });

function sameSecret(a: string, b: string): boolean {
  const x = crypto.createHash('sha256').update(a).digest();
  const y = crypto.createHash('sha256').update(b).digest();
  return crypto.timingSafeEqual(x, y);
}

const AuthParams = z.object({
  token: z.string().max(200).optional(),
  client: z.string().max(100).optional(),
  /** The protocol version the client speaks (shared/rpc.ts PROTOCOL_VERSION); none: this one. */
  protocol: z.number().int().optional(),
});
export type AuthParams = z.infer<typeof AuthParams>;

/** What `auth` answers: who the connection is now, and the protocol version the server speaks. */
export interface AuthAnswer {
  client: string;
  token: string | null;
  workspaces: string[] | null;
  protocol: number;
}

/** Checks an `auth` request's params and its protocol version; throws ApiError (-32602, or -32007 for a version not spoken here). */
export function parseAuth(params: unknown): AuthParams {
  const parsed = AuthParams.safeParse(params ?? {});
  if (!parsed.success) {
    const { field, message } = invalidParams(parsed.error);
    throw new ApiError(RPC.INVALID_PARAMS, message, { field });
  }
  const version = parsed.data.protocol;
  if (version !== undefined && !SUPPORTED_PROTOCOLS.includes(version)) {
    const which = version < PROTOCOL_VERSION ? 'an older' : 'a newer';
    throw new ApiError(
      RPC.UNSUPPORTED_PROTOCOL,
      `This Throughline speaks protocol ${SUPPORTED_PROTOCOLS.join(', ')}; the client asked for protocol ${version} (${which} version). Update the client or Throughline so both are the same release, then reconnect.`,
      { supported: SUPPORTED_PROTOCOLS, requested: version },
    );
  }
  return parsed.data;
}

export function authAnswer(p: Principal): AuthAnswer {
  return { client: p.client, token: p.token, workspaces: p.workspaces, protocol: PROTOCOL_VERSION };
}

/** Resolves a token against settings.tokens; a wrong token is refused, never downgraded to the local user. */
export async function authenticate(api: Api, token: string | undefined, client: string | undefined): Promise<Principal> {
  if (token === undefined) return localUser(client || 'socket');
  const settings = await api['settings.get']({});
  const entry = settings.tokens.find((t) => sameSecret(t.token, token));
  if (!entry) throw new ApiError(RPC.FORBIDDEN, 'Unknown token. Use a token listed in Throughline’s settings (tokens), or connect without one as the local user.');
  const workspaces = entry.workspaces?.length ? entry.workspaces.map((w) => path.resolve(w)) : null;
  return { client: client || entry.name, token: entry.name, workspaces };
}

export interface CallOutcome {
  result: unknown;
  /** The conversations the answer names, for the activity log. */
  conversations: number[];
}

/** Validates, authorizes, runs and filters one call. Throws ApiError with a JSON-RPC code. */
export function guardedCall(api: Api, principal: Principal, method: string, rawParams: unknown): Promise<CallOutcome> {
  return runGuarded(api, principal, validate(method, rawParams));
}

/** One call by its method's row in the access table (access-table.ts). */
async function runGuarded<M extends MethodName>(api: Api, principal: Principal, call: Call<M>): Promise<CallOutcome> {
  const policy: MethodPolicy<M> = ACCESS[call.method];
  const name = call.method;
  if (policy.callers === 'people') throw forbidden(`${name} changes an agent's configuration; run it from Throughline's window (Settings → Extensions) or with \`throughline install\`.`);
  const limit: Limit | null = principal.workspaces ? { token: principal.token ?? principal.client, workspaces: principal.workspaces } : null;
  let params = call.params;
  if (limit) {
    if (policy.callers !== 'agents') throw forbidden(`Token "${limit.token}" may not call ${name}; it is limited to the agent methods.`);
    if (policy.confine) params = policy.confine(params, limit);
  }
  let result = await callApi(api, { method: name, params }, { workspaces: limit ? limit.workspaces : null });
  if (limit && policy.filter) result = policy.filter(result, limit);
  return { result, conversations: policy.conversations ? await policy.conversations(result, params, api) : [] };
}

/** A short, bounded description of the params for the activity log. Long text is cut, never stored whole. */
export function summarizeParams(method: string, params: unknown): string {
  const cut = (v: unknown, depth: number): unknown => {
    if (typeof v === 'string') {
      // Redacted before it is cut: half a <private> tag would let the start of the secret through.
      const r = redactPrivate(v);
      return r.length > 80 ? r.slice(0, 80) + '…' : r;
    }
    if (Array.isArray(v)) return depth > 1 ? `[${v.length}]` : v.slice(0, 5).map((x) => cut(x, depth + 1)).concat(v.length > 5 ? [`…+${v.length - 5}`] : []);
    if (v && typeof v === 'object') {
      if (depth > 2) return '{…}';
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, method === 'ingest.append' && k === 'entries' && Array.isArray(x) ? `${x.length} entries` : cut(x, depth + 1)]));
    }
    return v;
  };
  try {
    return JSON.stringify(cut(params ?? {}, 0)).slice(0, 300);
  } catch {
    return '';
  }
}
