// The one tokenizer for queries, and the ONLY producer of FTS5 MATCH strings.
//
// Tokens mirror FTS5's unicode61 (schema.ts TOKENIZE): a token is a run of letters, numbers, combining
// marks and private-use characters; everything else separates. (One known difference: SQLite's tables
// are Unicode 6.1, so it keeps symbols assigned later, like 🙂, inside a token; here they separate.) Tokens are lowercased and
// diacritics removed character by character as remove_diacritics 2 does (fold-table.ts). Stemming is left to FTS5 itself (porter): every token we
// emit is matched through the same tokenizer the index used, and df lookups stem through SQLite too
// (store/search.ts createStemmer), so there is no second, subtly different stemmer to drift.
//
// MATCH strings are never built from raw user or model text. Every token is emitted as an FTS5 string
// ("…", with " doubled), so FTS5 syntax in the input — quotes, *, :, ^, (, ), +, -, NEAR, AND, OR, NOT —
// is matched as literal words or dropped as separators, never interpreted.
import { FOLD } from './fold-table.js';
import { STOP_WORDS } from './stopwords.js';

/** One required unit of a query: a term, a phrase (several tokens in order) or a prefix. */
export interface Clause {
  /** Normalized tokens in order; more than one makes a phrase. */
  tokens: string[];
  /** `term*`: the last token is a prefix. */
  prefix: boolean;
  /** Came from "…" in the input (never dropped as a stop word). */
  quoted: boolean;
  /** The word as typed, for display and for identifier detection. */
  source: string;
  /** The adverb right after a plain word ("roll out", "set up"): the two may be written as one word. */
  particle?: string;
}

/** Adverbs that join the verb before them into one word in English: roll out / rollout, log in / login. */
export const PARTICLES: ReadonlySet<string> = new Set(['out', 'up', 'in', 'off', 'back', 'down', 'over']);

const TOKEN_RUN = /[\p{L}\p{N}\p{M}\p{Co}]+/gu;
// A trailing English contraction or possessive ("type's", "didn't"): unicode61 would split it off as a
// one-letter token that only adds noise to a query.
const CONTRACTION = /(?<=\p{L})['’](s|t|re|ve|ll|d|m)$/iu;

/**
 * Lowercase and strip diacritics character by character exactly as unicode61 with remove_diacritics 2
 * does (fold-table.ts is asked of SQLite): é → e, while й, ё, ά or ø stay, as they do in the index.
 */
export function normalizeToken(token: string): string {
  // Most tokens are ASCII: skip the table (the hot path of in-memory matching).
  if (/^[\x00-\x7f]*$/.test(token)) return token.toLowerCase();
  let out = '';
  for (const ch of token) out += FOLD.get(ch) ?? ch.toLowerCase();
  return out;
}

/** Splits text into normalized tokens exactly where unicode61 would. */
export function tokenize(text: string): string[] {
  return Array.from(text.matchAll(TOKEN_RUN), (m) => normalizeToken(m[0])).filter((t) => t.length > 0);
}

export interface ParseOptions {
  /** Drop stop words and one-letter words (free text from a person or a model). Default true. */
  stopWords?: boolean;
  /** At most this many clauses are kept (first come). Default 256. */
  maxClauses?: number;
}

/**
 * Parses free text into clauses: `"…"` is a phrase (split at an ellipsis inside it); a word with inner punctuation (tx.draft,
 * next/diff.ts, webhook_test.go:212) is a phrase of its tokens; `word*` is a prefix; sentence
 * punctuation around a word ("R6?", "(foo)", "-bar") is dropped.
 */
export function parseQuery(text: string, options: ParseOptions = {}): Clause[] {
  const stop = options.stopWords ?? true;
  const max = options.maxClauses ?? 256;
  const out: Clause[] = [];
  const seen = new Set<string>();
  const push = (c: Clause): boolean => {
    const key = clauseKey(c);
    if (seen.has(key) || out.length >= max) return false;
    seen.add(key);
    out.push(c);
    return true;
  };
  // The plain one-word clause made of the word just read, which a particle may follow.
  let previous: Clause | null = null;
  for (const m of text.matchAll(/["“”„]([^"“”„]*)["“”„]|([^\s"“”„]+)/gu)) {
    const before = previous;
    previous = null;
    if (m[1] !== undefined) {
      // An ellipsis inside quotes marks words left out ("Missing lock for job ... moveToFinished"):
      // each side is a phrase of its own, not one phrase that never occurs.
      for (const part of m[1].split(/\.{3,}|…/u)) {
        const tokens = tokenize(part);
        if (tokens.length) push({ tokens, prefix: false, quoted: true, source: part.trim() });
      }
      continue;
    }
    const word = m[2]!.replace(CONTRACTION, '');
    const tokens = tokenize(word);
    if (!tokens.length) continue;
    // `foo*` (the star right after a token character) is a prefix; a lone or inner * is a separator.
    const prefix = /[\p{L}\p{N}\p{M}\p{Co}]\*+[^\p{L}\p{N}\p{M}\p{Co}]*$/u.test(word);
    if (before && tokens.length === 1 && /^[\p{L}]+[,.;:!?]*$/u.test(word) && PARTICLES.has(tokens[0]!)) before.particle = tokens[0]!;
    const clause: Clause = { tokens, prefix, quoted: false, source: word };
    if (stop && !prefix && isStopClause(tokens)) continue;
    if (push(clause) && tokens.length === 1 && !prefix && /^\p{L}+$/u.test(word)) previous = clause;
  }
  return out;
}

function isStopClause(tokens: string[]): boolean {
  return tokens.every((t) => STOP_WORDS.has(t) || (t.length === 1 && /^[a-z0-9]$/.test(t)));
}

/** A stable identity for a clause (dedupe, maps). */
export function clauseKey(c: Clause): string {
  return c.tokens.join(' ') + (c.prefix ? '*' : '');
}

/**
 * Whether a word looks like an identifier rather than prose: code names (useDebouncedSearch,
 * ledger_reconcile, tx.draft), error codes (ERR_REQUIRE_ESM, 42P05), versions and file:line. These
 * are the words a person copies from earlier work, so they are strong evidence when they match.
 */
export function isIdentifierLike(c: Clause): boolean {
  const s = c.source.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '');
  if (c.tokens.length > 1 && /[._/:\\]/.test(s)) return true;
  if (/\p{L}/u.test(s) && /\p{N}/u.test(s)) return true;
  if (/\p{Ll}\p{Lu}/u.test(s) || /^\p{Lu}{2,}[\p{Lu}\p{N}_]*$/u.test(s)) return true;
  return /_/.test(s);
}

const quote = (token: string): string => `"${token.replace(/"/g, '""')}"`;

/**
 * `full`: a table with positions (entries_fts, conversations_fts), where phrases work.
 * `none`: a detail=none table (conversation_terms), which cannot match phrases: a phrase becomes all
 * of its tokens anywhere in the document, a superset that a full-detail table can then confirm.
 */
export type MatchMode = 'full' | 'none';

export function clauseMatch(c: Clause, mode: MatchMode = 'full'): string {
  const star = c.prefix ? '*' : '';
  if (c.tokens.length === 1) return quote(c.tokens[0]!) + star;
  if (mode === 'full') return quote(c.tokens.join(' ')) + star;
  return '(' + c.tokens.map((t, i) => quote(t) + (i === c.tokens.length - 1 ? star : '')).join(' AND ') + ')';
}

export interface MatchOptions {
  mode?: MatchMode;
  /** Restrict to these columns of a multi-column table (e.g. ['title']). */
  columns?: readonly string[];
}

function build(clauses: readonly Clause[], op: 'AND' | 'OR', options: MatchOptions): string | null {
  if (!clauses.length) return null;
  const body = clauses.map((c) => clauseMatch(c, options.mode)).join(` ${op} `);
  if (!options.columns?.length) return body;
  for (const col of options.columns) if (!/^[a-z_]+$/.test(col)) throw new Error(`bad column name ${col}`);
  return `{${options.columns.join(' ')}} : (${body})`;
}

/** Every clause required. Null when there is nothing to match. */
export function matchAll(clauses: readonly Clause[], options: MatchOptions = {}): string | null {
  return build(clauses, 'AND', options);
}

/** Any clause (the relaxed, ranked variant). Null when there is nothing to match. */
export function matchAny(clauses: readonly Clause[], options: MatchOptions = {}): string | null {
  return build(clauses, 'OR', options);
}
