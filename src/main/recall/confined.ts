// Recall for a caller limited to some workspaces (a limited token): every statistic it is given, or
// that shapes what it is given, is counted inside its bounds. With index-wide counts a term's
// salience (so `salientTerms`, the reason) and the scores would tell it which words occur in
// workspaces it may not see.
import type { Bounds, Search } from '../store/search.js';

/** The largest result a bounded count reads; a limited workspace holds far fewer conversations. */
const COUNT_LIMIT = 1_000_000;

/** A plain token as an FTS5 string literal (the tokenizer stems it exactly as the index did). */
const literal = (token: string) => `"${token.replace(/"/g, '""')}"`;

/** FTS5's bm25 idf for a phrase found in `hits` of `rows` rows (with its floor for very common phrases). */
function idf(rows: number, hits: number): number {
  const v = Math.log((rows - hits + 0.5) / (hits + 0.5));
  return v > 1e-6 ? v : 1e-6;
}

/** `search` with document frequencies, N and bm25's term weight counted over `bounds` only. */
export function confineSearch(search: Search, bounds: Bounds): Search {
  // termDf is asked for a stem, which is not itself a query token (stemming is not idempotent):
  // the token that stemmed to it is remembered from stem(), which clauseInfos calls first.
  const tokenOf = new Map<string, string>();
  const count = (match: string) => search.presence(match, bounds, COUNT_LIMIT).length;
  return {
    ...search,
    stem: (tokens) => {
      const stems = search.stem(tokens);
      tokens.forEach((t, i) => {
        const only = stems[i];
        if (only?.length === 1) tokenOf.set(only[0]!, t);
      });
      return stems;
    },
    totalConversations: () => search.conversationsIn(bounds),
    corpusStats: () => search.corpusStatsIn(bounds),
    termDf: (stem) => {
      const token = tokenOf.get(stem);
      return token === undefined ? 0 : count(literal(token));
    },
    matchDf: (match) => count(match),
    // Indexed terms as stored (stems); only version-like identifiers are asked for, which the
    // tokenizer keeps as they are, so each is its own query token. Counted, and kept, within bounds.
    termsBetween: (from, to, limit) =>
      search
        .termsBetween(from, to, limit)
        .map((t) => ({ term: t.term, doc: count(literal(t.term)) }))
        .filter((t) => t.doc > 0),
    // bm25() of a one-phrase MATCH is the phrase's idf over the whole table times a part that depends
    // on the entry alone (and on the mean entry length, which says nothing about any word): the idf
    // is swapped for the one within bounds.
    termEntries: (match, b, limit) => {
      const rows = search.termEntries(match, b, limit);
      if (!rows.length) return rows;
      const all = search.entryCounts(match, null);
      const own = search.entryCounts(match, bounds);
      const scale = idf(own.rows, own.hits) / idf(all.rows, all.hits);
      return rows.map(([entryId, conversationId, rank]) => [entryId, conversationId, rank * scale]);
    },
    // bm25 of an OR is the sum of the terms' parts, each with its index-wide idf, which no one scale
    // can swap for the ones within bounds: the terms are read one by one, through termEntries above.
    entriesMatchingAny: () => null,
  };
}
