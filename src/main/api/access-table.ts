// What each method means to the access policy, one typed row per method: whether a
// workspace-limited token may call it, how its params are held inside the token's workspaces before
// the call, how its result is filtered after, and which conversations its answer names (for the
// activity log). Each row is typed by its method's own params and result (MethodParams<M>,
// MethodResults<M>), so the security filter reads fields the compiler checked, never a cast.
import type { Api, MethodName, MethodParams, MethodResults, RecallResult, SuggestResult } from '../../shared/api.js';
import { RPC } from '../../shared/rpc.js';
import { within } from './access.js';
import { ApiError } from './dispatch.js';

/** A workspace-limited caller: its token's name and the workspaces it may reach. */
export interface Limit {
  token: string;
  workspaces: string[];
}

export interface MethodPolicy<M extends MethodName> {
  /**
   * Who may call it. 'agents': anyone, a limited token too (the agent methods). 'unlimited': the
   * local user or a token for every workspace (settings, activity, the UI's lists). 'people': never
   * over an agent transport (it rewrites other programs' configuration: the window or the CLI only).
   */
  callers: 'agents' | 'unlimited' | 'people';
  /** A limited call's params, held inside its workspaces before the call. */
  confine?: (params: MethodParams<M>, limit: Limit) => MethodParams<M>;
  /** The last guard on a limited call: nothing outside its workspaces leaves, whatever the engine returned. */
  filter?: (result: MethodResults[M], limit: Limit) => MethodResults[M];
  /** The conversations the answer names, for the activity log. */
  conversations?: (result: MethodResults[M], params: MethodParams<M>, api: Api) => number[] | Promise<number[]>;
}

export type AccessTable = { [M in MethodName]: MethodPolicy<M> };

export function forbidden(message: string): ApiError {
  return new ApiError(RPC.FORBIDDEN, message);
}

/** The workspace a limited call runs in: the one it names (if allowed), else the token's only one. */
function forcedWorkspace(limit: Limit, requested: string | undefined): string {
  const allowed = limit.workspaces;
  if (requested && requested !== 'all') {
    if (!within(requested, allowed)) throw forbidden(`Token "${limit.token}" is limited to ${allowed.join(', ')}; ${requested} is outside.`);
    return requested;
  }
  if (allowed.length === 1) return allowed[0]!;
  throw forbidden(`Token "${limit.token}" is limited to several workspaces (${allowed.join(', ')}); pass one of them as "workspace".`);
}

function filterSuggest(r: SuggestResult, limit: Limit): SuggestResult {
  const kept = r.suggestions.filter((s) => within(s.workspace, limit.workspaces));
  if (kept.length === r.suggestions.length) return r;
  // The block was rendered from the unfiltered list: withhold it rather than leak a line of it.
  return { ...r, suggestions: kept, block: '', reason: 'Suggestions outside this token’s workspaces were withheld.' };
}

function filterRecall(r: RecallResult, limit: Limit): RecallResult {
  const kept = r.hits.filter((h) => within(h.workspace, limit.workspaces));
  if (kept.length === r.hits.length) return r;
  const text = kept.length
    ? kept.map((h) => `- ${h.title} (${h.date ?? 'undated'}) id ${h.id}\n  ${h.snippet}`).join('\n')
    : 'No matching conversations in this token’s workspaces.';
  return { ...r, hits: kept, text };
}

/** A conversation read whole: refused when it lies outside the workspaces (the api checked already; this is the second look). */
function insideOrRefused<R extends { conversation: { workspace: string | null } }>(r: R, limit: Limit): R {
  if (!within(r.conversation.workspace, limit.workspaces)) throw forbidden('That conversation is outside this token’s workspaces.');
  return r;
}

/** A history_* call's conversation (already allowed and answered), for the activity log only. */
async function historyConversation(api: Api, ref: string): Promise<number[]> {
  const detail = await api['conversations.get']({ conversation_id: ref }).catch(() => null);
  return detail ? [detail.conversation.id] : [];
}

export const ACCESS: AccessTable = {
  suggest: {
    callers: 'agents',
    confine: (p, limit) => ({ ...p, workspace: forcedWorkspace(limit, p.workspace), scope: 'workspace' }),
    filter: filterSuggest,
    conversations: (r) => r.suggestions.map((s) => s.id),
  },
  recall_conversations: {
    callers: 'agents',
    confine: (p, limit) => ({ ...p, workspace: forcedWorkspace(limit, p.workspace) }),
    filter: filterRecall,
    conversations: (r) => r.hits.map((h) => h.id),
  },
  read_conversation: { callers: 'agents', filter: insideOrRefused, conversations: (r) => [r.conversation.id] },
  conversation_inspect: { callers: 'agents', filter: insideOrRefused, conversations: (r) => [r.conversation.id] },
  history_search: { callers: 'agents', conversations: (_r, p, api) => historyConversation(api, p.conversation) },
  history_read: { callers: 'agents', conversations: (_r, p, api) => historyConversation(api, p.conversation) },
  history_handoff: { callers: 'agents', conversations: (_r, p, api) => historyConversation(api, p.conversation) },
  // A limited token learns the counts, not where the index or its sources are, nor their errors.
  status: { callers: 'agents', filter: (r) => ({ ...r, errors: [], db: '', socket: null, folders: [] }) },
  'ingest.append': {
    callers: 'agents',
    confine: (p, limit) => ({ ...p, conversation: { ...p.conversation, workspace: forcedWorkspace(limit, p.conversation.workspace) } }),
    conversations: (r) => (r.conversation === null ? [] : [r.conversation]),
  },
  'conversations.list': { callers: 'unlimited', conversations: (r) => r.items.map((c) => c.id) },
  'conversations.get': { callers: 'unlimited', conversations: (r) => [r.conversation.id] },
  'conversations.entries': { callers: 'unlimited', conversations: (r) => [r.conversation.id] },
  'conversations.workspaces': { callers: 'unlimited' },
  'conversations.find': { callers: 'unlimited' },
  'settings.get': { callers: 'unlimited' },
  'settings.set': { callers: 'unlimited' },
  'exclusions.preview': { callers: 'unlimited' },
  'exclusions.add': { callers: 'unlimited' },
  activity: { callers: 'unlimited' },
  'integrations.list': { callers: 'unlimited' },
  'integrations.install': { callers: 'people' },
  'integrations.uninstall': { callers: 'people' },
};
