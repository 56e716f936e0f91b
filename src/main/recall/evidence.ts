// Gathers, per query clause and per conversation, where the clause matched: the data the pure
// scorers work on. All reads go through store/search.ts with the caller's bounds in SQL.
import type { Bounds, Search } from '../store/search.js';
import { clauseKey, clauseMatch, isIdentifierLike, matchAll, type Clause } from './terms.js';

export interface ClauseInfo {
  key: string;
  clause: Clause;
  /** Conversations containing the clause (exact for plain terms via fts5vocab; for phrases and
   *  prefixes, conversations containing all of its tokens). */
  df: number;
  identifier: boolean;
}

/** Resolves df for each clause and merges clauses that stem to the same term (payout, payouts). */
export function clauseInfos(search: Search, clauses: readonly Clause[]): ClauseInfo[] {
  const out: ClauseInfo[] = [];
  const seenStems = new Set<string>();
  const plain = clauses.filter((c) => c.tokens.length === 1 && !c.prefix);
  const stems = search.stem(plain.map((c) => c.tokens[0]!));
  const stemOf = new Map(plain.map((c, i) => [c, stems[i]!]));
  for (const clause of clauses) {
    const st = stemOf.get(clause);
    let df: number;
    if (st && st.length === 1) {
      if (seenStems.has(st[0]!)) continue;
      seenStems.add(st[0]!);
      df = search.termDf(st[0]!);
    } else {
      df = search.matchDf(clauseMatch(clause, 'none'));
    }
    out.push({ key: clauseKey(clause), clause, df, identifier: isIdentifierLike(clause) });
  }
  return out;
}

/**
 * Terms in more than this share of conversations are "common" here: they are neither read term by
 * term (their match sets are much of the index, their idf is small) nor ranked by with bm25 (which
 * counts each term over the whole index on every query: a doclist walk as long as the term is
 * common). They still filter: every term stays required. Small indexes treat every term alike.
 */
export const COMMON_SHARE = 0.05;
const COMMON_MIN_N = 200;

/** Splits clauses into those in at most `share` of the conversations and the common rest. */
export function splitUbiquitous(infos: readonly ClauseInfo[], n: number, share: number = COMMON_SHARE): { rare: ClauseInfo[]; ubiquitous: ClauseInfo[] } {
  if (n < COMMON_MIN_N) return { rare: [...infos], ubiquitous: [] };
  return { rare: infos.filter((i) => i.df <= share * n), ubiquitous: infos.filter((i) => i.df > share * n) };
}

export interface FieldMatch {
  title: boolean;
  summary: boolean;
  /** Anywhere in the conversation's indexed text (title, summary, transcript). */
  transcript: boolean;
  /** Matching entries (on the active path), when entry-level evidence was gathered. */
  entryHits: number;
  /** Ids of matching entries (capped), for co-occurrence. */
  entries: number[];
}

export type Evidence = Map<number, Map<string, FieldMatch>>;

export interface GatherOptions {
  /** Rank entries per clause (bm25, hit counts, co-occurrence). Costs one entry scan per clause. */
  entryLevel: boolean;
  /** Most conversations returned per clause and field. */
  limit: number;
  /** Most entries read per clause when entryLevel. */
  entryLimit?: number;
}

function slot(ev: Evidence, id: number, key: string): FieldMatch {
  let m = ev.get(id);
  if (!m) ev.set(id, (m = new Map()));
  let f = m.get(key);
  if (!f) m.set(key, (f = { title: false, summary: false, transcript: false, entryHits: 0, entries: [] }));
  return f;
}

export function gatherEvidence(search: Search, infos: readonly ClauseInfo[], bounds: Bounds, options: GatherOptions): Evidence {
  const ev: Evidence = new Map();
  for (const info of infos) {
    const c = [info.clause];
    for (const id of search.fieldMatches(matchAll(c, { columns: ['title'] })!, bounds, options.limit)) slot(ev, id, info.key).title = true;
    for (const id of search.fieldMatches(matchAll(c, { columns: ['summary'] })!, bounds, options.limit)) slot(ev, id, info.key).summary = true;
    const phrase = info.clause.tokens.length > 1;
    if (options.entryLevel || phrase) {
      // Phrases need positions: conversation_terms (detail=none) can only say "all tokens somewhere".
      for (const h of search.entryHits(clauseMatch(info.clause, 'full'), bounds, options.entryLimit ?? 5000)) {
        const f = slot(ev, h.conversationId, info.key);
        f.transcript = true;
        f.entryHits++;
        if (f.entries.length < 200) f.entries.push(h.entryId);
      }
      for (const [, m] of ev) {
        const f = m.get(info.key);
        if (f && (f.title || f.summary)) f.transcript = true;
      }
    } else {
      for (const id of search.presence(clauseMatch(info.clause, 'none'), bounds, options.limit)) slot(ev, id, info.key).transcript = true;
    }
  }
  return ev;
}
