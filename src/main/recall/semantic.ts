// Meaning, not only words: soft matches for the words of a message that this person's history does
// not use.
//
// When a word of the message is (almost) absent from the person's own conversations, those
// conversations, if they were about the same thing, must have said it another way: "sluggish" where
// they wrote "slow", "huge" where they wrote "big". For such a word the general-English prior
// (word-neighbors.ts) proposes its nearest words, and the person's corpus decides which count: only
// neighbours their conversations actually use. That gate is what keeps the general senses out — GloVe
// puts "flaky" next to "buttery" and "broker" next to "brokerage", which nobody's coding history
// contains. A word the corpus already knows is matched as itself only: expanding it too made ranking
// worse on both labeled histories (docs/recall-quality.md).
import type { Search } from '../store/search.js';
import { clauseMatch, PARTICLES, type Clause } from './terms.js';
import { wordNeighbors, type WordNeighbors } from './word-neighbors.js';

/** A query word in at most this many conversations is "unknown here" and gets soft matches. */
export const UNKNOWN_DF = 2;
/** Neighbours below this similarity are related but not interchangeable: GloVe puts pins≈markers at
 *  0.53 but also catalog≈store at 0.63 and bottom≈table at 0.65. */
export const MIN_SIMILARITY = 0.65;
/** At most this many soft matches per word: the strongest carry the meaning, the rest add noise. */
export const MAX_ALTERNATES = 5;
/** The thousand most frequent English words ("continue", "site", "keep") are too general to stand
 *  for a subject: their neighbours are other everyday words, matching everything a little. */
export const GENERAL_RANK = 1000;

export interface Alternate {
  /** The corpus word standing in for the message's word. */
  clause: Clause;
  key: string;
  similarity: number;
  /** Conversations containing it. */
  df: number;
}

/** A version-like identifier: letters then a number ("v16", "py312", "node20"). */
const VERSIONED = /^([a-z]+)(\d{1,4})$/;
/** The nearest other versions stand in for one the history never names: v16 for v15, then v14. */
const SIBLING_SIMILARITY = [0.8, 0.7] as const;

/**
 * Stand-ins for a version the history does not name: the same identifier with the nearest other
 * numbers it does ("roll out v16 like the last one" means the conversation about v15), earlier ones
 * first on a tie, as the message is more often about what follows earlier work.
 */
export function versionSiblings(search: Search, clause: Clause, df: number, maxDf: number): Alternate[] {
  if (df > 0 || clause.quoted || clause.prefix || clause.tokens.length !== 1) return [];
  const m = VERSIONED.exec(clause.tokens[0]!);
  if (!m) return [];
  const [, name, digits] = m;
  const wanted = Number(digits);
  const siblings = search
    .termsBetween(`${name}0`, `${name}:`, 1_000)
    .flatMap((t) => {
      const v = VERSIONED.exec(t.term);
      return v && v[1] === name && Number(v[2]) !== wanted && t.doc <= maxDf ? [{ term: t.term, df: t.doc, distance: Math.abs(Number(v[2]) - wanted), earlier: Number(v[2]) < wanted }] : [];
    })
    .sort((a, b) => a.distance - b.distance || Number(b.earlier) - Number(a.earlier))
    .slice(0, SIBLING_SIMILARITY.length);
  return siblings.map((sib, i) => ({
    clause: { tokens: [sib.term], prefix: false, quoted: false, source: sib.term },
    key: sib.term,
    similarity: SIBLING_SIMILARITY[i]!,
    df: sib.df,
  }));
}

/**
 * Soft matches for one clause: a plain word (no phrase, prefix or quotes) in at most UNKNOWN_DF
 * conversations, whose close neighbours this corpus contains.
 */
export function alternatesFor(search: Search, clause: Clause, df: number, maxDf: number, table: WordNeighbors = wordNeighbors()): Alternate[] {
  if (df > UNKNOWN_DF || clause.quoted || clause.prefix || clause.tokens.length !== 1) return [];
  const word = clause.tokens[0]!;
  if (!/^[a-z]{3,}$/.test(word) || (table.rank(word) ?? Infinity) < GENERAL_RANK) return [];
  const [own] = search.stem([word]);
  const out: Alternate[] = [];
  const seen = new Set(own ?? []);
  for (const n of table.of(word)) {
    if (n.similarity < MIN_SIMILARITY || out.length >= MAX_ALTERNATES) break;
    if (seen.has(n.stem)) continue;
    seen.add(n.stem);
    // Stemmed through the search itself (not the table's stem) so that a search confined to a
    // token's workspaces counts the word within them.
    const stem = search.stem([n.word])[0]?.[0] ?? n.stem;
    const altDf = search.termDf(stem);
    // Present, and not everyday vocabulary here (a stand-in in most conversations proves nothing).
    if (altDf < 1 || altDf > maxDf) continue;
    out.push({ clause: { tokens: [n.word], prefix: false, quoted: false, source: n.word }, key: n.word, similarity: n.similarity, df: altDf });
  }
  return out;
}

/** One word written two ways is the same word; a shade below 1 so the reason shows which way matched. */
export const COMPOUND_SIMILARITY = 0.95;

/**
 * The other spelling of a verb and its particle, where the history uses it: "roll out" also matches
 * "rollout", and "rollout", "setup" or "login" also match "roll out", "set up" and "log in". English
 * writes the verb as two words and the noun as one, and a message and the conversation it means often
 * use one each.
 */
export function compoundForms(search: Search, clause: Clause, maxDf: number): Alternate[] {
  if (clause.quoted || clause.prefix || clause.tokens.length !== 1) return [];
  const word = clause.tokens[0]!;
  const forms: Clause[] = [];
  if (clause.particle) forms.push({ tokens: [word + clause.particle], prefix: false, quoted: false, source: word + clause.particle });
  for (const particle of PARTICLES) {
    const head = word.slice(0, -particle.length);
    if (word.endsWith(particle) && /^[a-z]{3,}$/.test(head)) forms.push({ tokens: [head, particle], prefix: false, quoted: false, source: `${head} ${particle}` });
  }
  return forms.flatMap((form) => {
    const df = form.tokens.length === 1 ? search.termDf(search.stem(form.tokens)[0]?.[0] ?? form.tokens[0]!) : search.matchDf(clauseMatch(form, 'none'));
    return df >= 1 && df <= maxDf ? [{ clause: form, key: form.tokens.join(' '), similarity: COMPOUND_SIMILARITY, df }] : [];
  });
}
