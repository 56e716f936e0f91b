// The `salient` strategy: the turn-start gate of personal-recall-plugin.md, exactly as written.
//  1. Salient terms: df ≥ 1 and df ≤ the df ceiling (a commoner word is a stop word for this corpus).
//     No salient term → no recall (the common case).
//  2. One ranked probe per salient term; the lists are fused, so a conversation two independent
//     rare terms reach outranks one a single term found. A conversation reached by a single term is
//     admitted only when that term's df ≤ rare_df.
//  3. Recency prior: the fused score decays with a half-life (60 days) toward a floor.
// Fusion is reciprocal-rank fusion (RRF, k = 60): it needs no calibration between probes whose
// bm25 scales differ (a rare term's bm25 is larger than a commoner one's), and it rewards
// agreement between probes, which is the point of step 2.
import type { Signal } from '../../shared/api.js';
import { clauseMatch, matchAll } from './terms.js';
import { clauseInfos, type ClauseInfo } from './evidence.js';
import type { Gate } from './presets.js';
import { ageDays, byScoreThenRecent, type Ranked, type Strategy } from './strategy.js';

export const RRF_K = 60;
/** Where the recency prior levels off: a year-old conversation keeps a quarter of its score. */
export const RECENCY_FLOOR = 0.25;

export function salientTerms(infos: readonly ClauseInfo[], gate: Pick<Gate, 'dfCeiling'>): ClauseInfo[] {
  return infos.filter((i) => i.df >= 1 && i.df <= gate.dfCeiling);
}

export interface Fused {
  id: number;
  score: number;
  /** The probes that reached it, with its 1-based rank in each. */
  terms: { key: string; rank: number }[];
}

/** Reciprocal-rank fusion: Σ over probes of 1 / (k + rank). */
export function rrfFuse(probes: readonly { key: string; ids: readonly number[] }[], k: number = RRF_K): Map<number, Fused> {
  const out = new Map<number, Fused>();
  for (const p of probes) {
    p.ids.forEach((id, i) => {
      let f = out.get(id);
      if (!f) out.set(id, (f = { id, score: 0, terms: [] }));
      f.score += 1 / (k + i + 1);
      f.terms.push({ key: p.key, rank: i + 1 });
    });
  }
  return out;
}

/** Two or more probes corroborate; one alone counts only for a very rare term. */
export function admitted(f: Fused, dfOf: ReadonlyMap<string, number>, rareDf: number): boolean {
  if (f.terms.length >= 2) return true;
  const only = f.terms[0];
  return only !== undefined && (dfOf.get(only.key) ?? Infinity) <= rareDf;
}

/** floor + (1 − floor) · 2^(−age / halfLife); unknown age gets the floor. */
export function recencyFactor(age: number | null, halfLifeDays: number, floor: number = RECENCY_FLOOR): number {
  if (age === null) return floor;
  return floor + (1 - floor) * Math.pow(0.5, age / halfLifeDays);
}

const round = (x: number, d = 4) => Math.round(x * 10 ** d) / 10 ** d;

export const salientStrategy: Strategy = {
  name: 'salient',
  suggest(ctx) {
    const infos = clauseInfos(ctx.search, ctx.clauses);
    const salient = salientTerms(infos, ctx.gate);
    const salientTermsOut = salient.map((s) => s.key);
    if (!salient.length) {
      return { ranked: [], reason: `no salient term (every term is absent or in more than ${ctx.gate.dfCeiling} conversations)`, salientTerms: [] };
    }
    const limit = Math.max(ctx.gate.dfCeiling, ...salient.map((s) => s.df));
    const probes = salient.map((s) => {
      // The probe ranks by the best matching message (bm25); a conversation that matches only in its
      // title or summary follows, so the probe sees every conversation the term is in.
      const ids = ctx.search.probe(clauseMatch(s.clause, 'full'), ctx.bounds, limit).map((p) => p.id);
      const seen = new Set(ids);
      for (const id of ctx.search.fieldMatches(matchAll([s.clause], { columns: ['title', 'summary'] })!, ctx.bounds, limit)) {
        if (!seen.has(id)) ids.push(id);
      }
      return { key: s.key, ids };
    });
    const dfOf = new Map(salient.map((s) => [s.key, s.df]));
    const fused = [...rrfFuse(probes).values()].filter((f) => admitted(f, dfOf, ctx.gate.rareDf));
    const meta = ctx.search.conversations(fused.map((f) => f.id));
    const ranked: Ranked[] = fused.flatMap((f) => {
      const row = meta.get(f.id);
      if (!row) return [];
      const age = ageDays(row.updated_at, ctx.now);
      const recency = recencyFactor(age, ctx.gate.halfLifeDays);
      const signals: Signal[] = [
        { name: 'terms', points: round(f.score), detail: f.terms.map((t) => `${t.key} (df ${dfOf.get(t.key)}, #${t.rank})`).join(', ') },
        { name: 'recency', points: round(recency, 3), detail: age === null ? 'unknown age' : `${Math.floor(age)}d` },
      ];
      return [{ id: f.id, score: round(f.score * recency), signals, updatedAt: row.updated_at }];
    });
    const kept = ranked.sort(byScoreThenRecent).slice(0, ctx.gate.maxHits);
    const reason = kept.length
      ? `${kept.length} conversation(s) reached by salient terms ${salientTermsOut.join(', ')}`
      : `salient terms ${salientTermsOut.join(', ')} reached no conversation strongly enough (lone terms need df ≤ ${ctx.gate.rareDf})`;
    return { ranked: kept, reason, salientTerms: salientTermsOut, meta };
  },
};
