// `node bin/run-ts.mjs bench/run-memory.ts --db FILE --corpus DIR [--root CHECKOUT] [--readers N] [--calls 10000] [--idle-wait S] [--json FILE] [--node-args='--flag …']`
// The daemon's resident memory alone (issue 16: ≤ 150 MB at 50k, flat over 10,000 calls), on an
// index built beforehand: `throughline serve` of CHECKOUT (default this one; its CLI bundle rebuilt
// when stale) with the corpus as HOME; its RSS once the start-up scan is done, after S seconds idle
// (the 30 s re-scans run meanwhile), then after 1,000 calls from 4 clients and each further 1,000
// mixed calls from 10 clients, up to --calls. Two checkouts run one after the other compare code in
// the same run; the load average is printed.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { BENCH_DIR, readManifest } from './corpus.js';
import { ms } from './lib-stats.js';
import { runDaemon } from './run-live.js';

const { values } = parseArgs({
  options: {
    db: { type: 'string' },
    corpus: { type: 'string' },
    root: { type: 'string' },
    readers: { type: 'string' },
    calls: { type: 'string', default: '10000' },
    'idle-wait': { type: 'string', default: '0' },
    json: { type: 'string' },
    'node-args': { type: 'string' },
  },
});
if (!values.db || !values.corpus) throw new Error('usage: run-memory.ts --db FILE --corpus DIR [--root CHECKOUT] [--readers N] [--calls 10000] [--idle-wait S] [--json FILE] [--node-args="--flag …"]');
const corpus = path.resolve(values.corpus);
const manifest = readManifest(corpus);
if (!manifest) throw new Error(`no benchmark corpus (manifest) in ${corpus}`);
const root = path.resolve(values.root ?? path.resolve(BENCH_DIR, '..'));
const load = () => os.loadavg()[0]!.toFixed(1);
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'tl-memory-bench-'));
const load0 = load();
try {
  const readers = values.readers === undefined ? undefined : Number(values.readers);
  const f = await runDaemon(
    { root, corpus, dbPath: path.resolve(values.db), work, readers, rebuildCli: true, nodeArgs: values['node-args']?.split(' ').filter(Boolean), idleWaitMs: Number(values['idle-wait']) * 1000, countRefused: true, onRss: (calls, mb) => process.stderr.write(`${calls} calls: ${mb.toFixed(0)} MB\n`) },
    manifest,
    // 4 clients, not the socket row's 50: this is about memory, and 50 at once on a busy machine run
    // past the socket's 10 s limit (calls refused so are counted, not fatal).
    4,
    250,
    Number(values.calls),
  );
  console.log(`memory bench · ${new Date().toISOString()} · ${root} · readers ${readers ?? 'default'} · load avg ${load0} → ${load()} · ${manifest.conversations} conversations`);
  if (typeof f === 'string') throw new Error(f);
  const rss = f.rss!;
  const wait = rss.idleAfterWait ? ` · after ${(rss.idleAfterWait.ms / 1000).toFixed(0)} s idle ${rss.idleAfterWait.mb.toFixed(0)} MB (CPU meanwhile ${ms(rss.idleAfterWait.cpuMs)}: ${((rss.idleAfterWait.cpuMs / rss.idleAfterWait.ms) * 100).toFixed(1)} % of a core)` : '';
  console.log(`RSS idle ${rss.idleMB.toFixed(0)} MB${wait} · ${rss.afterCalls.map((a) => `${a.mb.toFixed(0)} MB @${a.calls}`).join(' · ')}`);
  if (f.cpuPerCall) console.log(`CPU per call over the first 1,000: main thread ${ms(f.cpuPerCall.main)}, other threads ${ms(f.cpuPerCall.others.reduce((a, b) => a + b, 0))} (${f.cpuPerCall.others.slice(0, 4).map(ms).join(', ')}, …)`);
  for (const line of f.readsTiming ?? []) console.log(line);
  const w = f.statusAfterWrite;
  if (w) console.log(`status right after an append: p50 ${ms(w.p50)} · p95 ${ms(w.p95)} · max ${ms(w.max)} (${w.n})`);
  console.log(`4 clients: p50 ${ms(f.concurrent.p50)} p99 ${ms(f.concurrent.p99)} · ${f.callsPerSec.toFixed(0)} calls/s · ${f.refused ?? 0} refused for the time limit · ${f.cli}`);
  if (values.json) fs.writeFileSync(values.json, JSON.stringify({ root, readers, load: [load0, load()], figures: f }, null, 1));
} finally {
  fs.rmSync(work, { recursive: true, force: true });
}
