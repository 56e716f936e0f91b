// Which words of a text a query matches, as the recall engine matches them (the index's own stems):
// for a transport that shows results to a person, such as the CLI's output on a terminal.
import { createTextMatcher, type TextMatcher } from '../recall/match-text.js';
import { parseQuery } from '../recall/terms.js';
import type { Core } from './core.js';

export type { TextMatcher } from '../recall/match-text.js';

export interface QueryMatchers {
  /** Matches a text with any of the query's terms (for highlighting). */
  any: TextMatcher;
  /** Matches a text with every term. */
  all: TextMatcher;
}

/** The query's matchers; null when it has no term to match (stop words alone are then kept). */
export function queryMatchers(core: Core, query: string): QueryMatchers | null {
  let clauses = parseQuery(query);
  if (!clauses.length) clauses = parseQuery(query, { stopWords: false });
  if (!clauses.length) return null;
  return { any: createTextMatcher(clauses, 'any', core.stem), all: createTextMatcher(clauses, 'all', core.stem) };
}
