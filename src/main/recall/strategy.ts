// The one interface every suggestion strategy implements, so they can be measured side by side.
import type { Sensitivity, Signal, StrategyName } from '../../shared/api.js';
import type { Bounds, ConversationMetaRow, Search } from '../store/search.js';
import type { Gate } from './presets.js';
import type { Clause } from './terms.js';
import { underRoot } from './workspace.js';

export interface Ranked {
  id: number;
  score: number;
  signals: Signal[];
  updatedAt: number | null;
}

export interface StrategyContext {
  /** The message as written (cues such as "again" or "in June" are read from it). */
  text: string;
  /** The message, parsed into stop-word-filtered clauses. */
  clauses: Clause[];
  sensitivity: Sensitivity;
  /** The caller's workspace root (for same-workspace signals), whatever the scope. */
  workspace: string | null;
  /** SQL bounds: scope, the caller's own and already listed conversations, sub-agents. */
  bounds: Bounds;
  now: number;
  gate: Gate;
  search: Search;
}

export interface StrategyOutcome {
  ranked: Ranked[];
  /** Why nothing (or what) was suggested, in a person's words. */
  reason: string;
  /** The numbers behind the reason, for a detail line. */
  detail?: string;
  /** The terms the strategy treated as distinctive, when it has that notion. */
  salientTerms?: string[];
  /** Conversation rows the strategy already read (saves a query when rendering). */
  meta?: Map<number, ConversationMetaRow>;
}

export interface Strategy {
  name: StrategyName;
  suggest(ctx: StrategyContext): StrategyOutcome;
}

export const DAY_MS = 86_400_000;

/** Age in days of a conversation's last activity; null when unknown. */
export function ageDays(updatedAt: number | null, now: number): number | null {
  return updatedAt === null ? null : Math.max(0, (now - updatedAt) / DAY_MS);
}

/** Score descending, then most recent activity, then the higher id (newer), so ties are stable. */
export function byScoreThenRecent(a: Ranked, b: Ranked): number {
  return b.score - a.score || (b.updatedAt ?? 0) - (a.updatedAt ?? 0) || b.id - a.id;
}

/**
 * Same workspace: the conversation's folder is the caller's workspace root or lies under it (the root
 * is the repository, recall/workspace.ts; the seed's "Same workspace/repo").
 */
export function sameWorkspace(conversation: string | null | undefined, root: string | null | undefined): boolean {
  return underRoot(conversation, root);
}
