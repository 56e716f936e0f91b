// Throughline's default strategy.
//
// It keeps the salient gate's central idea — the floor is on the query and comes from the person's
// own corpus, not a word list — and replaces rank fusion with evidence a person would accept:
// - each term weighs ln(K / df), the information it carries above this corpus's stop-word level
//   (K = 3 × the sensitivity's df ceiling), so everyday vocabulary counts for little and rare names,
//   identifiers and error codes for a lot, whatever the corpus size;
// - where it matched: title 1.5, summary 1.25, transcript 1;
// - corroboration: terms said together (in one message, or in the title) add half their weight again;
// - a mild workspace (×1.2) and recency prior (the gate's half-life, 60 days, toward 0.9): ties go to the
//   nearby and the recent, but an old, strongly matched conversation still wins;
// - admission: the best candidate must be strong, or stand out from the next ones — when many
//   conversations match about equally, the message is in everyday words (new work), not a reference.
//   Others are listed only when close to the best, which keeps precision high.
import { clauseInfos, gatherEvidence } from './evidence.js';
import {
  baseScore,
  DEFAULT_PARAMS,
  evidenceOf,
  recency,
  round2,
  selectDefault,
  termWeight,
  type DefaultParams,
  type Scored,
} from './default-score.js';
import { ageDays, byScoreThenRecent, sameWorkspace, type Strategy, type StrategyContext } from './strategy.js';

export function createDefaultStrategy(p: DefaultParams = DEFAULT_PARAMS): Strategy {
  return {
    name: 'default',
    suggest(ctx: StrategyContext) {
      const k = p.dfScale * ctx.gate.dfCeiling;
      const infos = clauseInfos(ctx.search, ctx.clauses).filter((i) => termWeight(i.df, k) > 0);
      const salientTerms = infos.filter((i) => i.df <= ctx.gate.dfCeiling).map((i) => i.key);
      if (!infos.length) {
        return { ranked: [], reason: `no distinctive term (each is absent or in ${Math.ceil(k)}+ conversations)`, salientTerms };
      }
      const weights = new Map(infos.map((i) => [i.key, termWeight(i.df, k)]));
      const limit = Math.max(...infos.map((i) => i.df));
      const ev = gatherEvidence(ctx.search, infos, ctx.bounds, { entryLevel: true, limit });
      const meta = ctx.search.conversations([...ev.keys()]);
      const scored: Scored[] = [];
      for (const [id, fields] of ev) {
        const row = meta.get(id);
        if (!row) continue;
        const e = evidenceOf(fields, weights, p);
        if (!e.matched.length) continue;
        const ws = sameWorkspace(row.workspace, ctx.workspace);
        const age = ageDays(row.updated_at, ctx.now);
        const rec = recency(age, ctx.gate.halfLifeDays, p);
        const signals = [
          { name: 'terms', points: round2(e.conversation), detail: e.matched.join(', ') },
          { name: 'together', points: round2(p.togetherWeight * e.together), detail: 'said together in one message or the title' },
        ];
        if (ws) signals.push({ name: 'workspace', points: p.workspaceBoost, detail: '×' });
        signals.push({ name: 'recency', points: round2(rec), detail: `× (${age === null ? 'unknown age' : `${Math.floor(age)}d`})` });
        const score = round2(baseScore(e, p) * (ws ? p.workspaceBoost : 1) * rec);
        scored.push({ id, score, signals, updatedAt: row.updated_at });
      }
      scored.sort(byScoreThenRecent);
      const { kept, why } = selectDefault(scored, p, ctx.gate.maxHits);
      const reason = kept.length ? `${kept.length} conversation(s): ${why}` : why;
      return { ranked: kept, reason, salientTerms, meta };
    },
  };
}

export const defaultStrategy: Strategy = createDefaultStrategy();
