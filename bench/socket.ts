// `npx tsx bench/socket.ts [--conversations N] [--clients C] [--requests R] [--runs K]`
// The agent socket under load, against the daemon as users run it (`throughline serve`, its own
// process) on the benchmark corpus (default 10,000 conversations):
//  - daemon start → first answer (to a suggest): spawn `serve` (watching the corpus, so the initial scan runs in the
//    background) and poll until `status` answers; and the same in process (startDaemon), which is what
//    the Electron app pays;
//  - suggest round trip from another process, texts built from the corpus's probes; p50/p95/max per
//    call: one client alone (the cost of a call); C clients each calling about once a second (open
//    loop: agents at their own pace); and C clients each calling again the moment they are answered
//    (closed loop: the server saturated, C calls always waiting — latency ≈ C × the cost of a call).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createIndexer } from '../src/main/ingest/scan.js';
import { ADAPTERS } from '../src/main/ingest/sources.js';
import { startDaemon } from '../src/main/daemon/daemon.js';
import { openDb } from '../src/main/store/db.js';
import { corpusSources, ensureCorpus, type Manifest } from './corpus.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const BIN = path.join(ROOT, 'bin', 'throughline.mjs');
const LOAD = path.join(ROOT, 'test', 'server', 'load-client.mjs');

const { values } = parseArgs({
  options: { conversations: { type: 'string' }, clients: { type: 'string' }, requests: { type: 'string' }, runs: { type: 'string' } },
});
const N = Number(values.conversations ?? 10_000);
const CLIENTS = Number(values.clients ?? 50);
const REQUESTS = Number(values.requests ?? 20);
const RUNS = Number(values.runs ?? 3);
const log = (s: string) => process.stderr.write(s + '\n');

/** Brings the benchmark's own index (kept in the temp folder between runs) up to date with the corpus. */
function ensureIndex(corpusDir: string): string {
  const dir = path.join(os.tmpdir(), 'throughline-bench-socket');
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const dbPath = path.join(dir, `index-${N}.sqlite`);
  const db = openDb(dbPath);
  try {
    // Incremental: unchanged files are only stat-ed, so the daemon under test finds nothing to redo.
    const stats = createIndexer(db, ADAPTERS).scan(corpusSources(corpusDir));
    log(`index ${dbPath}: ${stats.parsedFiles} of ${stats.files} files (re)indexed in ${(stats.ms / 1000).toFixed(1)} s`);
    db.pragma('wal_checkpoint(TRUNCATE)');
  } finally {
    db.close();
  }
  return dbPath;
}

function canAnswer(socketPath: string): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.connect(socketPath);
    s.setEncoding('utf8');
    s.on('error', () => resolve(false));
    // An agent's first call: a suggestion for its first prompt.
    s.on('connect', () => s.write('{"jsonrpc":"2.0","id":1,"method":"suggest","params":{"text":"where did we leave the parser refactor"}}\n'));
    s.on('data', (d: string) => {
      s.destroy();
      resolve(d.includes('"result"'));
    });
  });
}

const summary = (l: Load, what: string) => ({ what, answered: l.answered, errors: l.errors, p50: l.p50, p95: l.p95, max: l.max, callsPerSec: Math.round((l.answered / l.ms) * 1000) });
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** Spawns `throughline serve`, waits for its first answer; returns [ms, stop]. */
async function spawnServe(dbPath: string, corpusDir: string, socketPath: string): Promise<{ ms: number; stop: () => Promise<void> }> {
  const t0 = performance.now();
  const proc = spawn(process.execPath, [BIN, 'serve', '--db', dbPath, '--socket', socketPath, '--log', socketPath + '.log'], {
    // HOME at the corpus: the daemon's default sources are the corpus, scanned in the background.
    env: { ...process.env, HOME: corpusDir, XDG_CONFIG_HOME: path.dirname(socketPath), PI_CODING_AGENT_DIR: '', CLAUDE_CONFIG_DIR: '', CODEX_HOME: '' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let err = '';
  proc.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`serve exited: ${err}`);
    if (await canAnswer(socketPath)) break;
    await new Promise((r) => setTimeout(r, 5));
  }
  const ms = performance.now() - t0;
  return {
    ms,
    stop: () =>
      new Promise<void>((resolve) => {
        proc.once('exit', () => resolve());
        proc.kill('SIGTERM');
      }),
  };
}

interface Load {
  answered: number;
  errors: object;
  p50: number;
  p95: number;
  max: number;
  ms: number;
}

function runLoad(socketPath: string, clients: number, requests: number, paramsFile: string, mode = 'sequential'): Promise<Load> {
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, [LOAD, socketPath, String(clients), String(requests), 'suggest', `@${paramsFile}`, mode], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    p.stdout.on('data', (d: Buffer) => (out += d.toString()));
    p.on('close', (code) => (code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`load client exited ${code}`))));
  });
}

function suggestParams(manifest: Manifest): object[] {
  // Texts a person might type: a probe's rare identifier with its topic (should suggest), and topic
  // words alone (mostly gated out) — the common case is that nothing is suggested.
  return manifest.probes.flatMap((p) => [
    { text: `can we pick up ${p.idents[0]} again, the ${p.topic.join(' ')} work`, workspace: p.workspace },
    { text: `let's continue on ${p.topic.join(' and ')}`, workspace: p.workspace },
  ]);
}

async function main(): Promise<void> {
  const corpusDir = path.join(ROOT, 'bench', '.corpus', String(N));
  const manifest = ensureCorpus(N, 1, corpusDir, log);
  const dbPath = ensureIndex(corpusDir);
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'tlb-'));
  const socketPath = path.join(work, 'a.sock');
  const paramsFile = path.join(work, 'params.json');
  fs.writeFileSync(paramsFile, JSON.stringify(suggestParams(manifest)));
  log(`cpus: ${os.cpus().length}, load average: ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`);

  const inProcess: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    const d = await startDaemon({ dbPath, settingsPath: path.join(work, 'settings.json'), socketPath, log: false, sources: corpusSources(corpusDir) });
    if (!(await canAnswer(socketPath))) throw new Error('in-process daemon did not answer');
    inProcess.push(performance.now() - t0);
    await d.close();
  }
  const spawned: number[] = [];
  let serve: Awaited<ReturnType<typeof spawnServe>> | null = null;
  for (let i = 0; i < RUNS; i++) {
    serve = await spawnServe(dbPath, corpusDir, socketPath);
    spawned.push(serve.ms);
    if (i < RUNS - 1) await serve.stop();
  }

  await runLoad(socketPath, 4, 10, paramsFile); // warm the page cache and statements
  const single = await runLoad(socketPath, 1, 200, paramsFile);
  const paced = await runLoad(socketPath, CLIENTS, REQUESTS, paramsFile, 'paced:1000');
  const saturated = await runLoad(socketPath, CLIENTS, REQUESTS, paramsFile);
  await serve!.stop();
  fs.rmSync(work, { recursive: true, force: true });

  const result = {
    conversations: N,
    startToFirstAnswerMs: { inProcessMedian: Math.round(median(inProcess)), spawnedServeMedian: Math.round(median(spawned)), runs: RUNS },
    suggestSingleClient: { p50: single.p50, p95: single.p95, max: single.max },
    suggestPaced: summary(paced, `${CLIENTS} clients, each about one call a second`),
    suggestSaturated: summary(saturated, `${CLIENTS} clients, each calling again as soon as answered`),
    loadAverage: os.loadavg().map((l) => Number(l.toFixed(1))),
  };
  console.log(JSON.stringify(result, null, 2));
}

await main();
