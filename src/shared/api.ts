// The one api contract. Every transport (Electron IPC, the agent socket, the HTTP bridge, the CLI,
// MCP) is a thin adapter over these methods; params are validated here, at every boundary.
import * as z from 'zod';
import type { Conversation, Entry, SourceKind } from './types.js';
import { SOURCE_KINDS } from './types.js';

export const Sensitivity = z.enum(['focused', 'balanced', 'broad']);
export type Sensitivity = z.infer<typeof Sensitivity>;
export const Scope = z.enum(['workspace', 'everywhere']);
export type Scope = z.infer<typeof Scope>;
export const StrategyName = z.enum(['default', 'signals', 'salient']);
/** When agents are offered earlier conversations unasked: before a conversation's first message, or before every message. */
export const AutoRecallWhen = z.enum(['start', 'every']);
export type AutoRecallWhen = z.infer<typeof AutoRecallWhen>;
export type StrategyName = z.infer<typeof StrategyName>;

const text = (max: number) => z.string().max(max);
/** A conversation reference: Throughline's numeric id, the agent's session id, or the session file path. */
const ConversationRef = z.union([z.number().int().positive(), text(4096).min(1)]);
const IsoDate = text(40).refine((s) => !Number.isNaN(Date.parse(s)), { message: 'expected a date (YYYY-MM-DD or ISO timestamp)' });

export const SuggestParams = z.object({
  text: text(20_000),
  workspace: text(4096).optional(),
  scope: Scope.optional(),
  sensitivity: Sensitivity.optional(),
  strategy: StrategyName.optional(),
  /** The caller's own live conversation (session id or file path): never suggested to itself. */
  conversation: text(4096).optional(),
  /** Conversations already listed in this chat: not listed again. */
  listed: z.array(ConversationRef).max(500).optional(),
  /**
   * Whether the message is the conversation's first. A later message gets suggestions only when
   * auto-recall runs on every message (settings autoRecallWhen). Default: true, or, with
   * `conversation`, whether this server has answered a suggest for that conversation before.
   */
  first: z.boolean().optional(),
  includeSubagents: z.boolean().optional(),
  now: IsoDate.optional(),
});
export type SuggestParams = z.infer<typeof SuggestParams>;

export const RecallParams = z.object({
  query: text(2000).min(1),
  since: IsoDate.optional(),
  /** A workspace path, or "all". */
  workspace: text(4096).optional(),
  limit: z.number().int().min(1).max(50).optional(),
  includeSubagents: z.boolean().optional(),
  now: IsoDate.optional(),
  /** The caller's own live conversation (session id or file path): never among the results. */
  conversation: text(4096).optional(),
});
export type RecallParams = z.infer<typeof RecallParams>;

export const ReadParams = z.object({
  conversation_id: ConversationRef,
  turns: text(40).regex(/^\s*\d+\s*(-\s*\d+\s*)?$/, 'turns is "N" or "N-M"').optional(),
  detail: z.enum(['summary', 'full']).optional(),
});
export type ReadParams = z.infer<typeof ReadParams>;

export const InspectParams = z.object({
  conversation_id: ConversationRef,
  query: text(500).optional(),
  role: z.enum(['user', 'assistant']).optional(),
  around: z.number().int().min(0).max(10).optional(),
  limit: z.number().int().min(1).max(50).optional(),
});
export type InspectParams = z.infer<typeof InspectParams>;

export const HistorySearchParams = z.object({
  conversation: text(4096).min(1),
  query: text(500).min(1),
  before: z.number().int().min(0).optional(),
  limit: z.number().int().min(1).max(20).optional(),
});
export type HistorySearchParams = z.infer<typeof HistorySearchParams>;

export const HistoryReadParams = z.discriminatedUnion('mode', [
  z.object({
    conversation: text(4096).min(1),
    mode: z.literal('items'),
    entries: z.array(z.number().int().min(0)).min(1).max(20),
    around: z.number().int().min(0).max(5).optional(),
  }),
  z.object({
    conversation: text(4096).min(1),
    mode: z.literal('range'),
    from: z.number().int().min(0),
    to: z.number().int().min(0).optional(),
    limit: z.number().int().min(1).max(50).optional(),
    cursor: text(200).optional(),
  }),
  z.object({
    conversation: text(4096).min(1),
    mode: z.literal('tail'),
    count: z.number().int().min(1).max(20).optional(),
  }),
]);
export type HistoryReadParams = z.infer<typeof HistoryReadParams>;

export const HistoryHandoffParams = z.object({
  conversation: text(4096).min(1),
  text: text(100_000).min(1),
});
export type HistoryHandoffParams = z.infer<typeof HistoryHandoffParams>;

export const ListParams = z.object({
  query: text(2000).optional(),
  workspace: text(4096).optional(),
  source: z.enum(SOURCE_KINDS).optional(),
  since: IsoDate.optional(),
  until: IsoDate.optional(),
  subagents: z.boolean().optional(),
  sort: z.enum(['recent', 'relevance']).optional(),
  offset: z.number().int().min(0).optional(),
  limit: z.number().int().min(1).max(500).optional(),
});
export type ListParams = z.infer<typeof ListParams>;

export const EntriesParams = z.object({
  conversation_id: ConversationRef,
  /** Page of entries with seq >= from (newer pages) … */
  from: z.number().int().min(0).optional(),
  /** … or with seq < before (older pages) … */
  before: z.number().int().min(0).optional(),
  /** … or centred on this entry (reveal). */
  around: z.number().int().min(0).optional(),
  limit: z.number().int().min(1).max(500).optional(),
});
export type EntriesParams = z.infer<typeof EntriesParams>;

export const ConversationParams = z.object({ conversation_id: ConversationRef });

/** conversations.find: entries of one conversation holding `query` (any case), for find in conversation. */
export const FindParams = z.object({ conversation_id: ConversationRef, query: text(200).min(1) });
export type FindParams = z.infer<typeof FindParams>;
export type ConversationParams = z.infer<typeof ConversationParams>;

export const Pins = z.object({
  dfCeiling: z.number().int().min(1).optional(),
  rareDf: z.number().int().min(1).optional(),
  maxHits: z.number().int().min(1).max(10).optional(),
  tokenBudget: z.number().int().min(50).optional(),
  halfLifeDays: z.number().positive().optional(),
});
export type Pins = z.infer<typeof Pins>;

export const SourceSetting = z.object({ kind: z.enum(SOURCE_KINDS), path: text(4096).min(1), enabled: z.boolean() });
export type SourceSetting = z.infer<typeof SourceSetting>;

export const Settings = z.object({
  autoRecall: z.boolean(),
  autoRecallWhen: AutoRecallWhen,
  sensitivity: Sensitivity,
  scope: Scope,
  pins: Pins,
  sources: z.array(SourceSetting).max(100),
  /** Agent tokens; a token limited to workspaces never sees anything outside them. */
  tokens: z
    .array(z.object({ name: text(100).min(1), token: text(200).min(16), workspaces: z.array(text(4096)).max(100).optional() }))
    .max(100),
  exclusions: z.array(text(4096)).max(500),
});
export type Settings = z.infer<typeof Settings>;
/** settings.get and settings.set answer with the settings in force and what the operator decided. */
export interface SettingsView extends Settings {
  operator: {
    /** operator.json turned auto-recall off for everyone: the app hides its settings. */
    autoRecallOff: boolean;
    /** The operator's pins (shipped preset ← operator ← user). */
    pins: Pins;
  };
}
export const SettingsPatch = Settings.partial();
export type SettingsPatch = z.infer<typeof SettingsPatch>;

export const ActivityParams = z.object({ limit: z.number().int().min(1).max(1000).optional() });
/** conversations.workspaces: the workspaces of top-level conversations, most recently active first. */
export const WorkspacesParams = z.object({ limit: z.number().int().min(1).max(1000).optional() });
export type WorkspacesParams = z.infer<typeof WorkspacesParams>;
export type ActivityParams = z.infer<typeof ActivityParams>;

export const AppendParams = z.object({
  conversation: z.object({
    id: text(200).min(1),
    workspace: text(4096).optional(),
    title: text(500).optional(),
  }),
  entries: z
    .array(
      z.object({
        role: z.enum(['user', 'assistant', 'tool', 'system']),
        text: text(1_000_000),
        ts: IsoDate.optional(),
        id: text(200).optional(),
        tool: z.object({ name: text(200), status: text(40) }).optional(),
      }),
    )
    .max(1000),
});
export type AppendParams = z.infer<typeof AppendParams>;

/**
 * exclusions.add / exclusions.preview: a path (file, folder or workspace), a glob, or `session:ID`,
 * as in settings.exclusions.
 */
export const ExclusionParams = z.object({ pattern: text(4096).min(1) });
export type ExclusionParams = z.infer<typeof ExclusionParams>;
export const ExclusionAddParams = ExclusionParams.extend({
  /** Keep what is already indexed of it (default: remove it from the index now). */
  keepIndexed: z.boolean().optional(),
});
export type ExclusionAddParams = z.infer<typeof ExclusionAddParams>;

export const EmptyParams = z.object({}).strict();

/** integrations.install / .uninstall: the CLI's name for the integration (`throughline install ID`). */
export const IntegrationParams = z.object({
  id: text(40).min(1),
  /** Change nothing: say what would change (`changed`) and how (`diffs`). */
  dryRun: z.boolean().optional(),
});
export type IntegrationParams = z.infer<typeof IntegrationParams>;

// ---- results ----

export interface Signal {
  name: string; // e.g. "title", "workspace", "summary", "transcript", "recent", "terms"
  points: number;
  detail?: string; // the matched terms, the age…
}

export interface ConversationRefInfo {
  id: number;
  source: SourceKind;
  sessionId: string;
  path: string;
  title: string;
  workspace: string | null;
}

export interface Suggestion extends ConversationRefInfo {
  score: number;
  signals: Signal[];
  updatedAt: number | null;
  preview?: string;
}

export interface SuggestResult {
  suggestions: Suggestion[];
  block: string; // exactly what an agent gets; empty when nothing is suggested
  reason: string; // why nothing (or what) was suggested, in a person's words
  detail?: string; // the numbers behind the reason (coverage, thresholds), for a detail line
  strategy: StrategyName;
  sensitivity: Sensitivity;
  salientTerms?: string[];
}

export interface RecallHit extends ConversationRefInfo {
  date: string | null; // ISO
  snippet: string;
  score: number;
  entry: number | null; // seq of the best-matching entry, for reveal
  why?: string; // what matched, for a person: "redis, maxmemory; similar: slow ≈ sluggish"
}

export interface RecallResult {
  hits: RecallHit[];
  more: boolean;
  relaxed: boolean; // no conversation holds every term: the hits are partial matches
  note?: string;
  truncated: boolean;
  text: string; // rendered for an agent
}

export interface ReadResult {
  conversation: ConversationRefInfo;
  turns: { turn: number; role: string; text: string; entry: number }[];
  totalTurns: number;
  truncated: boolean;
  text: string;
}

export interface InspectResult {
  conversation: ConversationRefInfo;
  blocks: { entry: number; role: string; text: string; match: boolean }[];
  truncated: boolean;
  text: string;
}

export interface HistoryHit {
  entry: number;
  role: 'user' | 'assistant';
  author?: string;
  snippet: string;
}
export interface HistorySearchResult {
  hits: HistoryHit[];
  more: boolean;
  boundary: number | null;
  note?: string;
  text: string;
}
export interface HistoryEntry {
  entry: number;
  role: string;
  author?: string;
  text: string;
  tool?: { name: string; status: string };
}
export interface HistoryReadResult {
  entries: HistoryEntry[];
  next?: string;
  truncated: boolean;
  text: string;
}
export interface HistoryHandoffResult {
  handoff: string;
  /** The boundary: entries numbered below it are before the handoff. */
  entry: number;
  /** The last entry before the handoff (indexed so far), or null when there is none yet. */
  after: number | null;
  /** What happened, for the agent: the handoff is written; the caller's context is not reset by it. */
  text: string;
}

export interface ConversationListItem extends Conversation {
  snippet?: string;
  score?: number;
  entry?: number | null;
  /** Without a summary: the start of the first assistant reply (markdown), for the row's second line. */
  preview?: string;
}
export interface ListResult {
  total: number;
  items: ConversationListItem[];
  /** A search: no conversation held every word, so these match some of them (recall's `relaxed`). */
  relaxed?: boolean;
}
export interface EntriesResult {
  conversation: Conversation;
  entries: Entry[];
  hasOlder: boolean;
  hasNewer: boolean;
  boundary: number | null;
}
export interface FindResult {
  matches: { entry: number; count: number }[];
  total: number;
  truncated: boolean;
}
export interface WorkspaceItem {
  workspace: string;
  /** Top-level conversations in it. */
  conversations: number;
  /** Its latest activity (ms). */
  updatedAt: number | null;
}

/**
 * A handoff written through history_handoff by an agent Throughline cannot restart (over MCP, the
 * socket or the CLI): a boundary before entry `seq`, with this text. (pi's extension starts afresh
 * itself; its handoff is an entry of kind 'reset' in the session file.)
 */
export interface HandoffMark {
  seq: number;
  text: string;
  /** When it was written (ms). */
  at: number;
}
export interface ConversationDetail {
  conversation: Conversation;
  children: Conversation[];
  resumeCommand: string | null;
  boundary: number | null;
  handoffs: HandoffMark[];
}

export interface IndexStatus {
  db: string;
  schemaVersion: number;
  /** Conversations a person lists: sub-agent conversations are counted apart. */
  conversations: number;
  subagents: number;
  /** Every stored entry, sub-agents' included. */
  entries: number;
  files: number;
  missingFiles: number;
  /** Conversations by agent (sub-agent conversations apart). */
  bySource: Record<string, number>;
  /** The index file and its WAL, in bytes. */
  bytes: number;
  errors: { path: string; line: number | null; reason: string; at: number }[];
  errorCount: number;
  lastIndexedAt: number | null;
  indexing: { active: boolean; filesDone: number; filesTotal: number; entries: number; bytes: number; rateMBps: number } | null;
  socket: string | null;
  /** Every folder watched for session files, with how many files were indexed from it. */
  folders: WatchedFolder[];
}

export interface WatchedFolder {
  kind: SourceKind;
  path: string;
  /** false: the folder does not exist (that agent is not installed, or keeps its sessions elsewhere). */
  found: boolean;
  /** Session files in the index from under this folder. */
  files: number;
}

export interface ActivityItem {
  id: number;
  at: number;
  client: string;
  method: string;
  params: string;
  conversations: number[];
  bytes: number;
}

/** One agent integration (Settings → Extensions): what `throughline install ID` adds and whether it is there. */
export interface IntegrationInfo {
  id: string;
  agent: string;
  adds: string;
  /** unreadable: a config file it must read is not valid; `problem` says which and why. */
  state: 'installed' | 'partial' | 'absent' | 'unreadable';
  files: string[];
  problem?: string;
}

/** What install/uninstall did (as `throughline install --json` prints it), and the state after. */
/** What an install or uninstall did (or, with dryRun, would do). */
export interface InstallReport {
  changed: string[];
  unchanged: string[];
  backups: string[];
  notes: string[];
  /** Nothing was written: `changed` lists what would change, `diffs` how. */
  dryRun: boolean;
  diffs: { file: string; diff: string }[];
}

export interface IntegrationChange extends InstallReport {
  integration: IntegrationInfo;
}

export interface AppendResult {
  /** null when the conversation is excluded (settings, forget): nothing was stored. */
  conversation: number | null;
  entries: number;
  /** The exclusion that kept the entries out. */
  excluded?: string;
}

/** What an exclusion covers in the index now. */
export interface ExclusionPreview {
  conversations: number;
  entries: number;
}

export interface ExclusionAddResult {
  exclusion: string;
  /** Removed from the index now. */
  removed: { conversations: { id: number; title: string; workspace: string | null; path: string }[]; entries: number };
  /** Left in the index (keepIndexed) but kept from growing. */
  kept: number;
}

/** Method name → [params schema, result type]. Transports derive everything from this table. */
export const METHODS = {
  suggest: SuggestParams,
  recall_conversations: RecallParams,
  read_conversation: ReadParams,
  conversation_inspect: InspectParams,
  history_search: HistorySearchParams,
  history_read: HistoryReadParams,
  history_handoff: HistoryHandoffParams,
  status: EmptyParams,
  'ingest.append': AppendParams,
  'conversations.list': ListParams,
  'conversations.get': ConversationParams,
  'conversations.entries': EntriesParams,
  'conversations.workspaces': WorkspacesParams,
  'conversations.find': FindParams,
  'settings.get': EmptyParams,
  'settings.set': SettingsPatch,
  'exclusions.preview': ExclusionParams,
  'exclusions.add': ExclusionAddParams,
  activity: ActivityParams,
  'integrations.list': EmptyParams,
  'integrations.install': IntegrationParams,
  'integrations.uninstall': IntegrationParams,
} as const;
export type MethodName = keyof typeof METHODS;

export interface MethodResults {
  suggest: SuggestResult;
  recall_conversations: RecallResult;
  read_conversation: ReadResult;
  conversation_inspect: InspectResult;
  history_search: HistorySearchResult;
  history_read: HistoryReadResult;
  history_handoff: HistoryHandoffResult;
  status: IndexStatus;
  'ingest.append': AppendResult;
  'conversations.list': ListResult;
  'conversations.get': ConversationDetail;
  'conversations.entries': EntriesResult;
  'conversations.workspaces': { items: WorkspaceItem[] };
  'conversations.find': FindResult;
  'settings.get': SettingsView;
  'settings.set': SettingsView;
  'exclusions.preview': ExclusionPreview;
  'exclusions.add': ExclusionAddResult;
  activity: { items: ActivityItem[] };
  'integrations.list': { items: IntegrationInfo[] };
  'integrations.install': IntegrationChange;
  'integrations.uninstall': IntegrationChange;
}

export type MethodParams<M extends MethodName> = z.infer<(typeof METHODS)[M]>;

/**
 * Who is calling, as far as the data goes: a token limited to workspaces (null: every workspace, the
 * local user). The api applies it to every conversation it resolves, so the check and the action
 * can never look at two different conversations; transports decide which methods a caller may use.
 */
export interface Access {
  workspaces: string[] | null;
}

/** The api as every transport sees it: one async function per method. */
export type Api = { [M in MethodName]: (params: MethodParams<M>, access?: Access) => Promise<MethodResults[M]> };
