// How much of a message's information a term carries, for the suggestion gate's coverage.
//
// The relevance model weighs a term by its idf in the person's history, and the gate reads coverage
// as the share of that information a conversation accounts for, a term the history never uses counting
// fully: new work names things no earlier conversation does. Output pasted from a program breaks that
// reading. A log line or a stack trace is full of values unique to the moment (timestamps, hashes,
// addresses, process ids, file:line locations, the frames of this one run); no history holds them, so
// each would count fully against every earlier conversation, and a message that pastes the very error
// an earlier conversation solved would be judged new work. Such a term, when the history lacks it,
// counts nothing: its absence says nothing about what the message is about. A term of that output the
// history does hold is evidence where it matches (the same error printed before) and no part of the
// message where it does not (outputAwareCoverage). Ranking is not touched.
import { clauseKey, parseQuery } from './terms.js';
import type { QueryTerm, Scored } from './relevance.js';

/** A token that is a value, not a name: a long number, a hash or address, a time like 29t10 or 123z. */
export function isValueToken(token: string): boolean {
  if (/^\d{5,}$/.test(token)) return true;
  const hex = token.replace(/^0x/, '');
  if (hex.length >= 6 && /^[0-9a-f]+$/.test(hex) && /\d/.test(hex) && /[a-f]/.test(hex)) return true;
  return token.length <= 6 && /^\d+[a-z]\d*$/.test(token);
}

/** A file location with a line number: `main.js:1182:33`, `(node:internal/x:95:5)`, `File "a.py", line 3`. */
const LOCATION = /[\w./\\-]+:\d+(:\d+)?\b|\bline \d+\b/;
/** Lines a program writes: a stack frame, a log line (opening with a time or a level), a compiler's file:line,
 *  the headers of a Go, Python or Java trace. */
const MACHINE_LINE: readonly RegExp[] = [
  /^\s*(at|File|from)\s.*(:\d+|line \d+)/,
  /^\s+at\s+\S/,
  /^\s*#?\d+\s+0x[0-9a-f]+/i,
  /^\s*\[?\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}/,
  /^\s*\[?\d{2}:\d{2}:\d{2}\b/,
  /^\s*\[?(ERROR|ERR|WARN|WARNING|INFO|DEBUG|TRACE|FATAL|CRITICAL|PANIC)\b[\]:\s]/,
  /^\s*goroutine \d+ \[[^\]]*\]:?\s*$/,
  /^\s*(Traceback \(most recent call last\)|Caused by:|Exception in thread\b|panic:)/,
];

/** An error message pasted inside a sentence: from the program's name, if any, and its error marker
 *  ("… failed last night: pg_restore: error: could not …", "broke again: Error [ERR_X]: …") to the line's end;
 *  or, after a colon, a capitalized "Error" and its subject up to the cause's colon, as Go, C and Rust
 *  programs print them ("… crashloops: Error loading shared library "x.so": cannot open …"). */
const INLINE_OUTPUT = /(?:^|\s)(?:[\w.-]+: )?(?:[A-Z]\w*Error|ERROR|[Ee]rror|FATAL|[Ff]atal|panic|npm ERR!)(?: \[[^\]]+\])?:\s|(?<=: )Error [^:\n]{1,80}:\s/;

/** The keys of the clauses that appear only on lines (or the ends of lines) a program wrote. */
export function machineOutputKeys(text: string): Set<string> {
  const machine = new Set<string>();
  const human = new Set<string>();
  for (const line of text.split(/\r?\n/)) {
    if (!line.trim()) continue;
    const isMachine = MACHINE_LINE.some((re) => re.test(line)) || (/^(\t|\s{2,})\S/.test(line) && LOCATION.test(line));
    const at = isMachine ? 0 : line.search(INLINE_OUTPUT);
    const said = at < 0 ? line : line.slice(0, at);
    const printed = at < 0 ? '' : line.slice(at);
    for (const c of parseQuery(said)) human.add(clauseKey(c));
    for (const c of parseQuery(printed)) machine.add(clauseKey(c));
  }
  for (const key of human) machine.delete(key);
  return machine;
}

/** The term's share of the message's information: its idf, or nothing for an unknown value or trace term. */
export function informationOf(term: Pick<QueryTerm, 'clause' | 'df' | 'weight' | 'key'>, machine: ReadonlySet<string>): number {
  if (term.df > 0) return term.weight;
  const tokens = term.clause.tokens;
  const value = tokens.some(isValueToken) || tokens.filter((t) => /^\d+$/.test(t)).length >= 3 || LOCATION.test(term.clause.source);
  return value || machine.has(term.key) ? 0 : term.weight;
}

/**
 * Coverage with the known terms found only in pasted output counted where they match and left out
 * of the message where they do not; null when the message has no such term (coverage stands).
 */
export function outputAwareCoverage(terms: readonly Pick<QueryTerm, 'key' | 'label' | 'weight'>[], machine: ReadonlySet<string>): ((c: Pick<Scored, 'coverage' | 'matches'>) => number) | null {
  const fromOutput = new Set(terms.filter((t) => machine.has(t.key)).map((t) => t.label));
  if (!fromOutput.size) return null;
  const total = terms.reduce((s, t) => s + t.weight, 0);
  const said = terms.reduce((s, t) => (fromOutput.has(t.label) ? s : s + t.weight), 0);
  return (c) => {
    const printed = c.matches.reduce((s, m) => (fromOutput.has(m.term) ? s + m.weight : s), 0);
    return said + printed > 0 ? Math.min(1, (c.coverage * total) / (said + printed)) : c.coverage;
  };
}
