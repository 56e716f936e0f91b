// Search snippets arrive as plain text with highlight markers around the matched terms. They are
// rendered as React text nodes (so every character is escaped) with the marked parts in <mark>:
// escape first, then mark, never the other way round.
import type { ReactNode } from 'react';
import { stripMarkdown } from './plain';

/**
 * The markers the store's FTS5 snippet() puts around matched terms (src/main/store/search.ts).
 * They are markdown's bold too, so a snippet of a bold phrase carries the same markers: given the
 * query's words, only marked text that shares one of them is highlighted (see `matchesQuery`).
 */
const MARKERS: readonly [string, string][] = [['**', '**']];

const wordsOf = (s: string) => s.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((w) => w.length > 0);

/** A marked word matches a query word when one starts with the other (the index stems: rounding ~ round). */
export function matchesQuery(marked: string, query: string): boolean {
  const terms = wordsOf(query);
  return wordsOf(marked).some((w) => terms.some((t) => w.startsWith(t) || (t.startsWith(w) && w.length >= 3)));
}

export function snippetSegments(snippet: string): { text: string; marked: boolean }[] {
  const pair = MARKERS.find(([open, close]) => snippet.includes(open) && snippet.indexOf(close, snippet.indexOf(open) + open.length) >= 0);
  if (!pair) return [{ text: snippet, marked: false }];
  const [open, close] = pair;
  const out: { text: string; marked: boolean }[] = [];
  let at = 0;
  while (at < snippet.length) {
    const start = snippet.indexOf(open, at);
    const end = start < 0 ? -1 : snippet.indexOf(close, start + open.length);
    if (start < 0 || end < 0) {
      out.push({ text: snippet.slice(at), marked: false });
      break;
    }
    if (start > at) out.push({ text: snippet.slice(at, start), marked: false });
    out.push({ text: snippet.slice(start + open.length, end), marked: true });
    at = end + close.length;
  }
  return out.filter((s) => s.text.length > 0);
}

/** The snippet as plain text (markdown syntax stripped from each part), its matched words marked. */
export function Snippet({ text, query }: { text: string; query?: string }): ReactNode {
  return snippetSegments(text).map((s, i) => {
    const plain = stripMarkdown(s.text);
    return s.marked && (query === undefined || matchesQuery(s.text, query)) ? <mark key={i}>{plain.trim()}</mark> : <span key={i}>{plain}</span>;
  });
}
