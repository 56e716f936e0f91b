// Recall for a caller limited to some workspaces (a limited token): every statistic it is given, or
// that shapes what it is given, is counted inside its bounds. With index-wide document frequencies a
// term's salience, and so `salientTerms`, scores and the reason, would tell it which words occur in
// workspaces it may not see.
import type { Bounds, Search } from '../store/search.js';

/** The largest result a bounded count reads; a limited workspace holds far fewer conversations. */
const COUNT_LIMIT = 1_000_000;

/** A plain token as an FTS5 string literal (the tokenizer stems it exactly as the index did). */
const literal = (token: string) => `"${token.replace(/"/g, '""')}"`;

/** `search` with document frequencies and N counted over `bounds` only. */
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
    corpusStats: () => ({ ...search.corpusStats(), conversations: search.conversationsIn(bounds) }),
    termDf: (stem) => {
      const token = tokenOf.get(stem);
      return token === undefined ? 0 : count(literal(token));
    },
    matchDf: (match) => count(match),
  };
}
