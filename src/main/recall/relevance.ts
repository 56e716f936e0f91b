// The relevance model behind `recall_conversations`/`search` and the default suggestion strategy:
// how well each past conversation matches a person's or a model's sentence, with the evidence.
//
// It is BM25 (Robertson & Zaragoza's probabilistic relevance model, with its textbook constants) at
// two grains, summed:
// - the best single message: a conversation is about many things, and the message that discusses
//   the sentence's subject is where its words come together (Σ over terms of FTS5's bm25 for that
//   term in that message);
// - the whole conversation as one document with fields (BM25F): a term in the title counts as
//   three matching messages, in the summary as one and a half, saturating with the number of
//   matching messages and normalized by the conversation's length.
// Every term weighs its inverse document frequency over conversations, so the rare words of a
// sentence decide and its everyday words barely move it: a conversation holding all of a sentence's
// common words cannot outrank one sharing its rare ones. Words the person's history does not use get
// soft matches through semantic.ts, weighted by similarity².
//
// Coverage is the share of the message's information (Σ idf of its terms; a word absent from the
// history counts fully) that a conversation accounts for: what the suggestion gate reads.
import type { Bounds, Search } from '../store/search.js';
import type { ConversationFacts } from '../store/interface.js';
import type { Cues } from './cues.js';
import { alternatesFor, compoundForms, versionSiblings, type Alternate } from './semantic.js';
import { clauseKey, clauseMatch, isIdentifierLike, matchAll, type Clause } from './terms.js';

// A message is scored by FTS5's own bm25 (k1 1.2, b 0.75, the textbook values).
export const K1 = 1.2;
/** Length normalization for a whole conversation: much less than a message's 0.75: its length is mostly how long the session ran and how
 *  verbose the agent was, not how many subjects it covers. */
export const B_CONVERSATION = 0.3;
/** The best message counts half as much as the whole conversation. */
export const MESSAGE_WEIGHT = 0.5;
/** A title match counts as this many matching messages, a summary match as SUMMARY_TF. */
export const TITLE_TF = 3;
export const SUMMARY_TF = 1.5;
/** Terms in more than this share of conversations find no candidates (their idf is below ln 10.5):
 *  they are looked up only in the conversations the others found. */
export const COMMON_SHARE = 0.1;
const COMMON_MIN_N = 200;
/** Most matching entries read per term read on its own (best bm25 first): see readTogether. */
export const ENTRY_LIMIT = 5_000;
/** Most conversations read per term in the title and summary fields together. */
const FIELD_LIMIT = 4_000;

/** BM25's idf in the form that stays positive for a term in most documents (Lucene's). */
export function idf(df: number, n: number): number {
  return Math.log(1 + (n - df + 0.5) / (df + 0.5));
}

/** BM25 term-frequency saturation with length normalization. */
export function saturate(tf: number, length: number, avgLength: number, b: number): number {
  const norm = avgLength > 0 ? length / avgLength : 1;
  return (tf * (K1 + 1)) / (tf + K1 * (1 - b + b * norm));
}

export interface Matcher {
  clause: Clause;
  /** The word as matched (the term itself, or its stand-in). */
  key: string;
  /** 1 for the term itself; the similarity for a soft match. */
  similarity: number;
  df: number;
}

export interface QueryTerm {
  key: string;
  /** The word as the message wrote it, for people ("getThemesDir", not "getthemesdir"). */
  label: string;
  clause: Clause;
  df: number;
  /** idf: this term's share of the message's information. */
  weight: number;
  identifier: boolean;
  /** In more than COMMON_SHARE of conversations: scored only where other terms found candidates. */
  common: boolean;
  /** The term itself first, then its soft matches. */
  matchers: Matcher[];
}

export interface TermMatch {
  term: string;
  /** What matched: the term itself, or a word standing in for it. */
  via: string;
  similarity: number;
  field: 'title' | 'summary' | 'messages';
  /** similarity² × idf of what matched, at most the term's own weight. */
  weight: number;
}

export interface Scored {
  id: number;
  /** BM25 of the best message plus BM25F of the conversation. */
  score: number;
  bestMessage: number;
  conversation: number;
  /** Share of the message's information matched, 0–1. */
  coverage: number;
  matches: TermMatch[];
  /** The best-matching entry (its row id), when a message matched. */
  bestEntry: number | null;
  /** Every query term occurs in it (as itself). */
  allTerms: boolean;
}

/** Parses nothing: turns clauses into weighted terms with their soft matches. */
export function queryTerms(search: Search, clauses: readonly Clause[], cues?: Pick<Cues, 'timeWords'>): QueryTerm[] {
  const n = search.corpusStats().conversations;
  const drop = new Set(cues?.timeWords ?? []);
  const out: QueryTerm[] = [];
  const seenStems = new Set<string>();
  for (const clause of clauses) {
    if (clause.tokens.length === 1 && !clause.quoted && drop.has(clause.tokens[0]!)) continue;
    let df: number;
    const plain = clause.tokens.length === 1 && !clause.prefix;
    const stems = plain ? search.stem(clause.tokens)[0]! : [];
    if (plain && stems.length === 1) {
      // payout and payouts are one term.
      if (seenStems.has(stems[0]!)) continue;
      seenStems.add(stems[0]!);
      df = search.termDf(stems[0]!);
    } else df = search.matchDf(clauseMatch(clause, 'none'));
    const key = clauseKey(clause);
    const maxDf = n >= COMMON_MIN_N ? COMMON_SHARE * n : n;
    const alternates: Alternate[] = [...alternatesFor(search, clause, df, maxDf), ...versionSiblings(search, clause, df, maxDf), ...compoundForms(search, clause, maxDf)];
    out.push({
      key,
      label: clause.quoted ? clause.source : clause.source.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}*]+$/gu, '') || key,
      clause,
      df,
      weight: idf(df, n),
      identifier: isIdentifierLike(clause),
      common: n >= COMMON_MIN_N && df > COMMON_SHARE * n,
      matchers: [{ clause, key, similarity: 1, df }, ...alternates.map((a) => ({ clause: a.clause, key: a.key, similarity: a.similarity, df: a.df }))],
    });
  }
  return out;
}

/** Per conversation: what the terms found in it. */
interface Acc {
  /** Per matcher slot (a term and the word that matched it): the matching messages… */
  tf: Float64Array;
  /** …and whether the title (1) or the agent's summary (2) matched. */
  fields: Uint8Array;
  /** Per term: found as itself somewhere. */
  exact: Uint8Array;
  exactCount: number;
  bestMessage: number;
  bestEntry: number | null;
}

/**
 * Scores every conversation the terms reach within bounds. Returns them unsorted; callers apply
 * their priors and cut.
 */
export function scoreConversations(search: Search, terms: readonly QueryTerm[], bounds: Bounds): Scored[] {
  if (!terms.length) return [];
  const { conversations: n } = search.corpusStats();
  // Common terms find candidates only when nothing else can.
  const finders = terms.some((t) => !t.common && t.df > 0) ? terms.filter((t) => !t.common) : terms;
  // One slot per term and matched word (a word standing in twice for one term shares its slot).
  const slotKeys = new Map<string, number>();
  const slots = terms.map((term, ti) =>
    term.matchers.map((m) => {
      const key = `${ti}:${m.key}`;
      let slot = slotKeys.get(key);
      if (slot === undefined) slotKeys.set(key, (slot = slotKeys.size));
      return slot;
    }),
  );
  const accs = new Map<number, Acc>();
  const acc = (id: number): Acc => {
    let a = accs.get(id);
    if (!a) accs.set(id, (a = { tf: new Float64Array(slotKeys.size), fields: new Uint8Array(slotKeys.size), exact: new Uint8Array(terms.length), exactCount: 0, bestMessage: 0, bestEntry: null }));
    return a;
  };
  const markExact = (a: Acc, ti: number): void => {
    if (a.exact[ti]) return;
    a.exact[ti] = 1;
    a.exactCount++;
  };
  // Each matching message's best contribution per term, one row of `width` values per message: a
  // query reads thousands of messages, and an array and a map per message cost more than the
  // arithmetic. The messages the terms read together find hold the first rows, in their (id) order;
  // others get theirs as first read.
  const width = terms.length;
  // Each candidate's row (bounds, length, summary's origin) read once, however many terms reach it.
  const facts = search.conversationFacts(bounds);
  const together = readTogether(search, terms, finders, facts);
  const shared = together?.entries.length ?? 0;
  const entryRow = new Map<number, number>();
  const entryIds: number[] = together ? together.entries.slice() : [];
  const entryAccs: (Acc | undefined)[] = new Array<Acc | undefined>(shared);
  // Made when a term read on its own first finds a message (every term read together: none, and
  // zeroing 2 × shared rows cost ~1 % of a suggestion).
  let values: Float64Array | null = null;
  const rowOf = (entryId: number, a: Acc): number => {
    values ??= new Float64Array(Math.max(256, 2 * shared) * width);
    const at = together ? together.find(entryId) : -1;
    if (at >= 0) {
      entryAccs[at] = a;
      return at;
    }
    let row = entryRow.get(entryId);
    if (row === undefined) {
      row = entryIds.length;
      entryRow.set(entryId, row);
      entryIds.push(entryId);
      entryAccs.push(a);
      if ((row + 1) * width > values!.length) {
        const grown = new Float64Array(values!.length * 2);
        grown.set(values!);
        values = grown;
      }
    }
    return row;
  };
  terms.forEach((term, ti) => {
    if (!finders.includes(term)) return;
    term.matchers.forEach((m, mi) => {
      if (m.df === 0) return;
      const slot = slots[ti]![mi]!;
      const s2 = m.similarity * m.similarity;
      const exact = m.similarity === 1;
      const match = clauseMatch(m.clause, 'full');
      if (together?.terms.has(ti)) {
        // Read together: which of the term's entries count (and their conversation) is known, their
        // bm25 is in the sum; the ids alone are read here, in the order the term's own query gives them.
        const ids = search.entryIds(match);
        for (let k = 0, at = 0; k < ids.length; k++) {
          // Both lists ascend (FTS5 gives a MATCH's rows by rowid): the term's entries are found by
          // walking the shared rows alongside.
          if (k > 0 && ids[k]! < ids[k - 1]!) at = 0;
          at = together.find(ids[k]!, at);
          if (at < 0) {
            at = -at - 1;
            continue;
          }
          const a = acc(together.owner[at]!);
          entryAccs[at] = a;
          a.tf[slot]!++;
          markExact(a, ti);
        }
      } else {
        for (const [entryId, conversationId, rank] of search.termEntries(match, bounds, ENTRY_LIMIT, facts)) {
          const a = acc(conversationId);
          const at = rowOf(entryId, a) * width + ti;
          values![at] = Math.max(values![at]!, -rank * s2);
          a.tf[slot]!++;
          if (exact) markExact(a, ti);
        }
      }
      const fields = { title: matchAll([m.clause], { columns: ['title'] })!, summary: matchAll([m.clause], { columns: ['summary'] })! };
      for (const f of search.titleOrOwnSummary(fields, facts, FIELD_LIMIT)) {
        const a = acc(f.id);
        a.fields[slot]! |= (f.title ? 1 : 0) | (f.summary ? 2 : 0);
        if (exact) markExact(a, ti);
      }
    });
  });
  if (!accs.size) return [];
  // Common terms, found nowhere above, are looked up only in the candidates: as a whole-conversation
  // match (one message's worth), which is what their small idf can still change.
  const ids = [...accs.keys()];
  terms.forEach((term, ti) => {
    if (finders.includes(term)) return;
    for (const id of search.presenceAmong(clauseMatch(term.clause, 'none'), ids)) {
      const a = accs.get(id)!;
      a.tf[slots[ti]![0]!] = 1;
      markExact(a, ti);
    }
  });
  // Each conversation's best message. Equal scores (the same words in two messages): the earlier
  // message, whatever order the rows came in.
  for (let row = 0; row < entryIds.length; row++) {
    const entryId = entryIds[row]!;
    let s = row < shared ? together!.sum[row]! : 0;
    if (values) for (let at = row * width; at < (row + 1) * width; at++) s += values[at]!;
    const a = entryAccs[row];
    // A message the terms read together found and no term's own walk did: the index changed between
    // the two reads (a live writer removed it). It is left out, as the walks that came later say.
    if (!a) continue;
    if (s > a.bestMessage || (s === a.bestMessage && a.bestEntry !== null && entryId < a.bestEntry)) {
      a.bestMessage = s;
      a.bestEntry = entryId;
    }
  }
  facts.read(ids);
  const avg = search.corpusStats().avgEntries;
  const total = terms.reduce((s, t) => s + t.weight, 0) || 1;
  const out: Scored[] = [];
  for (const [id, a] of accs) {
    const length = facts.get(id)?.length ?? avg;
    let conversation = 0;
    let covered = 0;
    const matches: TermMatch[] = [];
    terms.forEach((term, ti) => {
      let best = 0;
      let match: TermMatch | null = null;
      for (let mi = 0; mi < term.matchers.length; mi++) {
        const m = term.matchers[mi]!;
        const slot = slots[ti]![mi]!;
        const title = (a.fields[slot]! & 1) !== 0;
        const summary = (a.fields[slot]! & 2) !== 0;
        const tf = (title ? TITLE_TF : 0) + (summary ? SUMMARY_TF : 0) + a.tf[slot]!;
        const s2 = m.similarity * m.similarity;
        const value = s2 * idf(m.df, n) * saturate(tf, length, avg, B_CONVERSATION);
        if (value > best) {
          best = value;
          match = { term: term.label, via: m.similarity === 1 ? term.label : m.key, similarity: m.similarity, field: title ? 'title' : summary ? 'summary' : 'messages', weight: Math.min(term.weight, s2 * idf(m.df, n)) };
        }
      }
      conversation += best;
      if (match) {
        covered += match.weight;
        matches.push(match);
      }
    });
    out.push({
      id,
      score: MESSAGE_WEIGHT * a.bestMessage + conversation,
      bestMessage: a.bestMessage,
      conversation,
      coverage: covered / total,
      matches,
      bestEntry: a.bestEntry,
      allTerms: a.exactCount === terms.length,
    });
  }
  return out;
}

/** Terms whose entries are read in one query (see readTogether). */
interface Together {
  /** Their indexes among the terms. */
  terms: Set<number>;
  /** Each entry they find (on the active path, within bounds), ascending… */
  entries: number[];
  /** …its conversation… */
  owner: number[];
  /** …and the sum of their bm25 for it. */
  sum: Float64Array;
  /** Where an entry is among them, searching from `from` on; -(where it would be) - 1 when absent. */
  find(entryId: number, from?: number): number;
}

/**
 * Terms matched only as themselves (no stand-in found anything) are read in one query, an OR of them,
 * when there are two or more: each entry once, with its bm25 for each term added by FTS5 (bm25 of an OR
 * is the sum of the phrases' parts, each the very number the term's own query gives). A topic's words
 * share most of their messages, so an entry is ranked and handed over once instead of once per term.
 * The sum is the one the per-term reading makes, bit for bit, because it is the same floating-point
 * additions in the same order: so only the terms before the first one read on its own are read
 * together. Read together, a term counts with every entry it matches, however many (a term read on its
 * own counts with its best ENTRY_LIMIT): cutting each term to its best ranks every match and sorts them,
 * which cost more than the read (BENCHMARKS.md, stops 26 and 27).
 */
function readTogether(search: Search, terms: readonly QueryTerm[], finders: readonly QueryTerm[], facts: ConversationFacts): Together | null {
  const plain: number[] = [];
  const matches: string[] = [];
  for (let ti = 0; ti < terms.length; ti++) {
    const term = terms[ti]!;
    if (!finders.includes(term)) continue;
    const found = term.matchers.filter((m) => m.df > 0);
    if (!found.length) continue;
    const match = found.length === 1 && found[0]!.similarity === 1 ? clauseMatch(found[0]!.clause, 'full') : null;
    if (match === null) break;
    plain.push(ti);
    matches.push(match);
  }
  if (plain.length < 2) return null;
  const rows = search.entriesMatchingAny(matches, facts);
  if (!rows) return null;
  let ascending = true;
  for (let i = 1; i < rows.length && ascending; i++) ascending = rows[i]![0] > rows[i - 1]![0];
  if (!ascending) rows.sort((x, y) => x[0] - y[0]);
  const entries = new Array<number>(rows.length);
  const owner = new Array<number>(rows.length);
  const sum = new Float64Array(rows.length);
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i]!;
    entries[i] = row[0];
    owner[i] = row[1];
    sum[i] = -row[2];
  }
  const find = (entryId: number, from = 0): number => {
    // Usually the next one or a few on (both walks ascend); else a binary search.
    for (let at = from; at < from + 8 && at < entries.length; at++) {
      if (entries[at] === entryId) return at;
      if (entries[at]! > entryId) return at === from ? -at - 1 : search_(entries, entryId, from, at);
    }
    return search_(entries, entryId, from, entries.length);
  };
  return { terms: new Set(plain), entries, owner, sum, find };
}

/** Binary search for x among xs[lo…hi) (ascending): its index, or -(where it would go) - 1. */
function search_(xs: readonly number[], x: number, lo: number, hi: number): number {
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (xs[mid]! < x) lo = mid + 1;
    else hi = mid;
  }
  return xs[lo] === x ? lo : -lo - 1;
}
