// The `signals` strategy: the scorer of suggested-context-personal-agent.md, exactly as written.
//   title match +5 per term (cap 12); same workspace +3; summary/preview match +2 per term (cap 8);
//   transcript index match +1 per term (cap 6); activity < 7 days +2, else < 30 days +1;
//   minimum 6; at most 5; by score, then most recent activity.
// Deliberately naive (no df, no weights): it is the seed's baseline, kept faithful for comparison.
import type { Signal } from '../../shared/api.js';
import type { FieldTerm } from '../store/search.js';
import { clauseInfos } from './evidence.js';
import { clauseMatch, matchAll } from './terms.js';
import { ageDays, byScoreThenRecent, sameWorkspace, type Ranked, type Strategy } from './strategy.js';

export const SIGNALS = {
  titlePerTerm: 5,
  titleCap: 12,
  workspace: 3,
  summaryPerTerm: 2,
  summaryCap: 8,
  transcriptPerTerm: 1,
  transcriptCap: 6,
  recent7: 2,
  recent30: 1,
  minimum: 6,
  maxListed: 5,
} as const;

export interface SignalsInput {
  titleTerms: readonly string[];
  summaryTerms: readonly string[];
  transcriptTerms: readonly string[];
  sameWorkspace: boolean;
  ageDays: number | null;
}

/** The seed's score for one conversation, with the signals that produced it. */
export function scoreSignals(input: SignalsInput): { score: number; signals: Signal[] } {
  const signals: Signal[] = [];
  const add = (name: string, points: number, detail?: string) => {
    if (points > 0) signals.push(detail === undefined ? { name, points } : { name, points, detail });
  };
  add('title', Math.min(SIGNALS.titleCap, SIGNALS.titlePerTerm * input.titleTerms.length), input.titleTerms.join(', '));
  if (input.sameWorkspace) add('workspace', SIGNALS.workspace);
  add('summary', Math.min(SIGNALS.summaryCap, SIGNALS.summaryPerTerm * input.summaryTerms.length), input.summaryTerms.join(', '));
  add('transcript', Math.min(SIGNALS.transcriptCap, SIGNALS.transcriptPerTerm * input.transcriptTerms.length), input.transcriptTerms.join(', '));
  const age = input.ageDays;
  if (age !== null && age < 7) add('recent', SIGNALS.recent7, `${Math.floor(age)}d`);
  else if (age !== null && age < 30) add('recent', SIGNALS.recent30, `${Math.floor(age)}d`);
  return { score: signals.reduce((s, x) => s + x.points, 0), signals };
}

/** Keep those at or above the minimum, best first, at most `max`. */
export function selectSignals(ranked: Ranked[], max: number = SIGNALS.maxListed): Ranked[] {
  return ranked.filter((r) => r.score >= SIGNALS.minimum).sort(byScoreThenRecent).slice(0, max);
}

/** The seed matches at most this many terms (the bit masks of store/search.ts fieldMasks). */
const MAX_TERMS = 30;

const bitsOf = (mask: number, keys: readonly string[]) => keys.filter((_, i) => mask & (2 ** i));

export const signalsStrategy: Strategy = {
  name: 'signals',
  suggest(ctx) {
    if (!ctx.clauses.length) return { ranked: [], reason: 'no terms left after stop words' };
    const infos = clauseInfos(ctx.search, ctx.clauses)
      .filter((i) => i.df > 0)
      .slice(0, MAX_TERMS);
    if (!infos.length) return { ranked: [], reason: 'no term of the message occurs in the index' };
    const keys = infos.map((i) => i.key);
    // The transcript probe reads the entries only: a term found in the title alone scores the title's
    // +5 and nothing more (conversation_terms also holds title and summary, and counted it twice).
    const terms = infos.map((i): FieldTerm => {
      const c = [i.clause];
      return { title: matchAll(c, { columns: ['title'] })!, summary: matchAll(c, { columns: ['summary'] })!, entries: clauseMatch(i.clause) };
    });
    const ranked: Ranked[] = [];
    let best = 0;
    for (const row of ctx.search.fieldMasks(terms, ctx.bounds)) {
      const { score, signals } = scoreSignals({
        titleTerms: bitsOf(row.title, keys),
        summaryTerms: bitsOf(row.summary, keys),
        transcriptTerms: bitsOf(row.transcript, keys),
        sameWorkspace: sameWorkspace(row.workspace, ctx.workspace),
        ageDays: ageDays(row.updated_at, ctx.now),
      });
      best = Math.max(best, score);
      if (score >= SIGNALS.minimum) ranked.push({ id: row.id, score, signals, updatedAt: row.updated_at });
    }
    const kept = selectSignals(ranked);
    const reason = kept.length
      ? `${kept.length} conversation(s) scored at least ${SIGNALS.minimum}`
      : `no conversation reached the minimum score ${SIGNALS.minimum} (best ${best})`;
    return { ranked: kept, reason };
  },
};
