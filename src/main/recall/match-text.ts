// Matching clauses against one entry's text in memory, and cutting a highlighted snippet from it.
//
// Why not FTS5 for this: inside one conversation, a query made only of common words ("code", in
// almost every entry) costs FTS5 a walk of that word's whole doclist however narrow the rowid range,
// and `MATCH … AND rowid = ?` (what snippet() on a chosen row needs) is far worse. A conversation's
// own entries are few, so reading them and matching here costs what the conversation costs, not
// what the index costs. Tokens come from terms.ts and stems from SQLite's own porter (a Stemmer),
// so this agrees with the index on what a term is.
import type { Stemmer } from '../store/search.js';
import { normalizeToken, type Clause } from './terms.js';

const TOKEN_RUN = /[\p{L}\p{N}\p{M}\p{Co}]+/gu;

/** A text's tokens: every token's span, and stems only for those that could match a clause. */
interface Tokens {
  starts: number[];
  ends: number[];
  /** Flattened stems of candidate tokens, in order, with the token index each came from. */
  flat: { stem: string; tok: number }[];
}

// Porter never changes a word's first two characters (it leaves words under three alone and only
// rewrites endings), so only tokens sharing the first two characters with a clause's stem can stem
// to it. Only those are normalized and stemmed: most of a text is never looked at twice.
const head = (s: string) => normalizeToken(s.slice(0, 2));

function tokensOf(text: string, heads: ReadonlySet<string>, stemTokens: Stemmer): Tokens {
  const starts: number[] = [];
  const ends: number[] = [];
  const cand: { norm: string; tok: number }[] = [];
  for (const m of text.matchAll(TOKEN_RUN)) {
    const tok = starts.length;
    starts.push(m.index);
    ends.push(m.index + m[0].length);
    if (heads.has(head(m[0]))) cand.push({ norm: normalizeToken(m[0]), tok });
  }
  const stems = stemTokens(cand.map((c) => c.norm));
  const flat: Tokens['flat'] = [];
  cand.forEach((c, i) => (stems[i]!.length ? stems[i]! : [c.norm]).forEach((stem) => flat.push({ stem, tok: c.tok })));
  return { starts, ends, flat };
}

interface Compiled {
  clause: Clause;
  /** One stem sequence per clause token (flattened when SQLite splits a token). */
  stems: string[];
}

function compile(clauses: readonly Clause[], stemTokens: Stemmer): Compiled[] {
  return clauses.map((clause) => ({ clause, stems: stemTokens(clause.tokens).flat() }));
}

/** Where a clause occurs: first token index and how many tokens it spans. */
function findClause(c: Compiled, t: Tokens): { at: number; span: number }[] {
  const out: { at: number; span: number }[] = [];
  const n = c.stems.length;
  const flat = t.flat;
  for (let i = 0; n > 0 && i + n <= flat.length; i++) {
    let ok = true;
    for (let j = 0; j < n && ok; j++) {
      const f = flat[i + j]!;
      // A phrase's tokens are adjacent in the text (the same token, when SQLite split it).
      if (j > 0 && f.tok - flat[i + j - 1]!.tok > 1) ok = false;
      else {
        const want = c.stems[j]!;
        // A prefix matches the start of the stored (stemmed) token. FTS5 stems the prefix itself too
        // ("pay*" is "pai*", which "payouts" → "payout" does not start with): so does this.
        ok = j === n - 1 && c.clause.prefix ? f.stem.startsWith(want) : f.stem === want;
      }
    }
    if (ok) out.push({ at: flat[i]!.tok, span: flat[i + n - 1]!.tok - flat[i]!.tok + 1 });
  }
  return out;
}

export interface TextMatcher {
  /** Keys (index in the clause list) of the clauses the text contains. */
  matched(text: string): Set<number>;
  /** Every clause (mode all) or any clause (mode any) is in the text. */
  matches(text: string): boolean;
  /** A window of about `tokens` words around the first match, matched words wrapped in open/close. */
  snippet(text: string, o?: { open?: string; close?: string; tokens?: number }): string;
}

export function createTextMatcher(clauses: readonly Clause[], mode: 'all' | 'any', stem: Stemmer): TextMatcher {
  const compiled = compile(clauses, stem);
  const heads = new Set(compiled.flatMap((c) => [...c.stems, ...c.clause.tokens].map(head)));
  const hitsOf = (tokens: Tokens) => compiled.map((c) => findClause(c, tokens));
  const matched = (text: string) => new Set(hitsOf(tokensOf(text, heads, stem)).flatMap((h, i) => (h.length ? [i] : [])));
  return {
    matched,
    matches(text) {
      const found = matched(text).size;
      return mode === 'all' ? found === compiled.length && found > 0 : found > 0;
    },
    snippet(text, o = {}) {
      const open = o.open ?? '';
      const close = o.close ?? '';
      const width = o.tokens ?? 24;
      const tokens = tokensOf(text, heads, stem);
      const count = tokens.starts.length;
      const marked = new Set<number>();
      for (const h of hitsOf(tokens)) for (const { at, span } of h) for (let k = 0; k < span; k++) marked.add(at + k);
      if (!count) return text.slice(0, width * 8);
      const first = marked.size ? Math.min(...marked) : 0;
      const from = Math.max(0, Math.min(first - Math.floor(width / 4), count - width));
      const to = Math.min(count, from + width);
      let out = from > 0 ? '…' : '';
      let pos = tokens.starts[from]!;
      for (let i = from; i < to; i++) {
        const start = tokens.starts[i]!;
        const end = tokens.ends[i]!;
        out += text.slice(pos, start);
        const word = text.slice(start, end);
        out += marked.has(i) ? `${open}${word}${close}` : word;
        pos = end;
      }
      if (to < count) out += '…';
      else out += text.slice(pos);
      return out;
    },
  };
}
