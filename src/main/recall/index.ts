// The recall engine's facade: suggestions (three strategies behind one interface), the pointer
// block, and the bounded search/read tools, all returning the result types of src/shared/api.ts.
// Recall only reads (it is made from a readable handle); history_handoff, the one tool that writes,
// is RecallWrites, made from a writable one. Params are validated once, by the api's dispatch
// (api/dispatch.ts) that every transport goes through; in-process callers (the api's methods, the
// reader threads, bench, tests) are held to the params' types by the type checker instead.
import type {
  HistoryHandoffParams,
  HistoryReadParams,
  HistorySearchParams,
  InspectParams,
  ReadParams,
  RecallParams,
  SuggestParams,
  HistoryHandoffResult,
  HistoryReadResult,
  HistorySearchResult,
  InspectResult,
  Pins,
  ReadResult,
  RecallResult,
  Settings,
  StrategyName,
  Suggestion,
  SuggestResult,
} from '../../shared/api.js';
import type { ReadableDb, WritableDb } from '../store/db.js';
import { createReader } from '../store/read.js';
import { inOneRead } from '../store/snapshot.js';
import { createSearch, type Bounds, type ConversationMetaRow } from '../store/search.js';
import type { SourceKind } from '../../shared/types.js';
import { confineSearch } from './confined.js';
import { defaultStrategy } from './default.js';
import { renderPointerBlock } from './pointer-block.js';
import { DEFAULT_SENSITIVITY, resolveGate } from './presets.js';
import { salientStrategy } from './salient.js';
import { signalsStrategy } from './signals.js';
import type { Strategy } from './strategy.js';
import { parseQuery } from './terms.js';
import { workspaceRoot } from './workspace.js';
import { createWorkspaceLookup } from '../store/workspace-roots.js';
import { createHandoffTool, createHistoryTools } from './tools-history.js';
import { createReadTools } from './tools-read.js';
import { createRecallTool } from './tools-recall.js';

export { RecallError } from './errors.js';
export type { Strategy, Ranked, StrategyContext } from './strategy.js';

export type RecallSettings = Pick<Settings, 'autoRecall' | 'sensitivity' | 'scope' | 'pins'>;

export const DEFAULT_SETTINGS: RecallSettings = { autoRecall: true, sensitivity: DEFAULT_SENSITIVITY, scope: 'workspace', pins: {} };

export const STRATEGIES: Readonly<Record<StrategyName, Strategy>> = {
  default: defaultStrategy,
  signals: signalsStrategy,
  salient: salientStrategy,
};

export interface RecallOptions {
  /** Operator pins (deployment config): between the shipped preset and the user's pins. */
  operatorPins?: Pins;
  /** The clock, for tests; `params.now` wins. */
  now?: () => number;
  /** Replace or add strategies (experiments, tests). */
  strategies?: Partial<Record<StrategyName, Strategy>>;
}

export const NO_WORKSPACE = 'scope is "this workspace only", but no workspace was given: pass the workspace, or scope "everywhere"';

/** Most clauses a suggestion looks at: a pasted log must not turn into hundreds of probes. */
const SUGGEST_MAX_CLAUSES = 64;

/** Suggestions and the agents' read tools: every one a read of the index. */
export interface Recall {
  /** `confined`: the caller may see only its workspace (a limited token); params.workspace and scope are the transport's, forced. */
  suggest(input: SuggestParams, settings?: RecallSettings, operatorPins?: Pins, confined?: boolean): SuggestResult;
  /** `confined`: as for suggest. */
  recall(p: RecallParams, confined?: boolean): RecallResult;
  read(p: ReadParams): ReadResult;
  inspect(p: InspectParams): InspectResult;
  historySearch(p: HistorySearchParams): HistorySearchResult;
  historyRead(p: HistoryReadParams): HistoryReadResult;
}

/** The agents' tool that writes: history_handoff. */
export interface RecallWrites {
  historyHandoff(p: HistoryHandoffParams): HistoryHandoffResult;
}

export function createRecallWrites(db: WritableDb): RecallWrites {
  const handoff = createHandoffTool(db, createReader(db));
  return { historyHandoff: handoff };
}

export function createRecall(db: ReadableDb, options: RecallOptions = {}): Recall {
  const reader = createReader(db);
  const search = createSearch(db);
  const strategies = { ...STRATEGIES, ...options.strategies };
  const history = createHistoryTools(reader, search);
  const readTools = createReadTools(reader, search);
  const recallTool = createRecallTool(search);
  const clock = options.now ?? Date.now;

  const knownWorkspaces = createWorkspaceLookup(db);
  const repositoryOf = (folder: string): string => workspaceRoot(folder, { known: knownWorkspaces });
  const idOf = (ref: string | number): number | null => reader.conversation(ref)?.id ?? null;

  function suggestion(row: ConversationMetaRow, score: number, signals: Suggestion['signals']): Suggestion {
    const title = row.title || 'Untitled conversation';
    const s: Suggestion = {
      id: row.id,
      source: row.source as SourceKind,
      sessionId: row.session_id,
      path: row.path,
      title,
      workspace: row.workspace,
      score,
      signals,
      updatedAt: row.updated_at,
    };
    // The preview comes from a summary only, never raw transcript: the agent's, else the one derived at index time.
    const summary = (row.summary || row.derived_summary || '').trim();
    if (summary && summary !== title.trim()) s.preview = summary;
    return s;
  }

  /**
   * `confined`: the caller may see only its workspace (a limited token), so term statistics are
   * counted inside it too (see confined.ts); params.workspace and scope are the transport's, forced.
   */
  function suggest(params: SuggestParams, settings: RecallSettings = DEFAULT_SETTINGS, operatorPins?: Pins, confined = false): SuggestResult {
    const strategyName = params.strategy ?? 'default';
    const sensitivity = params.sensitivity ?? settings.sensitivity;
    const base = { strategy: strategyName, sensitivity };
    if (!settings.autoRecall) return { ...base, suggestions: [], block: '', reason: 'disabled' };
    const gate = resolveGate(sensitivity, operatorPins ?? options.operatorPins, settings.pins);
    const scope = params.scope ?? settings.scope;
    const exclude = new Set<number>();
    // The live conversation is in the index and would match its own message on every turn.
    if (params.conversation) {
      const own = idOf(params.conversation);
      if (own !== null) exclude.add(own);
    }
    for (const ref of params.listed ?? []) {
      const id = idOf(ref);
      if (id !== null) exclude.add(id);
    }
    // "This workspace only" with no workspace to go by would search everywhere unannounced.
    if (scope === 'workspace' && !params.workspace) return { ...base, suggestions: [], block: '', reason: NO_WORKSPACE };
    // The repository the caller works in (a limited token's folder is never widened: it may see no more).
    const root = params.workspace ? (confined ? params.workspace : repositoryOf(params.workspace)) : null;
    const bounds: Bounds = {
      workspace: scope === 'workspace' ? root : null,
      exclude: [...exclude],
      includeSubagents: params.includeSubagents ?? false,
    };
    const now = params.now ? Date.parse(params.now) : clock();
    const clauses = parseQuery(params.text, { maxClauses: SUGGEST_MAX_CLAUSES });
    const strategy = strategies[strategyName];
    if (!clauses.length) return { ...base, suggestions: [], block: '', reason: 'no terms left after stop words', salientTerms: [] };
    const within = confined ? confineSearch(search, { workspace: bounds.workspace, includeSubagents: true }) : search;
    const outcome = strategy.suggest({ text: params.text, clauses, sensitivity, workspace: root, bounds, now, gate, search: within });
    const meta = outcome.meta ?? search.conversations(outcome.ranked.map((r) => r.id));
    const ranked = outcome.ranked.flatMap((r) => {
      const row = meta.get(r.id);
      return row ? [suggestion(row, r.score, r.signals)] : [];
    });
    const { block, included } = renderPointerBlock(ranked, gate.tokenBudget);
    let reason = outcome.reason;
    if (included.length < ranked.length) reason += `; ${ranked.length - included.length} left out to stay within ${gate.tokenBudget} tokens`;
    return {
      ...base,
      suggestions: included,
      block,
      reason,
      ...(outcome.detail ? { detail: outcome.detail } : {}),
      ...(outcome.salientTerms ? { salientTerms: outcome.salientTerms } : {}),
    };
  }

  // Each call reads one snapshot of the index (store/snapshot.ts).
  const oneRead = <A extends unknown[], R>(fn: (...args: A) => R) => inOneRead(db, fn);

  return {
    suggest: oneRead(suggest),
    /** `confined`: as for suggest; the workspace is the transport's, forced. */
    recall: oneRead((params: RecallParams, confined = false) => {
      // Like suggest: the caller's live conversation would match its own words first.
      const own = params.conversation ? idOf(params.conversation) : null;
      const exclude = own === null ? [] : [own];
      // A workspace named from inside a repository means the repository, as for suggest.
      if (!confined) return recallTool.recall(params.workspace && params.workspace !== 'all' ? { ...params, workspace: repositoryOf(params.workspace) } : params, exclude);
      const workspace = params.workspace && params.workspace !== 'all' ? params.workspace : null;
      return createRecallTool(confineSearch(search, { workspace, includeSubagents: true })).recall(params, exclude);
    }),
    read: oneRead(readTools.read),
    inspect: oneRead(readTools.inspect),
    historySearch: oneRead(history.historySearch),
    historyRead: oneRead(history.historyRead),
  };
}
