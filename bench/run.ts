// `npm run bench [-- --sizes 1000,10000] [--quick] [--paint] [--seed S] [--corpus-root DIR] [--json FILE] [--keep]`
// `npm run bench -- --from-json FILE` prints the table of an earlier run's saved figures again.
// For each size: writes (or reuses) the corpus, indexes it cold in a child process (throughput, peak
// RSS), re-scans it unchanged, times the agent tools, asks ripgrep and a JSON scan the same
// questions, measures append → searchable with the watcher running, and starts the real daemon for
// start-up and 50-client figures, runs the Claude Code hook beside `node -e 0`, and opens the window's
// renderer in Chromium until its list is painted. Prints one table; see BENCHMARKS.md.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createCore } from '../src/main/api/core.js';
import { BENCH_DIR, corpusSources, ensureCorpus } from './corpus.js';
import { hasRipgrep, listSessionFiles, rgPeakRssMB, statWalk } from './lib-baselines.js';
import type { IndexRun } from './run-index.js';
import { hookLatency } from './run-hook.js';
import { firstPaint } from './run-paint.js';
import { appendToSearchable, inProcessStart, runDaemon } from './run-live.js';
import type { QueryChildRun } from './run-query-child.js';
import { buildQueries, runBaselines } from './run-queries.js';
import { renderTable, rowsFor, type Row, type SizeFigures } from './run-table.js';

const ROOT = path.resolve(BENCH_DIR, '..');
const log = (s: string) => process.stderr.write(`${s}\n`);

/** Indexes in a child process so that its peak RSS is the indexer's own. */
function indexChild(dbPath: string, corpus: string): IndexRun {
  const r = spawnSync(process.execPath, [path.join(ROOT, 'bin/run-ts.mjs'), path.join(BENCH_DIR, 'run-index.ts'), '--db', dbPath, '--corpus', corpus], {
    encoding: 'utf8',
    maxBuffer: 16 << 20,
  });
  if (r.status !== 0) throw new Error(`indexing failed (${r.status}): ${r.stderr}`);
  const run = JSON.parse(r.stdout.trim().split('\n').at(-1)!) as IndexRun;
  if (run.errors > 0) log(`  ${run.errors} ingest problems, e.g. ${run.firstErrors.join('; ')}`);
  return run;
}

/** The agent tools timed in a child process of their own, as the daemon answers them (see run-query-child.ts). */
function queryChild(dbPath: string, corpus: string, settingsPath: string, o: { count: number; warmup: number; mix: number; rgQueries: number }): QueryChildRun {
  const args = ['--db', dbPath, '--corpus', corpus, '--settings', settingsPath, '--count', String(o.count), '--warmup', String(o.warmup), '--mix', String(o.mix), '--rg-queries', String(o.rgQueries)];
  const r = spawnSync(process.execPath, [path.join(ROOT, 'bin/run-ts.mjs'), path.join(BENCH_DIR, 'run-query-child.ts'), ...args], {
    encoding: 'utf8',
    maxBuffer: 16 << 20,
  });
  if (r.status !== 0) throw new Error(`queries failed (${r.status}): ${r.stderr}`);
  return JSON.parse(r.stdout.trim().split('\n').at(-1)!) as QueryChildRun;
}

function fileSize(file: string): number {
  try {
    return fs.statSync(file).size;
  } catch {
    return 0;
  }
}

export interface BenchOptions {
  sizes: number[];
  quick: boolean;
  seed: number;
  corpusRoot: string;
  keep: boolean;
  /** Measure the window's first paint in Chromium (default: unless --quick). */
  paint: boolean;
}

async function measure(n: number, o: BenchOptions): Promise<SizeFigures> {
  const dir = path.join(o.corpusRoot, String(n));
  const m = ensureCorpus(n, o.seed, dir, log);
  const sources = corpusSources(dir);
  const roots = sources.map((s) => s.root);
  const files = listSessionFiles(roots);
  const rawBytes = files.reduce((a, f) => a + fileSize(f), 0);
  const work = fs.mkdtempSync(path.join(os.tmpdir(), `tl-bench-${n}-`));
  const dbPath = path.join(work, 'index.sqlite');
  try {
    log(`[${n}] cold index of ${files.length} files (${(rawBytes / 1048576).toFixed(0)} MB) …`);
    const cold = indexChild(dbPath, dir);
    const indexBytes = fileSize(dbPath) + fileSize(`${dbPath}-wal`);
    log(`[${n}] re-scan …`);
    const rescan = indexChild(dbPath, dir);
    const statWalkMs = Math.min(statWalk(roots), statWalk(roots));

    log(`[${n}] queries …`);
    const settingsPath = path.join(work, 'settings.json');
    const big = n > 20_000;
    const rgQueries = o.quick ? 2 : big ? 8 : 15;
    const { queries, inProcess, paired } = queryChild(dbPath, dir, settingsPath, {
      count: o.quick ? 12 : 200,
      warmup: o.quick ? 2 : 40,
      mix: o.quick ? 6 : 90,
      rgQueries,
    });
    const core = createCore({ dbPath, settingsPath, sources, env: { HOME: dir } });
    const q = buildQueries(m, o.quick ? 12 : 200);

    let baselines = null;
    let rgRssMB = null;
    if (hasRipgrep()) {
      log(`[${n}] baselines (ripgrep, JSON scan) …`);
      // Each JSON-scan query reads the whole corpus (minutes at 50k): fewer of them on big corpora.
      baselines = { ...runBaselines(q, roots, files, { rgQueries, scanQueries: o.quick || big ? 1 : 3 }), ...(paired ? { paired } : {}) };
      rgRssMB = rgPeakRssMB(q.recall[0]!.split(' '), roots);
    } else {
      log('ripgrep (rg) is not installed: baselines skipped. On Debian: apt-get install ripgrep');
    }

    log(`[${n}] append → searchable …`);
    const append = await appendToSearchable(core, m, o.quick ? 2 : 12); // closes the core
    log(`[${n}] daemon …`);
    const n0 = performance.now();
    spawnSync(process.execPath, ['-e', '0']);
    const nodeStartMs = performance.now() - n0;
    const daemon = await runDaemon({ root: ROOT, corpus: dir, dbPath, work, rebuildCli: !o.quick }, m, 50, o.quick ? 1 : 20, o.quick ? 0 : 10_000);
    // The same 50 clients with every call on the daemon's event loop (no reader threads): what the threads change, same run.
    const eventLoopOnly = o.quick ? undefined : await runDaemon({ root: ROOT, corpus: dir, dbPath, work, readers: 0 }, m, 50, 20, 0);
    const inProcessStartMs = await inProcessStart({ root: ROOT, corpus: dir, dbPath, work }, m, sources);
    log(`[${n}] Claude Code hook …`);
    const hook = await hookLatency({ root: ROOT, dbPath, work, rebuild: !o.quick }, m, o.quick ? 5 : 40);
    if (o.paint) log(`[${n}] window first paint (Chromium) …`);
    // Not in --quick (the CI smoke run) unless asked for: it builds the renderer and starts a browser.
    const paint = o.paint ? await firstPaint({ dbPath, work, corpus: dir }, o.quick ? 2 : 7) : 'not in --quick (add --paint)';
    return { paint, eventLoopOnly, hook, inProcessStartMs, conversations: n, rawBytes, cold, indexBytes, rescan, statWalkMs, queries, baselines, rgRssMB, append, inProcess, daemon, nodeStartMs };
  } finally {
    if (!o.keep) fs.rmSync(work, { recursive: true, force: true });
    else log(`[${n}] kept ${work}`);
  }
}

export async function runBench(o: BenchOptions): Promise<{ figures: SizeFigures[]; rows: Row[]; table: string }> {
  const figures: SizeFigures[] = [];
  for (const n of o.sizes) figures.push(await measure(n, o));
  const rows = figures.flatMap(rowsFor);
  return { figures, rows, table: renderTable(rows) };
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      sizes: { type: 'string', default: '1000,10000' },
      quick: { type: 'boolean', default: false },
      seed: { type: 'string', default: '1' },
      'corpus-root': { type: 'string' },
      json: { type: 'string' },
      keep: { type: 'boolean', default: false },
      paint: { type: 'boolean' },
      'from-json': { type: 'string' },
    },
  });
  if (values['from-json']) {
    const saved = JSON.parse(fs.readFileSync(values['from-json'], 'utf8')) as { figures: SizeFigures[] };
    console.log(renderTable(saved.figures.flatMap(rowsFor)));
    return;
  }
  const sizes = values.sizes.split(',').map((s) => Number(s.trim().replace(/k$/i, '000')));
  if (sizes.some((s) => !Number.isInteger(s) || s < 1)) throw new Error(`--sizes takes numbers like 1000,10000 (got ${values.sizes})`);
  const o: BenchOptions = {
    sizes,
    quick: values.quick,
    seed: Number(values.seed),
    corpusRoot: path.resolve(values['corpus-root'] ?? path.join(BENCH_DIR, '.corpus')),
    keep: values.keep,
    paint: values.paint ?? !values.quick,
  };
  const load0 = os.loadavg()[0]!;
  const { figures, rows, table } = await runBench(o);
  const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
  console.log(`Throughline benchmark · ${new Date().toISOString()} · ${os.cpus().length} × ${cpu} · node ${process.version} · load avg ${load0.toFixed(1)} → ${os.loadavg()[0]!.toFixed(1)}${o.quick ? ' · --quick' : ''}\n`);
  console.log(table);
  const missed = rows.filter((r) => r.ok === false);
  const held = rows.filter((r) => r.ok === true);
  console.log(`\ntargets: ${held.length} hold, ${missed.length} missed${missed.length ? `: ${missed.map((r) => `${r.measure} @${r.size}`).join('; ')}` : ''}`);
  if (values.json) fs.writeFileSync(values.json, JSON.stringify({ figures, rows }, null, 1));
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((err: Error) => {
    console.error(err.stack ?? err.message);
    process.exitCode = 1;
  });
}
