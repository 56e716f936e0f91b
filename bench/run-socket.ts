// `node bin/run-ts.mjs bench/run-socket.ts --db FILE --corpus DIR [--clients 50] [--calls 20] [--readers 2,0] [--rounds 1] [--node-args='--cpu-prof …']`
// The socket rows of issue 16 alone, in minutes instead of the full bench's half hour: on an index
// built beforehand (`node bin/run-ts.mjs bench/run-index.ts --db FILE --corpus DIR`), in one run,
//  - the in-process baseline: the same mixed calls (suggest / recall_conversations / history_search)
//    one at a time through the api, and `status` alone;
//  - for each reader count: `throughline serve` (bundle, rebuilt when stale) with 50 clients calling
//    back to back (p50/p95/p99, calls/s), then another client's `status` during a 100-call batch, and `status` right after an append.
//    A call refused for the socket's time limit (50 clients at 50k on a busy machine) is counted, its
//    time to the refusal kept among the samples, and the run goes on.
// Rounds alternate the reader counts so that a machine growing busier slows each alike. The load
// average is printed: on a shared machine, judge by the ratios to the in-process figures.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { createCore } from '../src/main/api/core.js';
import { openDb } from '../src/main/store/db.js';
import { BENCH_DIR, corpusSources, readManifest } from './corpus.js';
import { latency, ms, times } from './lib-stats.js';
import { inProcessMix, runDaemon, type DaemonFigures } from './run-live.js';

const { values } = parseArgs({
  options: {
    db: { type: 'string' },
    corpus: { type: 'string' },
    clients: { type: 'string', default: '50' },
    calls: { type: 'string', default: '20' },
    readers: { type: 'string', default: '2' },
    rounds: { type: 'string', default: '1' },
    'node-args': { type: 'string' },
  },
});
if (!values.db || !values.corpus) throw new Error('usage: run-socket.ts --db FILE --corpus DIR [--clients 50] [--calls 20] [--readers 2,0] [--rounds 1]');
const dbPath = path.resolve(values.db);
const corpus = path.resolve(values.corpus);
const manifest = readManifest(corpus);
if (!manifest) throw new Error(`no benchmark corpus (manifest) in ${corpus}`);
const clients = Number(values.clients);
const calls = Number(values.calls);
const readerCounts = values.readers.split(',').map(Number);
const nodeArgs = values['node-args']?.split(' ').filter(Boolean);
const log = (s: string) => process.stderr.write(`${s}\n`);
const load = () => os.loadavg()[0]!.toFixed(1);

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'tl-socket-bench-'));
const load0 = load();
try {
  // Brought to this code's schema version first (the daemon would), then the floor: the same calls
  // in this process, one at a time, on a read-only core.
  openDb(dbPath).close();
  const core = createCore({ dbPath, settingsPath: path.join(work, 'settings.json'), sources: corpusSources(corpus), env: { HOME: corpus }, readonly: true });
  await inProcessMix(core.api, manifest, 30); // warm the page cache and statements
  const inProcess = await inProcessMix(core.api, manifest, 90);
  const statusSamples: number[] = [];
  for (let i = 0; i < 10; i++) {
    const t0 = performance.now();
    await core.api.status({});
    statusSamples.push(performance.now() - t0);
  }
  core.close();
  const statusAlone = latency(statusSamples);
  const inRate = 1000 / inProcess.mean;
  log(`in-process: ${inRate.toFixed(0)} calls/s (mean ${ms(inProcess.mean)}), status alone p50 ${ms(statusAlone.p50)} · load ${load()}`);

  const runs: { readers: number; figures: DaemonFigures | string }[] = [];
  for (let round = 0; round < Number(values.rounds); round++) {
    for (const readers of readerCounts) {
      log(`round ${round + 1}, ${readers} reader threads … (load ${load()})`);
      const figures = await runDaemon({ root: path.resolve(BENCH_DIR, '..'), corpus, dbPath, work, readers, rebuildCli: true, countRefused: true, nodeArgs }, manifest, clients, calls, 0);
      runs.push({ readers, figures });
    }
  }

  console.log(`socket bench · ${new Date().toISOString()} · ${os.cpus().length} CPUs · load avg ${load0} → ${load()} · ${manifest.conversations} conversations\n`);
  console.log(`in-process (one at a time): ${inRate.toFixed(0)} calls/s, mean ${ms(inProcess.mean)}; status alone p50 ${ms(statusAlone.p50)}\n`);
  console.log(`| readers | ${clients} clients p50 / p95 / p99 | calls/s | vs in-process | refused (time limit) | status during a batch (median / max of the status calls) | status right after an append (median / max) | RSS at rest · after the round | cli |`);
  console.log('| --- | --- | --- | --- | --- | --- | --- | --- | --- |');
  for (const { readers, figures: f } of runs) {
    if (typeof f === 'string') {
      console.log(`| ${readers} | ${f} | | | | | | | |`);
      continue;
    }
    const c = f.concurrent;
    const s = f.statusDuringBatch;
    const status = s ? `${ms(s.p50)} / ${ms(s.max)} (${s.n}${f.statusDuringScan ? `, ${f.statusDuringScan} during a re-scan` : ''})` : '–';
    const w = f.statusAfterWrite;
    const afterWrite = w ? `${ms(w.p50)} / ${ms(w.max)} (${w.n})` : '–';
    const rss = f.rss ? `${f.rss.idleMB.toFixed(0)} · ${f.rss.afterCalls[0]!.mb.toFixed(0)} MB` : '–';
    console.log(`| ${readers} | ${ms(c.p50)} / ${ms(c.p95)} / ${ms(c.p99)} | ${f.callsPerSec.toFixed(0)} | ${times(f.callsPerSec, inRate)} | ${f.refused ?? 0} | ${status} | ${afterWrite} | ${rss} | ${f.cli} |`);
  }
  for (const { readers, figures: f } of runs) if (typeof f !== 'string' && f.cpuPerCall) console.log(`\n${readers} readers, daemon CPU per call in the ${clients}-client round: main thread ${ms(f.cpuPerCall.main)}, other threads ${ms(f.cpuPerCall.others.reduce((a, b) => a + b, 0))} (${f.cpuPerCall.others.map(ms).join(', ')})`);
  // Where the daemon's read calls spent their time, from its log: the first line covers the 50-client round.
  for (const { readers, figures: f } of runs) if (typeof f !== 'string') for (const line of f.readsTiming ?? []) console.log(`\n${readers} readers, ${line}`);
} finally {
  fs.rmSync(work, { recursive: true, force: true });
}
