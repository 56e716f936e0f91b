// The api's methods over the core's parts. Params arrive validated (see dispatch.ts).
import type { Access, Api, ConversationDetail, EntriesResult, ListResult } from '../../shared/api.js';
import type { IndexStatus } from '../../shared/api.js';
import type { Conversation } from '../../shared/types.js';
import type { Recall, RecallWrites } from '../recall/index.js';
import type { Reads } from './read-calls.js';
import type { ReadableDb, WritableDb } from '../store/db.js';
import type { Indexer } from '../ingest/scan.js';
import { recentActivity, type ActivityLog } from '../store/activity.js';
import { findInConversation } from '../store/find.js';
import { firstReplies, listConversations, workspaces } from '../store/list.js';
import type { Reader } from '../store/read.js';
import type { Writer } from '../store/writer.js';
import type { SettingsStore } from '../settings.js';
import { createExclusionCoverage, type ExclusionKeeper } from '../store/exclusions.js';
import { FULL_ACCESS, within } from './access.js';
import { appendEntries } from './append.js';
import { ForbiddenError, NotFoundError } from './errors.js';
import { excludeAndForget, previewExclusion } from './forget.js';
import { integrationMethods } from './integrations.js';

/**
 * What writes the index, made from a writable handle on first use: a read-only core (the CLI's reads)
 * never makes it, and a write asked of one fails with StoreError 'readonly' before any SQL runs.
 * ingest.append and handoffs go through this writer too: an excluded workspace is not kept from them either.
 */
export interface WriteSide {
  db: WritableDb;
  writer: Writer;
  keeper: ExclusionKeeper;
  indexer: Indexer;
  recall: RecallWrites;
  activity: ActivityLog;
}

export interface ApiDeps {
  db: ReadableDb;
  reader: Reader;
  /** The write side, made on first use (see WriteSide). */
  writes: () => WriteSide;
  recall: Recall;
  /** Recall's read calls: on the daemon's reader threads when they run, else on `recall` here. */
  reads: () => Reads;
  settings: SettingsStore;
  status: () => IndexStatus;
  /** Writes the activity notes the daemon still holds (store/activity.ts), so `activity` lists them. */
  flushActivity?: () => void;
  /** The environment the integrations are installed into (HOME, CLAUDE_CONFIG_DIR, CODEX_HOME, …). */
  env: NodeJS.ProcessEnv;
  /** Calls are a person's own requests (the CLI): suggest answers whatever autoRecall says. */
  explicitRequests?: boolean;
}

/** The command that reopens a conversation in its own agent, as each agent documents it. */
export function resumeCommand(c: Conversation): string | null {
  const cd = c.workspace ? `cd ${JSON.stringify(c.workspace)} && ` : '';
  const id = c.sessionId;
  switch (c.source) {
    case 'claude-code':
      return c.isSubagent ? null : `${cd}claude --resume ${id}`;
    case 'pi':
      return `${cd}pi --session ${JSON.stringify(c.path)}`;
    case 'codex':
      return `${cd}codex resume ${id}`;
    case 'gemini':
      // A sub-agent's session is not in Gemini's session list: only its parent can be resumed.
      return c.isSubagent ? null : `${cd}gemini --resume ${id}`;
    case 'opencode':
      return `${cd}opencode --session ${id}`;
    case 'copilot':
      return c.isSubagent ? null : `${cd}copilot --resume ${id}`;
    case 'cursor':
      return c.isSubagent ? null : `${cd}cursor-agent --resume ${id}`;
    case 'droid':
      return `${cd}droid --resume ${id}`;
    case 'aider':
      // Aider has no session ids: it takes back the repository's whole chat history file (summarised).
      return `${cd}aider --restore-chat-history`;
    default:
      return null;
  }
}

const PAGE = 100;
/** Conversations whose suggestions are remembered (the oldest is forgotten first), and ids kept per conversation. */
const REMEMBERED_CONVERSATIONS = 2000;
const REMEMBERED_IDS = 200;

/** Rows without any summary (not even a derived one: nothing to derive from yet) get their first assistant reply as a preview line. */
function previewsFor(db: ReadableDb) {
  return (page: ListResult): ListResult => {
    const replies = firstReplies(db, page.items.filter((c) => !c.summary && !c.derivedSummary).map((c) => c.id));
    return { ...page, items: page.items.map((c) => (replies.has(c.id) ? { ...c, preview: replies.get(c.id) } : c)) };
  };
}

export function createApi(deps: ApiDeps): Api {
  const { db, reader, recall, settings } = deps;
  const coverage = createExclusionCoverage(db);
  const withPreviews = previewsFor(db);

  /**
   * The one resolution of a conversation reference (row id, session id, import id, file path) for
   * every method: the access check runs on the conversation found here, and the method is then given
   * its row id, so the two can never name different conversations.
   */
  const conversationOr404 = (ref: string | number, access: Access = FULL_ACCESS): Conversation => {
    const c = reader.conversation(ref);
    if (!c) throw new NotFoundError(`No conversation ${JSON.stringify(ref)} in the index.`);
    if (!within(c.workspace, access.workspaces)) throw new ForbiddenError('That conversation is outside the workspaces this caller may reach.');
    return c;
  };
  const confined = (access: Access = FULL_ACCESS) => access.workspaces !== null;

  // What each live conversation (suggest's `conversation`) was already given, so a chat is never
  // offered the same conversation twice, and whether it had its first suggestion. Kept while this
  // server runs: the agents' integrations ask on every message, each from a fresh process.
  const given = new Map<string, number[]>();

  return {
    suggest: async (p, access) => {
      const s = deps.explicitRequests ? { ...settings.get(), autoRecall: true } : settings.get();
      const key = p.conversation;
      const before = key ? given.get(key) : undefined;
      const first = p.first ?? before === undefined;
      if (!first && s.autoRecallWhen === 'start') {
        return {
          suggestions: [],
          block: '',
          reason: 'auto-recall is set to run before a conversation’s first message only (autoRecallWhen: "start")',
          strategy: p.strategy ?? 'default',
          sensitivity: p.sensitivity ?? s.sensitivity,
        };
      }
      const listed = [...(p.listed ?? []), ...(before ?? [])].slice(-500);
      const result = await deps.reads().suggest({ ...p, listed }, s, settings.operator().pins, confined(access));
      if (key) {
        // Read again: another call for the same conversation may have been answered meanwhile (on another reader thread).
        const since = given.get(key) ?? before ?? [];
        given.delete(key);
        given.set(key, [...since, ...result.suggestions.map((x) => x.id)].slice(-REMEMBERED_IDS));
        if (given.size > REMEMBERED_CONVERSATIONS) given.delete(given.keys().next().value!);
      }
      return result;
    },
    recall_conversations: async (p, access) => deps.reads().recall(p, confined(access)),
    read_conversation: async (p, access) => deps.reads().read({ ...p, conversation_id: conversationOr404(p.conversation_id, access).id }),
    conversation_inspect: async (p, access) => deps.reads().inspect({ ...p, conversation_id: conversationOr404(p.conversation_id, access).id }),
    history_search: async (p, access) => deps.reads().historySearch({ ...p, conversation: String(conversationOr404(p.conversation, access).id) }),
    history_read: async (p, access) => deps.reads().historyRead({ ...p, conversation: String(conversationOr404(p.conversation, access).id) }),
    history_handoff: async (p, access) => deps.writes().recall.historyHandoff({ ...p, conversation: String(conversationOr404(p.conversation, access).id) }),
    status: async () => deps.status(),
    'ingest.append': async (p, access) => {
      const { db: writable, writer } = deps.writes();
      return appendEntries(writable, writer, p, access);
    },
    'conversations.list': async (p): Promise<ListResult> => {
      const filter = {
        workspace: p.workspace,
        source: p.source,
        since: p.since ? Date.parse(p.since) : undefined,
        until: p.until ? Date.parse(p.until) : undefined,
        subagents: p.subagents,
      };
      const limit = p.limit ?? PAGE;
      if (!p.query?.trim()) return withPreviews(listConversations(db, filter, p.offset ?? 0, limit));
      const found = await deps.reads().recall({ query: p.query, workspace: p.workspace ?? 'all', since: p.since, limit: 50, includeSubagents: p.subagents });
      const byId = new Map(found.hits.map((h) => [h.id, h]));
      const page = listConversations(db, { ...filter, ids: found.hits.map((h) => h.id) }, 0, 50);
      let items = page.items.map((c) => ({ ...c, snippet: byId.get(c.id)?.snippet, score: byId.get(c.id)?.score, entry: byId.get(c.id)?.entry ?? null }));
      if (p.sort === 'recent') items = items.sort((a, b) => (b.updatedAt ?? 0) - (a.updatedAt ?? 0));
      return withPreviews({ total: items.length, items: items.slice(p.offset ?? 0, (p.offset ?? 0) + limit), relaxed: found.relaxed });
    },
    'conversations.get': async (p, access): Promise<ConversationDetail> => {
      const conversation = conversationOr404(p.conversation_id, access);
      return {
        conversation,
        children: reader.children(conversation.id),
        resumeCommand: resumeCommand(conversation),
        boundary: reader.boundary(conversation.id),
        handoffs: reader.handoffs(conversation.id),
      };
    },
    'conversations.entries': async (p, access): Promise<EntriesResult> => {
      const conversation = conversationOr404(p.conversation_id, access);
      const limit = p.limit ?? PAGE;
      const max = reader.maxSeq(conversation.id) ?? -1;
      let entries;
      if (p.around !== undefined) {
        const from = Math.max(0, p.around - Math.floor(limit / 2));
        entries = reader.entries(conversation.id, from, from + limit - 1, limit);
      } else if (p.before !== undefined) {
        entries = reader.entriesBefore(conversation.id, p.before, limit);
      } else {
        const from = p.from ?? 0;
        entries = reader.entries(conversation.id, from, Number.MAX_SAFE_INTEGER, limit);
      }
      const first = entries[0]?.seq ?? 0;
      const last = entries.at(-1)?.seq ?? -1;
      return { conversation, entries, hasOlder: first > 0, hasNewer: last < max, boundary: reader.boundary(conversation.id) };
    },
    'conversations.workspaces': async (p) => ({ items: workspaces(db, p.limit ?? 200) }),
    'conversations.find': async (p, access) => findInConversation(db, conversationOr404(p.conversation_id, access).id, p.query),
    'settings.get': async () => settings.view(),
    'settings.set': async (p) => {
      settings.set(p);
      return settings.view();
    },
    'exclusions.preview': async (p) => previewExclusion({ reader, coverage }, p.pattern),
    'exclusions.add': async (p) => {
      const { db: writable, keeper } = deps.writes();
      return excludeAndForget({ db: writable, reader, keeper, settings }, p.pattern, p.keepIndexed ?? false);
    },
    activity: async (p) => {
      deps.flushActivity?.();
      return { items: recentActivity(db, p.limit ?? 200) };
    },
    ...integrationMethods(deps.env),
  };
}
