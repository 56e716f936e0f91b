// Finding entries inside one conversation, for history_search, conversation_inspect and the
// snippets of recall_conversations. Terms that are not common go through FTS5 (a short doclist,
// ranked by bm25); common terms are matched in memory over the conversation's own entries, because
// FTS5 walks a common word's whole doclist on every query however narrow the bounds
// (see match-text.ts), and bm25 would count it over the whole index.
import type { InConvRow, Search } from '../store/search.js';
import { clauseInfos, splitUbiquitous, type ClauseInfo } from './evidence.js';
import { createTextMatcher } from './match-text.js';
import { matchAll, matchAny, type Clause } from './terms.js';

/** Most entries read in memory for a query of common words only (latest first). */
export const SCAN_MAX = 5_000;
/** Most FTS rows read when common terms still have to filter them. */
const FILTER_POOL = 5_000;

export interface Found {
  rows: InConvRow[];
  /** The in-memory scan stopped at SCAN_MAX entries: older ones were not searched. */
  capped: boolean;
}

export function findInConversation(
  search: Search,
  convId: number,
  clauses: readonly Clause[],
  o: { mode: 'all' | 'any'; before?: number; limit: number; infos?: readonly ClauseInfo[]; n?: number; latestFirst?: boolean },
): Found {
  if (!clauses.length) return { rows: [], capped: false };
  const infos = o.infos ?? clauseInfos(search, clauses);
  if (o.mode === 'all' && infos.some((i) => i.df === 0)) return { rows: [], capped: false };
  const { rare, ubiquitous } = splitUbiquitous(infos, o.n ?? search.totalConversations());
  const before = o.before ?? Number.MAX_SAFE_INTEGER;
  const byFts = o.mode === 'all' ? rare.length > 0 : ubiquitous.length === 0;
  if (byFts) {
    const build = o.mode === 'all' ? matchAll : matchAny;
    const ranked = search.entriesIn(convId, build(rare.map((i) => i.clause))!, { before, limit: ubiquitous.length ? FILTER_POOL : o.limit, ranked: !o.latestFirst });
    if (!ubiquitous.length) return { rows: ranked, capped: false };
    const rest = createTextMatcher(ubiquitous.map((i) => i.clause), 'all', search.stem);
    return { rows: ranked.filter((r) => rest.matches(r.text)).slice(0, o.limit), capped: false };
  }
  // In memory, latest first.
  const matcher = createTextMatcher(infos.map((i) => i.clause), o.mode, search.stem);
  const rows: InConvRow[] = [];
  let from = before;
  let scanned = 0;
  while (rows.length < o.limit && scanned < SCAN_MAX) {
    const page = search.latestEntries(convId, from, 500);
    if (!page.length) return { rows, capped: false };
    for (const r of page) if (rows.length < o.limit && matcher.matches(r.text)) rows.push(r);
    scanned += page.length;
    from = page.at(-1)!.seq;
  }
  return { rows, capped: scanned >= SCAN_MAX && rows.length < o.limit };
}
