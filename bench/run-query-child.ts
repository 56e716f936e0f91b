// Child process of the harness: times the agent tools on an index, and the paired search-vs-ripgrep
// queries, and prints one JSON line. A process of its own, like the daemon that answers agents: the
// harness holds the corpus's file lists and the baselines' results, and forks children (the indexer,
// ripgrep), and a query right after a fork of its process ran ~4x slower (bench/rg-runner.ts).
//   node bin/run-ts.mjs bench/run-query-child.ts --db FILE --corpus DIR --settings FILE --count N --warmup N --mix N --rg-queries N
import { parseArgs } from 'node:util';
import { createCore } from '../src/main/api/core.js';
import { corpusSources, readManifest } from './corpus.js';
import { hasRipgrep } from './lib-baselines.js';
import { inProcessMix } from './run-live.js';
import { buildQueries, pairedVsRipgrep, runQueries, type Paired, type QueryFigures } from './run-queries.js';
import type { Latency } from './lib-stats.js';

export interface QueryChildRun {
  queries: QueryFigures;
  inProcess: Latency;
  paired: Paired | null;
}

const { values } = parseArgs({
  options: {
    db: { type: 'string' },
    corpus: { type: 'string' },
    settings: { type: 'string' },
    count: { type: 'string' },
    warmup: { type: 'string' },
    mix: { type: 'string' },
    'rg-queries': { type: 'string' },
  },
});
if (!values.db || !values.corpus || !values.settings) throw new Error('usage: run-query-child.ts --db FILE --corpus DIR --settings FILE …');
const m = readManifest(values.corpus);
if (!m) throw new Error(`no corpus manifest in ${values.corpus}`);
const sources = corpusSources(values.corpus);
const core = createCore({ dbPath: values.db, settingsPath: values.settings, sources, env: { HOME: values.corpus } });
const q = buildQueries(m, Number(values.count));
// The warm-up lets V8 optimize the hot paths first: the figures are a long-running daemon's.
const queries = await runQueries(core.api, q, m, Number(values.warmup));
const inProcess = await inProcessMix(core.api, m, Number(values.mix));
const rgQueries = Number(values['rg-queries'] ?? 0);
const paired = rgQueries > 0 && hasRipgrep() ? await pairedVsRipgrep(core.api, q, m, sources.map((s) => s.root), rgQueries) : null;
core.close();
const out: QueryChildRun = { queries, inProcess, paired };
process.stdout.write(`${JSON.stringify(out)}\n`);
