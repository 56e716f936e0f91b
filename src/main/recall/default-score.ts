// Pure scoring of Throughline's default strategy (see default.ts for the why).
import type { Signal } from '../../shared/api.js';
import type { FieldMatch } from './evidence.js';

export interface DefaultParams {
  /** Terms in this many × the gate's df ceiling conversations (or more) weigh nothing. */
  dfScale: number;
  /** Field weights: where a term matched says how central it is to the conversation. */
  titleWeight: number;
  summaryWeight: number;
  /** Share of the best "said together" mass (one message, or the title) added on top. */
  togetherWeight: number;
  workspaceBoost: number;
  /** Where the recency prior levels off: old conversations keep this share of their score. */
  recencyFloor: number;
  /** A best candidate at or above this is admitted outright. */
  strong: number;
  /** A best candidate at or above this is admitted when it stands out from the next ones … */
  standout: number;
  /** … by at least this much over their mean (the runner-ups estimate what chance matches reach). */
  standoutGap: number;
  /** Others are listed only when they score at least this share of the best. */
  relativeCutoff: number;
}

// Chosen on the dev corpus from a broad plateau (most neighbouring settings meet every goal), not
// a peak: dfScale 2–4, strong 12–15, standout 7–10, gap ≥ 2.5 and half-lives of 30–90 days all
// behave alike there, and so do corpora of 170 to 1,570 conversations.
export const DEFAULT_PARAMS: DefaultParams = {
  dfScale: 3,
  titleWeight: 1.5,
  summaryWeight: 1.25,
  togetherWeight: 0.5,
  workspaceBoost: 1.2,
  recencyFloor: 0.9,
  strong: 14,
  standout: 8,
  standoutGap: 3,
  relativeCutoff: 0.75,
};

/**
 * The information a term carries above the corpus's own stop-word level: ln(K / df) with
 * K = dfScale × df ceiling, zero at and beyond K. Unlike plain idf it does not depend on the corpus
 * size, and a term near the ceiling (this person's everyday vocabulary) weighs little next to a
 * truly rare one — the salient gate's cut, made continuous.
 */
export function termWeight(df: number, k: number): number {
  return df >= 1 && df < k ? Math.log(k / df) : 0;
}

export function fieldWeight(m: FieldMatch, p: DefaultParams): number {
  if (m.title) return p.titleWeight;
  if (m.summary) return p.summaryWeight;
  return m.transcript ? 1 : 0;
}

export interface Evidence {
  /** Σ weight × field weight over the matched terms. */
  conversation: number;
  /** The most term weight said together: in one message, or in the title. */
  together: number;
  matched: string[];
}

export function evidenceOf(fields: ReadonlyMap<string, FieldMatch>, weights: ReadonlyMap<string, number>, p: DefaultParams): Evidence {
  let conversation = 0;
  let title = 0;
  const perEntry = new Map<number, number>();
  const matched: string[] = [];
  for (const [key, m] of fields) {
    const w = weights.get(key) ?? 0;
    const f = fieldWeight(m, p);
    if (w <= 0 || f === 0) continue;
    conversation += w * f;
    if (m.title) title += w;
    for (const e of new Set(m.entries)) perEntry.set(e, (perEntry.get(e) ?? 0) + w);
    matched.push(`${key}${m.title ? ' (title)' : m.summary ? ' (summary)' : ''}`);
  }
  const together = Math.max(title, 0, ...perEntry.values());
  return { conversation, together, matched };
}

export function baseScore(e: Evidence, p: DefaultParams): number {
  return e.conversation + p.togetherWeight * e.together;
}

/** The gate's half-life (60 days unless pinned) toward a high floor: recency breaks near-ties only. */
export function recency(age: number | null, halfLifeDays: number, p: DefaultParams): number {
  if (age === null) return p.recencyFloor;
  return p.recencyFloor + (1 - p.recencyFloor) * Math.pow(0.5, age / halfLifeDays);
}

export interface Scored {
  id: number;
  score: number;
  updatedAt: number | null;
  signals: Signal[];
}

/**
 * Which of the scored candidates (best first) to list. The best is admitted when strong, or when it
 * stands out from the next three by `standoutGap` (a message in everyday words reaches many
 * conversations about equally; a reference to one piece of work reaches that one clearly more).
 * Others follow only when close to the best.
 */
export function selectDefault<T extends Scored>(sorted: readonly T[], p: DefaultParams, maxHits: number): { kept: T[]; why: string } {
  const best = sorted[0];
  if (!best) return { kept: [], why: 'no conversation shares a distinctive term' };
  const rest = sorted.slice(1, 4).map((s) => s.score);
  const gap = best.score - (rest.length ? rest.reduce((a, b) => a + b, 0) / rest.length : 0);
  const strong = best.score >= p.strong;
  const standsOut = best.score >= p.standout && gap >= p.standoutGap;
  if (!strong && !standsOut) {
    return { kept: [], why: `best match ${round2(best.score)} is neither strong (≥ ${p.strong}) nor standing out (≥ ${p.standout} and ${p.standoutGap} above the next; gap ${round2(gap)})` };
  }
  const kept = sorted.filter((s) => s.score >= best.score * p.relativeCutoff).slice(0, maxHits);
  return { kept, why: strong ? 'strong match' : `stands out by ${round2(gap)}` };
}

export const round2 = (x: number): number => Math.round(x * 100) / 100;
