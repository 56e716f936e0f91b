// The live figures: a new line in a session file until recall finds it (watcher running), and the
// real daemon (`throughline serve`, a child process) from spawn to its first answer, then 50 agent
// clients calling it at once.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import type { Api, RecallResult } from '../src/shared/api.js';
import type { Core } from '../src/main/api/core.js';
import type { Agent } from './corpus-formats.js';
import type { Manifest, Probe } from './corpus.js';
import { appendUserTurn } from './lib-append.js';
import { latency, type Latency } from './lib-stats.js';

const sleep = (msec: number) => new Promise((r) => setTimeout(r, msec));

export interface AppendFigures {
  latency: Latency;
  timeouts: number;
}

/**
 * Appends a user turn carrying a fresh token to probe files of each agent, and polls
 * recall_conversations until that conversation is found. The files are put back afterwards.
 */
export async function appendToSearchable(core: Core, m: Manifest, rounds: number, timeoutMs = 10_000): Promise<AppendFigures> {
  await core.watch();
  const byAgent = new Map<string, Probe[]>();
  for (const p of m.probes) byAgent.set(p.agent, [...(byAgent.get(p.agent) ?? []), p]);
  const agents = [...byAgent.keys()];
  const samples: number[] = [];
  const restorers = [];
  let timeouts = 0;
  try {
    for (let i = 0; i < rounds; i++) {
      const list = byAgent.get(agents[i % agents.length]!)!;
      const p = list[Math.floor(i / agents.length) % list.length]!;
      const token = `zqbench${i}t${Date.now().toString(36)}`;
      const t0 = performance.now();
      restorers.push(appendUserTurn(p.agent, p.path, `Please remember ${token} when we come back to this.`));
      let found = false;
      while (performance.now() - t0 < timeoutMs) {
        const r: RecallResult = await core.api.recall_conversations({ query: token, workspace: 'all' });
        if (r.hits.some((h) => h.sessionId === p.sessionId)) {
          found = true;
          break;
        }
        await sleep(5);
      }
      if (found) samples.push(performance.now() - t0);
      else timeouts++;
      await sleep(150); // let the debounce of this file settle before the next round
    }
  } finally {
    core.close();
    for (const r of restorers.reverse()) r.restore();
  }
  return { latency: latency(samples), timeouts };
}

/**
 * How `throughline serve` will run: from the esbuild bundle that `npm install` builds
 * (scripts/build-cli.mjs), rebuilt here when the sources are newer and `rebuild` is set, as an installed
 * copy would have it; else from the TypeScript sources through tsx. The smoke run never rebuilds: tests
 * running the CLI in parallel could read a half-written bundle.
 */
function ensureCliBundle(root: string, rebuild: boolean): 'bundle' | 'sources (tsx)' {
  const script = path.join(root, 'scripts', 'build-cli.mjs');
  if (!fs.existsSync(script)) return 'sources (tsx)';
  // As bin/throughline.mjs tells it: newer than every source listed beside the bundle (a bundle
  // without the list, from an older build script, runs the sources).
  const fresh = (): boolean => {
    try {
      const built = fs.statSync(path.join(root, '.build', 'cli.mjs')).mtimeMs;
      const inputs = JSON.parse(fs.readFileSync(path.join(root, '.build', 'cli.inputs.json'), 'utf8')) as string[];
      return inputs.every((file) => fs.statSync(path.join(root, file)).mtimeMs <= built);
    } catch {
      return false;
    }
  };
  if (rebuild && !fresh()) spawnSync(process.execPath, [script], { cwd: root, stdio: 'ignore' });
  return fresh() ? 'bundle' : 'sources (tsx)';
}

export interface DaemonFigures {
  /** What ran: the bundled CLI or the sources through tsx. */
  cli: 'bundle' | 'sources (tsx)';
  /** Spawn of `throughline serve` to the first answered suggest. */
  startMs: number;
  /** CPU time the daemon had used by then (all its threads), from /proc; NaN where there is no /proc. */
  startCpuMs: number;
  /** Round trip of each call with 50 clients calling at once. */
  concurrent: Latency;
  callsPerSec: number;
  clients: number;
  /** Another client's `status` round trips while one client's 100-call batch is being answered: the slowest. */
  statusDuringBatchMs?: number;
  /** All of those round trips. */
  statusDuringBatch?: Latency;
  /** How many of those status answers said the daemon was scanning (its periodic re-scan met the batch). */
  statusDuringScan?: number;
  /** `status` round trips each right after the same client's `ingest.append` of one entry (the counts are read again after a write). */
  statusAfterWrite?: Latency;
  /** The daemon's resident memory (VmRSS, MB): at rest after its start-up scan, then after each further thousand calls. */
  rss?: { idleMB: number; afterCalls: { calls: number; mb: number }[]; idleAfterWait?: { ms: number; mb: number; cpuMs: number } };
  /** Calls refused for the time limit (only with countRefused). */
  refused?: number;
  /** CPU time of the daemon during the concurrent round, per call (ms): its main thread, and each other thread that ran (readers, V8's helpers), busiest first. */
  cpuPerCall?: { main: number; others: number[] };
  /** The daemon's log lines on where its read calls' time went (read-pool-timing.ts), one per 1,000 calls. */
  readsTiming?: string[];
}

interface Rpc {
  call(method: string, params: unknown): Promise<unknown>;
  close(): void;
}

/** The socket client, if the server code is there; null otherwise (the figure is then skipped). */
async function loadClient(): Promise<((socket: string) => Promise<Rpc>) | null> {
  try {
    const mod = await import('../src/main/client/socket-client.js');
    return async (socket) => {
      const c = await mod.connectRpc(socket, { connectTimeoutMs: 200, timeoutMs: 60_000 });
      return { call: (method, params) => c.request(method, params), close: () => c.close() };
    };
  } catch {
    return null;
  }
}

/** Resident memory of a process in MB (Linux /proc); NaN where there is no /proc. */
function processRssMB(pid: number | undefined): number {
  try {
    const kb = /VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb ? Number(kb) / 1024 : Number.NaN;
  } catch {
    return Number.NaN;
  }
}

/** One mixed agent call (suggest / recall_conversations / history_search, by k). */
function mixedCall(m: Manifest, k: number, ci = 0, callsEach = 1): [string, unknown] {
  const p = m.probes[(ci * callsEach + k) % m.probes.length]!;
  return k % 3 === 0
    ? ['suggest', { text: `${p.topic.join(' ')} in ${p.idents[0]}`, workspace: p.workspace, now: m.now }]
    : k % 3 === 1
      ? ['recall_conversations', { query: `${p.topic[0]} ${p.idents[0]}`, workspace: 'all', now: m.now }]
      : ['history_search', { conversation: p.sessionId, query: p.topic[0] }];
}

/**
 * One client sends a batch of 100 recall_conversations calls on a raw connection; once the daemon is
 * into it, another client asks `status`, again and again (10 ms apart) until the batch is answered.
 * Returns those status round trips.
 */
async function statusDuringBatch(socket: string, connect: (socket: string) => Promise<Rpc>, m: Manifest): Promise<{ latency: Latency; duringScan: number }> {
  const other = await connect(socket);
  const raw = net.connect(socket);
  await new Promise<void>((resolve, reject) => raw.once('connect', resolve).once('error', reject));
  const batch = Array.from({ length: 100 }, (_, i) => ({ jsonrpc: '2.0', id: i, method: 'recall_conversations', params: mixedCall(m, 3 * i + 1)[1] }));
  let done = false;
  const batchDone = new Promise<void>((resolve) => {
    let buf = '';
    raw.setEncoding('utf8');
    raw.on('data', (d: string) => {
      buf += d;
      if (buf.endsWith('\n')) {
        done = true;
        resolve();
      }
    });
  });
  raw.write(JSON.stringify(batch) + '\n');
  await sleep(20); // the daemon has read the batch and is answering it
  const samples: number[] = [];
  let duringScan = 0;
  while (!done && samples.length < 50) {
    const s = performance.now();
    const status = (await other.call('status', {})) as { indexing: unknown };
    samples.push(performance.now() - s);
    if (status.indexing) duringScan++;
    await sleep(10);
  }
  await batchDone;
  raw.destroy();
  other.close();
  return { latency: latency(samples), duringScan };
}

/**
 * One client appends an entry to a conversation of its own (`ingest.append`) and asks `status` at
 * once, 20 times, 50 ms apart: the status round trips. What was counted is counted again after a write.
 */
async function statusAfterWrite(socket: string, connect: (socket: string) => Promise<Rpc>): Promise<Latency> {
  const c = await connect(socket);
  const samples: number[] = [];
  for (let i = 0; i < 20; i++) {
    await c.call('ingest.append', { conversation: { id: 'bench-status-after-write', workspace: '/bench/status', title: 'status after a write' }, entries: [{ role: 'user', text: `append ${i} before a status` }] });
    const s = performance.now();
    await c.call('status', {});
    samples.push(performance.now() - s);
    await sleep(50);
  }
  c.close();
  return latency(samples);
}

/** User + system CPU time of a process so far (Linux /proc; clock ticks are 1/100 s there). */
function processCpuMs(pid: number | undefined, file = `/proc/${pid}/stat`): number {
  try {
    const stat = fs.readFileSync(file, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return Number.NaN;
  }
}

/** User + system CPU time of each thread of a process so far, by thread id (Linux /proc; the main thread's id is the pid). */
function threadsCpuMs(pid: number | undefined): Map<number, number> {
  const byThread = new Map<number, number>();
  try {
    for (const tid of fs.readdirSync(`/proc/${pid}/task`)) byThread.set(Number(tid), processCpuMs(Number(tid), `/proc/${pid}/task/${tid}/stat`));
  } catch {
    // no /proc: no figure
  }
  return byThread;
}

/** The CPU each thread took between two readings, per call: the main thread's, and the others' that ran, busiest first. */
function cpuPerCallOf(pid: number | undefined, before: Map<number, number>, after: Map<number, number>, calls: number): { main: number; others: number[] } {
  const delta = (tid: number): number => (after.get(tid)! - (before.get(tid) ?? 0)) / calls;
  const others = [...after.keys()].filter((tid) => tid !== pid).map(delta).filter((ms) => ms > 0).sort((a, b) => b - a);
  return { main: after.has(pid!) ? delta(pid!) : Number.NaN, others };
}

export interface DaemonEnv {
  root: string; // project root, for bin/throughline.mjs
  /** Rebuild a stale CLI bundle first (not in --quick). */
  rebuildCli?: boolean;
  corpus: string; // used as HOME: the agents' folders are where they would be
  dbPath: string;
  work: string; // scratch folder for socket, settings, logs
  /** Reader threads for the daemon (THROUGHLINE_READ_WORKERS); its default when absent. */
  readers?: number;
  /** Leave the daemon idle this long after its start-up scan (its periodic re-scans run) and read its RSS again. */
  idleWaitMs?: number;
  /** Count calls refused for the socket's time limit instead of failing the run (the memory bench, on a busy machine). */
  countRefused?: boolean;
  /** Told each RSS reading after calls as it is taken (a long run's figures so far). */
  onRss?: (calls: number, mb: number) => void;
  /** Options for the daemon's node (e.g. --cpu-prof, which NODE_OPTIONS does not take, or a V8 flag to compare). */
  nodeArgs?: string[];
}

/**
 * `totalCalls`: after the 50-client round, more mixed calls (10 clients at once) up to this many in
 * all, the daemon's RSS read after each thousand: memory must stay flat over a long session.
 */
export async function runDaemon(env: DaemonEnv, m: Manifest, clients: number, callsEach: number, totalCalls = 0): Promise<DaemonFigures | string> {
  const connect = await loadClient();
  if (!connect) return 'socket client (src/main/client/socket-client.ts) not present';
  const cli = ensureCliBundle(env.root, env.rebuildCli ?? false);
  const socket = path.join(env.work, 'agent.sock');
  const childEnv: NodeJS.ProcessEnv = {
    ...process.env,
    HOME: env.corpus,
    XDG_CONFIG_HOME: path.join(env.work, 'config'),
    XDG_STATE_HOME: path.join(env.work, 'state'),
    // Where OpenCode keeps its storage under HOME (the index is --db, so nothing of Throughline's goes there).
    XDG_DATA_HOME: path.join(env.corpus, '.local', 'share'),
    XDG_RUNTIME_DIR: env.work,
  };
  for (const k of ['PI_CODING_AGENT_DIR', 'CLAUDE_CONFIG_DIR', 'CODEX_HOME', 'THROUGHLINE_SOCKET', 'THROUGHLINE_DB']) delete childEnv[k];
  if (env.readers !== undefined) childEnv.THROUGHLINE_READ_WORKERS = String(env.readers);
  const logFile = path.join(env.work, 'daemon.log');
  const logFrom = fs.existsSync(logFile) ? fs.statSync(logFile).size : 0;
  const readsTiming = (): string[] => {
    try {
      const text = fs.readFileSync(logFile).subarray(logFrom).toString('utf8');
      return text.split('\n').filter((l) => l.includes(' reads: ')).map((l) => l.slice(l.indexOf('reads: ')));
    } catch {
      return [];
    }
  };
  const t0 = performance.now();
  const child: ChildProcess = spawn(process.execPath, [...(env.nodeArgs ?? []), path.join(env.root, 'bin/throughline.mjs'), 'serve', '--db', env.dbPath, '--socket', socket, '--log', logFile], {
    env: childEnv,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  try {
    const p0 = m.probes[0]!;
    let startMs = Number.NaN;
    let startCpuMs = Number.NaN;
    while (performance.now() - t0 < 30_000) {
      if (child.exitCode !== null) return `daemon exited (${child.exitCode}): ${stderr.trim().slice(0, 300)}`;
      try {
        const c = await connect(socket);
        await c.call('suggest', { text: `${p0.topic.join(' ')} ${p0.idents[0]}`, workspace: p0.workspace, now: m.now });
        c.close();
        startMs = performance.now() - t0;
        startCpuMs = processCpuMs(child.pid);
        break;
      } catch {
        await sleep(5);
      }
    }
    if (!Number.isFinite(startMs)) return 'daemon gave no answer within 30 s';
    // The concurrency figure is for a daemon at rest: wait for its start-up re-scan to finish. The
    // daemon starts it a moment after its first answer (daemon.ts), so a status asked at once said
    // "not indexing" before it began, and the calls below ran into it (until 2026-12-02): its log says
    // when it is done.
    const logged = (): string => {
      try {
        return fs.readFileSync(logFile).subarray(logFrom).toString('utf8');
      } catch {
        return '';
      }
    };
    for (let text = logged(); !text.includes('initial scan done'); text = logged()) {
      if (text.includes('indexing failed')) return `the daemon's start-up scan failed: ${text.slice(text.indexOf('indexing failed')).slice(0, 300)}`;
      if (child.exitCode !== null) return `daemon exited (${child.exitCode}): ${stderr.trim().slice(0, 300)}`;
      await sleep(100);
    }
    const idleMB = processRssMB(child.pid);
    let refused = 0;
    const call = (c: Rpc, method: string, params: unknown): Promise<unknown> =>
      env.countRefused
        ? c.call(method, params).catch((err: Error) => {
            // -32001: refused for the socket's time limit (run over, or waited past it in the queue).
            if ((err as { code?: number }).code !== -32001 && !/limit/.test(err.message)) throw err;
            refused++;
            return null;
          })
        : c.call(method, params);
    // cpuMs: what the daemon did meanwhile with no call (its periodic re-scans), all threads.
    let idleAfterWait: { ms: number; mb: number; cpuMs: number } | undefined;
    if (env.idleWaitMs) {
      const cpuBefore = processCpuMs(child.pid);
      await sleep(env.idleWaitMs);
      idleAfterWait = { ms: env.idleWaitMs, mb: processRssMB(child.pid), cpuMs: processCpuMs(child.pid) - cpuBefore };
    }
    const conns = await Promise.all(Array.from({ length: clients }, () => connect(socket)));
    const samples: number[] = [];
    const cpuStart = threadsCpuMs(child.pid);
    const tStart = performance.now();
    await Promise.all(
      conns.map(async (c, ci) => {
        for (let k = 0; k < callsEach; k++) {
          const [method, params] = mixedCall(m, k, ci, callsEach);
          const s = performance.now();
          await call(c, method, params);
          samples.push(performance.now() - s);
        }
      }),
    );
    const wall = performance.now() - tStart;
    const cpuEnd = threadsCpuMs(child.pid);
    const cpuPerCall = cpuPerCallOf(child.pid, cpuStart, cpuEnd, samples.length);
    for (const c of conns) c.close();
    let calls = samples.length;
    const afterCalls = [{ calls, mb: processRssMB(child.pid) }];
    const duringBatch = await statusDuringBatch(socket, connect, m);
    const afterWrite = await statusAfterWrite(socket, connect);
    calls += 100;
    const more = await Promise.all(Array.from({ length: 10 }, () => connect(socket)));
    while (calls < totalCalls) {
      const round = calls;
      await Promise.all(more.map(async (c, ci) => {
        for (let k = 0; k < 100; k++) {
          const [method, params] = mixedCall(m, round + k, ci, 100);
          await call(c, method, params);
        }
      }));
      calls += 1000;
      afterCalls.push({ calls, mb: processRssMB(child.pid) });
      env.onRss?.(calls, afterCalls.at(-1)!.mb);
    }
    for (const c of more) c.close();
    return {
      cli, startMs, startCpuMs, concurrent: latency(samples), callsPerSec: samples.length / (wall / 1000), clients,
      statusDuringBatchMs: duringBatch.latency.max, statusDuringBatch: duringBatch.latency, statusDuringScan: duringBatch.duringScan, statusAfterWrite: afterWrite, rss: { idleMB, afterCalls, ...(idleAfterWait ? { idleAfterWait } : {}) }, ...(env.countRefused ? { refused } : {}),
      cpuPerCall,
      readsTiming: readsTiming(),
    };
  } catch (err) {
    // A failing call is reported in the table rather than ending the whole run.
    return `daemon call failed: ${(err as Error).message.slice(0, 200)}`;
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => (child.exitCode !== null ? r(null) : child.once('exit', r)));
    fs.rmSync(socket, { force: true });
  }
}

/**
 * The daemon started inside this process (as the Electron app starts it: code already loaded), with
 * its watcher and start-up scan, to the first answered suggest over the socket.
 */
export async function inProcessStart(env: DaemonEnv, m: Manifest, sources: { kind: Agent; root: string }[]): Promise<number | string> {
  const connect = await loadClient();
  let daemonMod: typeof import('../src/main/daemon/daemon.js');
  try {
    daemonMod = await import('../src/main/daemon/daemon.js');
  } catch {
    return 'daemon module not present';
  }
  if (!connect) return 'socket client not present';
  const socketPath = path.join(env.work, 'inproc.sock');
  const p0 = m.probes[0]!;
  const t0 = performance.now();
  const d = await daemonMod.startDaemon({ dbPath: env.dbPath, settingsPath: path.join(env.work, 'inproc-settings.json'), socketPath, sources, log: false, env: { HOME: env.corpus } });
  try {
    const c = await connect(socketPath);
    await c.call('suggest', { text: `${p0.topic.join(' ')} ${p0.idents[0]}`, workspace: p0.workspace, now: m.now });
    c.close();
    return performance.now() - t0;
  } finally {
    await d.close();
  }
}

/** The same calls in-process, one at a time: the floor the socket figures are compared with. */
export async function inProcessMix(api: Api, m: Manifest, n: number): Promise<Latency> {
  const samples: number[] = [];
  for (let k = 0; k < n; k++) {
    const p = m.probes[k % m.probes.length]!;
    const s = performance.now();
    if (k % 3 === 0) await api.suggest({ text: `${p.topic.join(' ')} in ${p.idents[0]}`, workspace: p.workspace, now: m.now });
    else if (k % 3 === 1) await api.recall_conversations({ query: `${p.topic[0]} ${p.idents[0]}`, workspace: 'all', now: m.now });
    else await api.history_search({ conversation: p.sessionId, query: p.topic[0]! });
    samples.push(performance.now() - s);
  }
  return latency(samples);
}
