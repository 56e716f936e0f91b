// Who may see what over the agent transports (socket, MCP). The api itself trusts its caller; a
// transport decides what a caller may ask. A connection is either the local user (no token: same
// uid, the socket is 0600) with full access, or a named token from settings, optionally limited to
// workspaces. A limited token is held inside its workspaces three times: its params are forced or
// checked before the call, the api checks every conversation it resolves for the call (one
// resolution, so the check and the action cannot differ), and results are filtered after.
import crypto from 'node:crypto';
import path from 'node:path';
import type { Api, IndexStatus, MethodName, RecallResult, SuggestResult } from '../../shared/api.js';
import { within } from './access.js';
import { ApiError, dispatch, validate } from './dispatch.js';
import { RPC } from '../../shared/rpc.js';
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

/** What a workspace-limited token may call: the agent methods, never settings, activity or the UI's lists. */
const LIMITED_METHODS: ReadonlySet<MethodName> = new Set<MethodName>([
  'suggest',
  'recall_conversations',
  'read_conversation',
  'conversation_inspect',
  'history_search',
  'history_read',
  'history_handoff',
  'status',
  'ingest.append',
]);

/**
 * Never over the agent transports, whoever asks: they rewrite other programs' configuration, so only
 * a person may run them, from the window (Settings → Extensions) or the CLI (`throughline install`).
 */
const PEOPLE_ONLY: ReadonlySet<MethodName> = new Set<MethodName>(['integrations.install', 'integrations.uninstall']);

function sameSecret(a: string, b: string): boolean {
  const x = crypto.createHash('sha256').update(a).digest();
  const y = crypto.createHash('sha256').update(b).digest();
  return crypto.timingSafeEqual(x, y);
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

function forbidden(message: string): ApiError {
  return new ApiError(RPC.FORBIDDEN, message);
}

/** The workspace a limited call runs in: the one it names (if allowed), else the token's only one. */
function forcedWorkspace(p: Principal, requested: string | undefined): string {
  const allowed = p.workspaces!;
  if (requested && requested !== 'all') {
    if (!within(requested, allowed)) throw forbidden(`Token "${p.token}" is limited to ${allowed.join(', ')}; ${requested} is outside.`);
    return requested;
  }
  if (allowed.length === 1) return allowed[0]!;
  throw forbidden(`Token "${p.token}" is limited to several workspaces (${allowed.join(', ')}); pass one of them as "workspace".`);
}

export interface CallOutcome {
  result: unknown;
  /** The conversations the answer names, for the activity log. */
  conversations: number[];
}

/** Validates, authorizes, runs and filters one call. Throws ApiError with a JSON-RPC code. */
export async function guardedCall(api: Api, principal: Principal, method: string, rawParams: unknown): Promise<CallOutcome> {
  const call = validate(method, rawParams);
  const name = call.method;
  const params = call.params as Record<string, unknown>;
  const limited = principal.workspaces;

  if (PEOPLE_ONLY.has(name)) throw forbidden(`${name} changes an agent's configuration; run it from Throughline's window (Settings → Extensions) or with \`throughline install\`.`);
  if (limited) {
    if (!LIMITED_METHODS.has(name)) throw forbidden(`Token "${principal.token}" may not call ${name}; it is limited to the agent methods.`);
    if (name === 'suggest') {
      params.workspace = forcedWorkspace(principal, params.workspace as string | undefined);
      params.scope = 'workspace';
    } else if (name === 'recall_conversations') {
      params.workspace = forcedWorkspace(principal, params.workspace as string | undefined);
    } else if (name === 'ingest.append') {
      const conv = params.conversation as { id: string; workspace?: string };
      conv.workspace = forcedWorkspace(principal, conv.workspace);
    }
  }
  let result = await dispatch(api, name, params, { workspaces: limited });
  if (limited) result = filterResult(name, result, limited);
  return { result, conversations: conversationsOf(name, result) ?? (await historyConversation(api, name, params)) };
}

/** For the activity log only: the conversation a history_* call (already allowed and answered) was about. */
async function historyConversation(api: Api, method: MethodName, params: Record<string, unknown>): Promise<number[]> {
  if (!method.startsWith('history_')) return [];
  const detail = (await dispatch(api, 'conversations.get', { conversation_id: params.conversation }).catch(() => null)) as { conversation: { id: number } } | null;
  return detail ? [detail.conversation.id] : [];
}

/** The last guard: nothing outside the token's workspaces leaves, whatever the engine returned. */
function filterResult(method: MethodName, result: unknown, allowed: string[]): unknown {
  if (method === 'suggest') {
    const r = result as SuggestResult;
    const kept = r.suggestions.filter((s) => within(s.workspace, allowed));
    if (kept.length === r.suggestions.length) return r;
    // The block was rendered from the unfiltered list: withhold it rather than leak a line of it.
    return { ...r, suggestions: kept, block: '', reason: 'Suggestions outside this token’s workspaces were withheld.' };
  }
  if (method === 'recall_conversations') {
    const r = result as RecallResult;
    const kept = r.hits.filter((h) => within(h.workspace, allowed));
    if (kept.length === r.hits.length) return r;
    const text = kept.length
      ? kept.map((h) => `- ${h.title} (${h.date ?? 'undated'}) id ${h.id}\n  ${h.snippet}`).join('\n')
      : 'No matching conversations in this token’s workspaces.';
    return { ...r, hits: kept, text };
  }
  if (method === 'read_conversation' || method === 'conversation_inspect') {
    const c = (result as { conversation: { workspace: string | null } }).conversation;
    if (!within(c.workspace, allowed)) throw forbidden('That conversation is outside this token’s workspaces.');
  }
  if (method === 'status') return { ...(result as IndexStatus), errors: [], db: '', socket: null, folders: [] };
  return result;
}

function conversationsOf(method: MethodName, result: unknown): number[] | null {
  const r = result as Record<string, unknown>;
  switch (method) {
    case 'suggest':
      return (r.suggestions as { id: number }[]).map((s) => s.id);
    case 'recall_conversations':
      return (r.hits as { id: number }[]).map((h) => h.id);
    case 'read_conversation':
    case 'conversation_inspect':
    case 'conversations.get':
    case 'conversations.entries':
      return [(r.conversation as { id: number }).id];
    case 'conversations.list':
      return (r.items as { id: number }[]).map((c) => c.id);
    case 'ingest.append':
      return r.conversation === null ? [] : [r.conversation as number];
    default:
      return null;
  }
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
