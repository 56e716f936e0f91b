// Recall speed on a 10,000-conversation synthetic index: p50/p95/p99 of suggest (each strategy),
// recall_conversations and history_search. Run: npx tsx bench/recall.ts [--conversations N] [--rebuild]
//
// The index is built through the writer (the ingest path) with realistic text: Zipf-distributed
// everyday and coding words, rare identifiers (camelCase names, error codes, file:line), several
// workspaces, a year of dates — and one word ("code") in almost every entry, the case that must not
// make a query slow. The built index is kept in the temp folder and reused until --rebuild.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { openDb, type Db } from '../src/main/store/db.js';
import { createWriter } from '../src/main/store/writer.js';
import type { IngestOp } from '../src/main/ingest/types.js';
import { createRecall } from '../src/main/recall/index.js';

const args = process.argv.slice(2);
const N = Number(args[args.indexOf('--conversations') + 1]) || 10_000;
const file = path.join(os.tmpdir(), `throughline-bench-recall-${N}.sqlite`);
const NOW = Date.parse('2026-11-29T12:00:00Z');
const DAY = 86_400_000;

// mulberry32: a small deterministic PRNG (32-bit integer math), so every run builds the same corpus.
let seed = 42;
const rand = (): number => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
};
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;

const COMMON = `the a to and of in is it for that on with this be we can you not as are at or have but if from
fix test build error config update change add remove run deploy review merge branch commit function type value file
path server client request response database query table index migration schema api endpoint handler service worker
job queue cache retry timeout log debug issue bug feature release version package module import export class method
field param option flag setting env docker image container pod cluster node memory cpu disk network port host user
account payment payout refund invoice merchant ledger balance transfer currency rate amount fee report metric alert
dashboard page component hook state props render style layout button form input filter search list detail modal
lint format check pass fail green red slow fast old new first last next previous small large`.split(/\s+/);
const WORKSPACES = ['/home/dev/src/payments-api', '/home/dev/src/dashboard', '/home/dev/src/ledger', '/home/dev/src/infra', '/home/dev/notes', '/home/dev/src/cli'];
// 40 syllables, 3 per word: 64,000 words, so identifiers are rare as real ones are.
const syl = 'ka lo mi zu ra te vo ni pe qua xi bor fen gal hul dri sa mo ku be ti fa ro nu ze wi pa go le du ve ji ha ce bu so ri la ne'.split(' ');
const rareId = () => {
  const w = () => pick(syl) + pick(syl) + pick(syl);
  const r = rand();
  if (r < 0.3) return w() + w()[0]!.toUpperCase() + w().slice(1) + Math.floor(rand() * 100);
  if (r < 0.55) return `ERR_${w().toUpperCase()}_${w().toUpperCase()}`;
  if (r < 0.8) return `${w()}_${w()}.go:${Math.floor(rand() * 400)}`;
  return w() + w();
};
// Zipf-ish: low indexes far more often.
const common = () => COMMON[Math.floor(Math.pow(rand(), 2.2) * COMMON.length)]!;

function sentence(rares: string[]): string {
  const n = 12 + Math.floor(rand() * 30);
  const words = ['code'];
  for (let i = 0; i < n; i++) words.push(rand() < 0.06 && rares.length ? pick(rares) : common());
  return words.join(' ');
}

interface Meta {
  key: string;
  rares: string[];
  entries: number;
}

function build(db: Db): Meta[] {
  const writer = createWriter(db);
  const metas: Meta[] = [];
  const t0 = performance.now();
  for (let i = 0; i < N; i++) {
    const key = `bench-${i}`;
    const rares = Array.from({ length: 1 + Math.floor(rand() * 4) }, rareId);
    const at = NOW - Math.floor(rand() * 365) * DAY;
    const count = 4 + Math.floor(rand() * 16);
    const ops: IngestOp[] = [
      { op: 'conversation', conv: key, meta: { sessionId: key, workspace: pick(WORKSPACES), title: sentence(rares).slice(0, 80), titleRank: 1, createdAt: at - DAY, updatedAt: at } },
    ];
    for (let seq = 0; seq < count; seq++) {
      const role = seq % 2 === 0 ? 'user' : 'assistant';
      ops.push({ op: 'entry', conv: key, entry: { seq, role, kind: 'message', text: sentence(rares), indexed: true, ts: at - DAY + seq * 60_000 } });
    }
    const f = writer.ensureFile(`/bench/${key}.jsonl`, 'pi');
    writer.commitBatch(f, ops, { offset: 1, line: 1, state: null, size: 1, mtimeMs: 1, inode: 1 });
    metas.push({ key, rares, entries: count });
    if (i % 1000 === 999) process.stderr.write(`\rbuilt ${i + 1}/${N} conversations (${((performance.now() - t0) / 1000).toFixed(1)} s)`);
  }
  process.stderr.write('\n');
  return metas;
}

function percentiles(ms: number[]): { text: string; p95: number } {
  const s = [...ms].sort((a, b) => a - b);
  const at = (p: number) => s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
  return { text: `p50 ${at(50).toFixed(2)}  p95 ${at(95).toFixed(2)}  p99 ${at(99).toFixed(2)} ms`, p95: at(95) };
}

const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

/**
 * Wall time and this process's CPU time per call. On a shared machine the wall time carries other
 * processes' load; CPU time is what the call itself costs.
 */
function time(label: string, runs: (() => unknown)[], target?: number): void {
  for (const r of runs.slice(0, 10)) r(); // warm up caches and prepared statements
  const wall: number[] = [];
  const cpu: number[] = [];
  for (const r of runs) {
    const t = performance.now();
    const c = cpuMs();
    r();
    cpu.push(cpuMs() - c);
    wall.push(performance.now() - t);
  }
  const w = percentiles(wall);
  const c = percentiles(cpu);
  const verdict = target === undefined ? '' : `  ${w.p95 <= target ? '✓' : '✗'} wall p95 ≤ ${target} ms  ${c.p95 <= target ? '✓' : '✗'} cpu`;
  console.log(`${label.padEnd(34)} wall ${w.text} | cpu ${c.text} (n=${runs.length})${verdict}`);
}

const fresh = args.includes('--rebuild') || !fs.existsSync(file);
if (fresh) for (const s of ['', '-wal', '-shm']) fs.rmSync(file + s, { force: true });
const db = openDb(file);
const metaFile = file + '.meta.json';
let metas: Meta[];
if (fresh || !fs.existsSync(metaFile)) {
  metas = build(db);
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.exec('ANALYZE');
  fs.writeFileSync(metaFile, JSON.stringify(metas));
} else metas = JSON.parse(fs.readFileSync(metaFile, 'utf8')) as Meta[];

const recall = createRecall(db);
const now = new Date(NOW).toISOString();
const settings = { autoRecall: true, sensitivity: 'balanced' as const, scope: 'everywhere' as const, pins: {} };
const texts: string[] = [];
for (let i = 0; i < 300; i++) {
  const m = metas[Math.floor(rand() * metas.length)]!;
  const kind = i % 3;
  if (kind === 0) texts.push(`the ${m.rares[0]} ${common()} is failing again in code review, ${common()} ${m.rares.at(-1)}?`);
  else if (kind === 1) texts.push(`please ${common()} the ${common()} ${common()} and ${common()} code for the new ${common()}`);
  else texts.push(`code ${common()} ${common()} ${m.rares[0]} code ${common()}`);
}
console.log(`load average ${os.loadavg().map((x) => x.toFixed(1)).join(' ')} on ${os.cpus().length} cores`);
console.log(`index: ${N} conversations, ${(fs.statSync(file).size / 1e6).toFixed(0)} MB at ${file}`);
const only = args.includes('--only') ? args[args.indexOf('--only') + 1]!.split(',') : null;
const want = (name: string) => !only || only.includes(name);
for (const strategy of ['default', 'salient', 'signals'] as const) {
  if (!want(strategy)) continue;
  time(`suggest (${strategy})`, texts.map((text) => () => recall.suggest({ text, workspace: WORKSPACES[0], now, strategy }, settings)), strategy === 'default' ? 20 : undefined);
}
if (want('recall')) time('recall_conversations', texts.map((query) => () => recall.recall({ query, limit: 10 })), 30);
if (want('recall')) time('recall_conversations ("code" only)', Array.from({ length: 50 }, () => () => recall.recall({ query: 'code', limit: 10 })));
const hist = Array.from({ length: 300 }, (_, i) => {
  const m = metas[Math.floor(rand() * metas.length)]!;
  const query = i % 2 ? 'code' : `code ${m.rares[0]}`;
  return () => recall.historySearch({ conversation: m.key, query, before: m.entries });
});
if (want('history')) time('history_search', hist, 5);
db.close();
