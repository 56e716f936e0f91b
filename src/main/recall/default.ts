// Throughline's default suggestion strategy.
//
// Ranking is the relevance model of relevance.ts (BM25 over the best message and the whole
// conversation, soft matches for words the history does not use), times two priors a person would
// apply themselves: the same workspace (repository) is likelier to be meant, and so is recent work.
// A message that points back ("again", "like last time", "that … thing") leans on both priors more,
// and one that names a time ("in June", "last week") favours conversations active then (cues.ts).
//
// Most first messages are about new work, and the right answer is then to suggest nothing. BM25 is a
// ranking function, not a relevance test, so the gate reads something else: coverage, the share of
// the message's information (Σ idf of its words, where a word the history never uses counts fully)
// that a conversation accounts for. A message that refers to earlier work shares most of what it is
// about with that work; new work in familiar words shares a few familiar words with many
// conversations and its own new words with none. The bar is one share of the message, not a score,
// so it means the same in a history of 100 conversations or 50,000; it moves with the sensitivity,
// and a message that points back needs less of it (it says little besides "that one"). Such a
// message also says an earlier conversation exists: its best match is shown whatever it covers (the
// best two when it asks what was done), marked in the reason as a guess.
import { calendarDaysAgo, startOfDay } from '../../shared/age.js';
import type { Sensitivity, Signal } from '../../shared/api.js';
import type { ConversationMetaRow } from '../store/search.js';
import { activeIn, readCues, type Cues } from './cues.js';
import { informationOf, machineOutputKeys, outputAwareCoverage } from './information.js';
import { workspaceNamer } from './named-workspace.js';
import { queryTerms, scoreConversations, type QueryTerm, type Scored } from './relevance.js';
import { ageDays, byScoreThenRecent, sameWorkspace, type Ranked, type Strategy, type StrategyContext } from './strategy.js';

export interface DefaultParams {
  /** Coverage admitted on its own, per sensitivity. */
  coverage: Readonly<Record<Sensitivity, number>>;
  /** Less coverage (this much less) is admitted when the conversation also stands out … */
  partial: number;
  /** … scoring at least this many times the conversation at rank `background`. */
  standout: number;
  background: number;
  /** How much less coverage a message that points back needs. */
  backReferenceRelief: number;
  /**
   * A message that points back says an earlier conversation exists: its best matches are shown even
   * when they cover little of it (the best one; the best two when it asks what was done), unless the
   * sensitivity is Focused.
   */
  guesses: { backReference: number; asksPast: number };
  /**
   * A back-reference without a question guesses only for a short message (at most this many words
   * after stop words: "the flaky test is back"); a long one has words enough to be judged by them.
   */
  shortMessage: number;
  /** Admission looks at this many of the best-ranked conversations. */
  pool: number;
  /** Others are listed only when they score at least this share of the first listed. */
  relativeCutoff: number;
  workspaceBoost: number;
  backReferenceWorkspaceBoost: number;
  /** Recency: floor + (1 − floor) · 2^(−age / half-life); the gate's half-life (60 days unless pinned). */
  recencyFloor: number;
  /** A message that points back: recent work counts for more (half the half-life, a lower floor). */
  backReferenceFloor: number;
  /** A conversation active in the period the message names. */
  periodBoost: number;
  /** Ranked candidates the priors are applied to (the rest cannot reach the top). */
  candidates: number;
}

// Each constant is a round value with a reading a person can check, not a fit: two thirds of the
// message's information on its own (more when focused, less when broad), or half of it when the
// conversation also scores 2.5 times what the tenth-best does (it is not one of many partial
// matches); a message that points back needs 15 points less; a match in the same workspace counts a
// fifth more; old work keeps 80 % of its score; a stated period or a back-reference counts half
// again. docs/recall-quality.md shows both labeled histories on a plateau around them.
export const DEFAULT_PARAMS: DefaultParams = {
  coverage: { focused: 0.75, balanced: 0.65, broad: 0.55 },
  partial: 0.15,
  standout: 2.5,
  background: 10,
  backReferenceRelief: 0.15,
  guesses: { backReference: 1, asksPast: 2 },
  shortMessage: 6,
  pool: 5,
  relativeCutoff: 0.75,
  workspaceBoost: 1.2,
  backReferenceWorkspaceBoost: 1.5,
  recencyFloor: 0.8,
  backReferenceFloor: 0.5,
  periodBoost: 1.5,
  candidates: 200,
};

export interface Prior {
  factor: number;
  /** Each prior's own factor (1 when it does not apply). */
  workspace: number;
  /** The workspace prior applies because the message names this conversation's project. */
  named: boolean;
  period: number;
  recency: number;
  age: number | null;
}

/** The priors for one conversation. */
export function priorOf(row: Pick<ConversationMetaRow, 'workspace' | 'created_at' | 'updated_at'>, ctx: { workspace: string | null; now: number; halfLifeDays: number; names?: (workspace: string | null) => boolean }, cues: Cues, p: DefaultParams): Prior {
  const back = cues.backReference;
  const same = sameWorkspace(row.workspace, ctx.workspace);
  const named = !same && (ctx.names?.(row.workspace) ?? false);
  const workspace = same || named;
  const age = ageDays(row.updated_at, ctx.now);
  const floor = back ? p.backReferenceFloor : p.recencyFloor;
  const halfLife = back ? ctx.halfLifeDays / 2 : ctx.halfLifeDays;
  const recency = age === null ? floor : floor + (1 - floor) * Math.pow(0.5, age / halfLife);
  const inPeriod = cues.period !== null && activeIn(cues.period, row.created_at, row.updated_at);
  const ws = workspace ? (back ? p.backReferenceWorkspaceBoost : p.workspaceBoost) : 1;
  const period = inPeriod ? p.periodBoost : 1;
  return { factor: recency * ws * period, workspace: ws, named, period, recency, age };
}

export interface Candidate extends Scored {
  final: number;
  prior: Prior;
  updatedAt: number | null;
}

/** How many of the best-ranked are shown whatever their coverage (the message says one exists). */
export function guessesFor(sensitivity: Sensitivity, cues: Cues, p: DefaultParams, words: number): number {
  if (sensitivity === 'focused') return 0;
  if (cues.asksPast) return p.guesses.asksPast;
  return cues.backReference && words <= p.shortMessage ? p.guesses.backReference : 0;
}

/** The least coverage admitted for this message. */
export function coverageBar(sensitivity: Sensitivity, cues: Cues, p: DefaultParams): number {
  return p.coverage[sensitivity] - (cues.backReference ? p.backReferenceRelief : 0);
}

const pct = (x: number) => `${Math.round(x * 100)} %`;

/**
 * The most coverage any conversation can have: the share of the message's information in words
 * (or stand-ins) the history contains at all. Known before anything is scored.
 */
export function coverageCeiling(terms: readonly QueryTerm[]): number {
  const total = terms.reduce((s, t) => s + t.weight, 0) || 1;
  return terms.reduce((s, t) => (t.matchers.some((m) => m.df > 0) ? s + t.weight : s), 0) / total;
}

/**
 * Which of the ranked candidates (best first) to list, and why, in a person's words. The first
 * `guesses` are admitted whatever their coverage; like every other, a guess is listed only close to
 * the first (which, when there are guesses, is the best).
 */
export function selectSuggestions<T extends Candidate>(sorted: readonly T[], bar: number, p: DefaultParams, maxHits: number, guesses = 0): { kept: T[]; reason: string; detail: string } {
  const pool = sorted.slice(0, p.pool);
  const floor = sorted[p.background - 1]?.final ?? 0;
  const covers = (c: T) => c.coverage >= bar || (c.coverage >= bar - p.partial && c.final >= p.standout * floor);
  const admitted = pool.filter((c, i) => covers(c) || i < guesses);
  const bestCoverage = Math.max(0, ...pool.map((c) => c.coverage));
  if (!admitted.length) {
    const reason = sorted.length
      ? 'Nothing suggested: no earlier conversation covers enough of this message.'
      : 'Nothing suggested: no earlier conversation shares its words.';
    return { kept: [], reason, detail: `best coverage ${pct(bestCoverage)} of the message; ${pct(bar)} needed` };
  }
  const first = admitted[0]!.final;
  const kept = admitted.filter((c) => c.final >= first * p.relativeCutoff).slice(0, maxHits);
  const reason = !kept.every(covers)
    ? `The message points back at earlier work; ${kept.length === 1 ? 'this is the closest match' : `these are the ${kept.length} closest matches`}, though ${kept.length === 1 ? 'it shares' : 'they share'} few of its words.`
    : kept.length === 1 ? 'One earlier conversation covers most of this message.' : `${kept.length} earlier conversations cover most of this message.`;
  return { kept, reason, detail: `coverage ${kept.map((c) => pct(c.coverage)).join(', ')}; ${pct(bar)} needed` };
}

const round2 = (x: number): number => Math.round(x * 100) / 100;

/** By calendar days, as the window and the CLI count them (src/shared/age.ts), not 24-hour periods. */
function ageText(updatedAt: number | null, now: number): string {
  if (updatedAt === null) return 'date unknown';
  const d = calendarDaysAgo(updatedAt, startOfDay(now));
  return d === 0 ? 'today' : d === 1 ? 'yesterday' : `${d} days ago`;
}

/** Signals whose points add up to the score: the words, their stand-ins, then each prior's effect. */
export function signalsOf(c: Candidate, cues: Cues, now: number): Signal[] {
  const exact = c.matches.filter((m) => m.similarity === 1);
  const soft = c.matches.filter((m) => m.similarity < 1);
  const mass = c.matches.reduce((s, m) => s + m.weight, 0) || 1;
  const softShare = soft.reduce((s, m) => s + m.weight, 0) / mass;
  const signals: Signal[] = [];
  if (exact.length) {
    const words = exact.map((m) => `${m.term}${m.field === 'messages' ? '' : ` (${m.field})`}`).join(', ');
    signals.push({ name: 'terms', points: round2(c.score * (1 - softShare)), detail: words });
  }
  if (soft.length) signals.push({ name: 'similar', points: round2(c.score * softShare), detail: soft.map((m) => `${m.via} ≈ ${m.term}`).join(', ') });
  let running = c.score;
  const step = (name: string, factor: number, detail: string) => {
    const next = running * factor;
    signals.push({ name, points: round2(next - running), detail });
    running = next;
  };
  if (c.prior.workspace !== 1) step('workspace', c.prior.workspace, c.prior.named ? 'the workspace the message names' : 'same workspace');
  if (c.prior.period !== 1 && cues.period) step('time', c.prior.period, `active ${cues.period.label}`);
  step('recency', c.prior.recency, ageText(c.updatedAt, now));
  return signals;
}

export function createDefaultStrategy(p: DefaultParams = DEFAULT_PARAMS): Strategy {
  return {
    name: 'default',
    suggest(ctx: StrategyContext) {
      const cues = readCues(ctx.text, ctx.now);
      // The gate's share of the message: pasted program output counts only as evidence (information.ts).
      const machine = machineOutputKeys(ctx.text);
      const terms = queryTerms(ctx.search, ctx.clauses, cues).map((t) => ({ ...t, weight: informationOf(t, machine) }));
      // The message's distinctive words are the person's: none printed only by a program.
      const salientTerms = terms.filter((t) => t.df >= 1 && !t.common && !machine.has(t.key)).map((t) => t.key);
      const bar = coverageBar(ctx.sensitivity, cues, p);
      const guesses = guessesFor(ctx.sensitivity, cues, p, terms.length);
      // Most messages are new work, and most of those mention something the history never does: when
      // even a conversation holding every known word could not be admitted, nothing is scored (the
      // scoring of a message made of everyday words reads most of the index).
      const ceiling = coverageCeiling(terms);
      if (ceiling < bar - p.partial && guesses === 0) {
        const reason = ceiling > 0 ? 'Nothing suggested: no earlier conversation covers enough of this message.' : 'Nothing suggested: no earlier conversation shares its words.';
        return { ranked: [], reason, detail: `best coverage at most ${pct(ceiling)} of the message; ${pct(bar)} needed`, salientTerms, meta: new Map() };
      }
      const scored = scoreConversations(ctx.search, terms, ctx.bounds)
        .sort((a, b) => b.score - a.score)
        .slice(0, p.candidates);
      const places = ctx.search.conversationPlaces(scored.map((s) => s.id));
      const names = workspaceNamer(ctx.text);
      const candidates: Candidate[] = [];
      for (const s of scored) {
        const row = places.get(s.id);
        if (!row) continue;
        const prior = priorOf(row, { workspace: ctx.workspace, now: ctx.now, halfLifeDays: ctx.gate.halfLifeDays, names }, cues, p);
        // The scored object itself, its three fields added (a copy of 200 of them per call cost ~3 % of a suggestion).
        const c = s as Candidate;
        c.final = s.score * prior.factor;
        c.prior = prior;
        c.updatedAt = row.updated_at;
        candidates.push(c);
      }
      const coverageOfSaid = outputAwareCoverage(terms, machine);
      if (coverageOfSaid) for (const c of candidates) c.coverage = coverageOfSaid(c);
      candidates.sort((a, b) => b.final - a.final || (b.updatedAt ?? 0) - (a.updatedAt ?? 0) || b.id - a.id);
      const { kept, reason, detail } = selectSuggestions(candidates, bar, p, ctx.gate.maxHits, guesses);
      const ranked: Ranked[] = kept.map((c) => ({ id: c.id, score: round2(c.final), signals: signalsOf(c, cues, ctx.now), updatedAt: c.updatedAt }));
      ranked.sort(byScoreThenRecent);
      // The suggested conversations' rows are read by the caller (only those few need them whole).
      return { ranked, reason, detail, salientTerms };
    },
  };
}

export const defaultStrategy: Strategy = createDefaultStrategy();
