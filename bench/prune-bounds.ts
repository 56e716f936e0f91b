// How much of the bm25 work stored per-(conversation, term) bounds could spare, before building them: on
// the bench's queries, the share of the matching entries that would still need their bm25 (BENCHMARKS.md,
// "Scoring cost, stop 25").
//   node bin/run-ts.mjs bench/prune-bounds.ts --db FILE --corpus DIR [--count 200]
// A conversation's score is MESSAGE_WEIGHT × its best message + its conversation part; the conversation
// part is known without bm25 (relevance.ts), the best message is at most the sum over the terms of a bound
// kept for the pair. Its entries need ranking unless that bound puts it below the K-th best actual score
// (K: the candidates suggest keeps, the pool recall keeps). That threshold is an oracle's (a real search
// only knows a lower bound of it), so the shares printed are the least any such bound could leave:
// - "max tf, min length": the largest tf and the shortest entry among the pair's entries, kept apart;
// - "exact max": the pair's largest bm25 part itself (the tightest bound one number per pair can give);
// - "oracle": the entries of the conversations in the top K alone (no bound does better).
import { parseArgs } from 'node:util';
import { openDb } from '../src/main/store/db.js';
import { createSearch } from '../src/main/store/search.js';
import { readCues } from '../src/main/recall/cues.js';
import { ENTRY_LIMIT, K1, MESSAGE_WEIGHT, queryTerms, scoreConversations } from '../src/main/recall/relevance.js';
import { clauseMatch, parseQuery } from '../src/main/recall/terms.js';
import { readManifest } from './corpus.js';
import { buildQueries } from './run-queries.js';

const { values } = parseArgs({ options: { db: { type: 'string' }, corpus: { type: 'string' }, count: { type: 'string' } } });
if (!values.db || !values.corpus) throw new Error('usage: prune-bounds.ts --db FILE --corpus DIR [--count N]');
const manifest = readManifest(values.corpus);
if (!manifest) throw new Error(`no corpus manifest in ${values.corpus}`);
const db = openDb(values.db, { readonly: true });
const search = createSearch(db);
const bounds = { workspace: null, exclude: [], includeSubagents: false };
const now = Date.parse(manifest.now);

/** FTS5's record format: varints, as in its averages record (rows, then tokens) and docsize (tokens). */
function varints(b: Buffer): number[] {
  const out: number[] = [];
  let v = 0;
  for (const byte of b) {
    v = v * 128 + (byte & 0x7f);
    if (!(byte & 0x80)) {
      out.push(v);
      v = 0;
    }
  }
  return out;
}
const [rows, tokens] = varints(db.prepare<[], Buffer>('SELECT block FROM entries_fts_data WHERE id = 1').pluck().get()!);
const avgLength = tokens! / rows!;
const lengthsOf = db.prepare<[string], [number, Buffer]>('SELECT id, sz FROM entries_fts_docsize WHERE id IN (SELECT value FROM json_each(?))').raw();
// FTS5's bm25 for one phrase: idf × tf(k1+1) / (tf + k1(1 - b + b·len/avg)), b = 0.75.
const part = (tf: number, length: number) => (tf * (K1 + 1)) / (tf + K1 * (0.25 + (0.75 * length) / avgLength));

interface PairStats {
  entries: Set<number>;
  maxTf: Float64Array;
  minLength: Float64Array;
  maxPart: Float64Array;
}

function shares(text: string, k: number): { total: number; tfLength: number; exact: number; oracle: number } {
  const terms = queryTerms(search, parseQuery(text, { maxClauses: 64 }), readCues(text, now));
  const scored = scoreConversations(search, terms, bounds).sort((a, b) => b.score - a.score);
  const threshold = scored.length <= k ? -Infinity : scored[k - 1]!.score;
  const top = new Set(scored.slice(0, k).map((s) => s.id));
  const byId = new Map(scored.map((s) => [s.id, s]));
  const finders = terms.some((t) => !t.common && t.df > 0) ? terms.filter((t) => !t.common) : terms;
  // One slot per term and word that matched it, as scoring reads them.
  const slots = terms.flatMap((t, ti) =>
    finders.includes(t)
      ? t.matchers.filter((m) => m.df > 0).map((m) => {
          const match = clauseMatch(m.clause, 'full');
          const hits = search.entryCounts(match, null).hits;
          return { ti, s2: m.similarity ** 2, idf: Math.max(1e-6, Math.log((rows! - hits + 0.5) / (hits + 0.5))), rows: search.termEntries(match, bounds, ENTRY_LIMIT) };
        })
      : [],
  );
  const ids = [...new Set(slots.flatMap((s) => s.rows.map((r) => r[0])))];
  const lengths = new Map<number, number>();
  for (let i = 0; i < ids.length; i += 5000) for (const [id, sz] of lengthsOf.all(JSON.stringify(ids.slice(i, i + 5000)))) lengths.set(id, varints(sz)[0]!);
  const pairs = new Map<number, PairStats>();
  slots.forEach((slot, si) => {
    for (const [entry, conversation, rank] of slot.rows) {
      let p = pairs.get(conversation);
      if (!p) pairs.set(conversation, (p = { entries: new Set(), maxTf: new Float64Array(slots.length), minLength: new Float64Array(slots.length).fill(Infinity), maxPart: new Float64Array(slots.length) }));
      p.entries.add(entry);
      const length = lengths.get(entry)!;
      // tf back from the rank: -rank = idf × part(tf, length).
      const saturation = -rank / slot.idf;
      const tf = Math.round((saturation * K1 * (0.25 + (0.75 * length) / avgLength)) / (K1 + 1 - saturation));
      p.maxTf[si] = Math.max(p.maxTf[si]!, tf);
      p.minLength[si] = Math.min(p.minLength[si]!, length);
      p.maxPart[si] = Math.max(p.maxPart[si]!, -rank * slot.s2);
    }
  });
  const out = { total: 0, tfLength: 0, exact: 0, oracle: 0 };
  for (const [id, p] of pairs) {
    const s = byId.get(id);
    if (!s) continue;
    const n = p.entries.size;
    out.total += n;
    const tfLength = new Float64Array(terms.length);
    const exact = new Float64Array(terms.length);
    slots.forEach((slot, si) => {
      if (!p.maxTf[si]) return;
      tfLength[slot.ti] = Math.max(tfLength[slot.ti]!, slot.s2 * slot.idf * part(p.maxTf[si]!, p.minLength[si]!));
      exact[slot.ti] = Math.max(exact[slot.ti]!, p.maxPart[si]!);
    });
    const sum = (xs: Float64Array) => xs.reduce((a, x) => a + x, 0);
    if (MESSAGE_WEIGHT * sum(tfLength) + s.conversation >= threshold) out.tfLength += n;
    if (MESSAGE_WEIGHT * sum(exact) + s.conversation >= threshold) out.exact += n;
    if (top.has(id)) out.oracle += n;
  }
  return out;
}

const q = buildQueries(manifest, Number(values.count ?? 200));
for (const [name, k, texts] of [
  ['suggest', 200, q.suggest.map((s) => s.text)],
  ['recall', 50, q.recall],
] as const) {
  const sum = { total: 0, tfLength: 0, exact: 0, oracle: 0 };
  for (const text of texts) for (const [key, v] of Object.entries(shares(text, k))) sum[key as keyof typeof sum] += v;
  const pct = (x: number) => `${((100 * x) / sum.total).toFixed(1)} %`;
  console.log(`${name} (K ${k}, ${texts.length} queries, ${sum.total} entries): still ranked with max tf, min length ${pct(sum.tfLength)}; exact max ${pct(sum.exact)}; oracle ${pct(sum.oracle)}`);
}
db.close();
