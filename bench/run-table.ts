// The one table `npm run bench` prints: each figure beside the baseline measured in the same run,
// the ratio, the issue's target for that size and whether it holds.
import type { IndexRun } from './run-index.js';
import type { HookFigures } from './run-hook.js';
import type { PaintFigures } from './run-paint.js';
import type { AppendFigures, DaemonFigures } from './run-live.js';
import type { BaselineFigures, QueryFigures } from './run-queries.js';
import { mb, ms, pct, times, type Latency } from './lib-stats.js';

export interface SizeFigures {
  conversations: number;
  rawBytes: number;
  cold: IndexRun;
  indexBytes: number;
  rescan: IndexRun;
  statWalkMs: number;
  queries: QueryFigures;
  baselines: BaselineFigures | null;
  rgRssMB: number | null;
  append: AppendFigures;
  inProcess: Latency;
  daemon: DaemonFigures | string;
  /** Wall time of `node -e 0`, measured just before the daemon: how busy the machine is. */
  nodeStartMs: number;
  /** startDaemon() in this process (code loaded, as in the app) to the first answer; or why skipped. */
  inProcessStartMs: number | string;
  /** The Claude Code hook beside `node -e 0` (absent in runs saved before it was measured). */
  hook?: HookFigures | string;
  /** The window's renderer in Chromium, navigation → list painted (absent in runs saved before it was measured). */
  paint?: PaintFigures | string;
  /** The 50-client round again with no reader threads (THROUGHLINE_READ_WORKERS=0); absent in --quick and older runs. */
  eventLoopOnly?: DaemonFigures | string;
}

export interface Row {
  size: number;
  measure: string;
  ours: string;
  baseline: string;
  ratio: string;
  target: string;
  /** true = holds, false = missed, null = no target at this size. */
  ok: boolean | null;
}

interface Target {
  text: string;
  ok: boolean;
}

const atMost = (v: number, limit: number, text: string): Target => ({ text, ok: Number.isFinite(v) && v <= limit });

/**
 * A latency target is judged on the wall clock. On a machine busy with other work the wall-clock
 * tail is mostly time spent waiting for a CPU, so the row also says when the CPU time would hold.
 */
function latencyTarget(l: Latency, limit: number, text: string): Target {
  const t = atMost(l.p95, limit, text);
  if (!t.ok && l.cpu && l.cpu.p95 <= limit) return { text: `${text}; CPU p95 holds`, ok: false };
  return t;
}
const atLeast = (v: number, limit: number, text: string): Target => ({ text, ok: Number.isFinite(v) && v >= limit });

export function rowsFor(f: SizeFigures): Row[] {
  const n = f.conversations;
  const upTo10k = n <= 10_000;
  const rows: Row[] = [];
  const add = (measure: string, ours: string, baseline: string, ratio: string, target: Target | null) =>
    rows.push({ size: n, measure, ours, baseline, ratio, target: target?.text ?? '', ok: target ? target.ok : null });

  const secs = f.cold.ms / 1000;
  const mbps = f.cold.bytes / 1048576 / secs;
  const cpuMbps = f.cold.bytes / 1048576 / (f.cold.cpuMs / 1000);
  const scanMbps = f.baselines ? f.baselines.scanRuns[0]!.bytes / 1048576 / (f.baselines.scanRuns[0]!.ms / 1000) : Number.NaN;
  add('cold index', `${mbps.toFixed(1)} MB/s (${cpuMbps.toFixed(1)} per CPU-s) · ${(f.cold.conversations / secs).toFixed(0)} conv/s · ${secs.toFixed(1)} s`,
    f.baselines ? `JSON scan ${scanMbps.toFixed(0)} MB/s` : '–', f.baselines ? times(mbps, scanMbps) : '–',
    mbps < 25 && cpuMbps >= 25 ? { text: '≥ 25 MB/s; per CPU-s holds', ok: false } : atLeast(mbps, 25, '≥ 25 MB/s'));
  add('peak RSS, indexing', `${f.cold.maxRssMB.toFixed(0)} MB`, f.rgRssMB !== null ? `rg ${f.rgRssMB.toFixed(0)} MB` : '–', '',
    upTo10k ? atMost(f.cold.maxRssMB, 400, '≤ 400 MB (10k)') : null);
  const ratio = f.indexBytes / f.rawBytes;
  add('index size', `${mb(f.indexBytes)} = ${ratio.toFixed(2)} × raw`, `raw JSONL ${mb(f.rawBytes)}`, '', atMost(ratio, 0.6, '≤ 0.6 × raw'));
  add('re-scan, unchanged', ms(f.rescan.ms), `walk + stat ${ms(f.statWalkMs)}`, times(f.statWalkMs, f.rescan.ms),
    upTo10k ? atMost(f.rescan.ms, 1000, '≤ 1 s (10k)') : null);
  const ap = f.append.latency;
  add('append → searchable', `${ms(ap.p50)} p50 · ${ms(ap.max)} max (${ap.n}${f.append.timeouts ? `, ${f.append.timeouts} timed out` : ''})`,
    f.baselines ? `rg ${ms(f.baselines.rg.p50)}` : '–', '', atMost(f.append.timeouts ? Infinity : ap.max, 1000, '≤ 1 s'));

  const rg = f.baselines?.rg.p50 ?? Number.NaN;
  const q = f.queries;
  add('suggest p50/p95/p99', pct(q.suggest), `rg ${ms(rg)}`, times(rg, q.suggest.p50),
    upTo10k ? latencyTarget(q.suggest, 20, 'p95 ≤ 20 ms (10k)') : latencyTarget(q.suggest, 50, 'p95 ≤ 50 ms (50k)'));
  add('recall_conversations p50/p95/p99', `${pct(q.recall)} · found ${q.recallFound.found}/${q.recallFound.asked}`,
    f.baselines ? `rg ${ms(rg)} · JSON scan ${ms(f.baselines.scan.p50)}` : '–',
    f.baselines ? `${times(rg, q.recall.p50)} · ${times(f.baselines.scan.p50, q.recall.p50)}` : '–',
    upTo10k ? latencyTarget(q.recall, 30, 'p95 ≤ 30 ms (10k)') : n >= 50_000 ? latencyTarget(q.recall, 10, 'p95 ≤ 10 ms (50k)') : null);
  // Paired: each query asked of both back to back, so a machine that slows down for a while slows
  // both sides of a ratio alike (older saved runs have only the two separate medians).
  const paired = f.baselines?.paired;
  const vsRg = paired ? paired.ratio : rg / q.recall.p50;
  add(paired ? `search vs ripgrep (paired, ${paired.rg.n} queries)` : 'search vs ripgrep (p50)', ms(paired ? paired.ours.p50 : q.recall.p50),
    `rg ${ms(paired ? paired.rg.p50 : rg)}`, times(vsRg, 1), n >= 10_000 && n <= 20_000 ? atLeast(vsRg, 60, '≥ 60× (10k)') : null);
  add('read_conversation p50/p95/p99', pct(q.read), f.baselines ? `parse file ${ms(f.baselines.parseOneFile.p50)}` : '–',
    f.baselines ? times(f.baselines.parseOneFile.p50, q.read.p50) : '–', null);
  add('history_search p50/p95/p99', pct(q.history), f.baselines ? `rg one file ${ms(f.baselines.rgOneFile.p50)}` : '–',
    f.baselines ? times(f.baselines.rgOneFile.p50, q.history.p50) : '–', latencyTarget(q.history, 5, 'p95 ≤ 5 ms'));
  if (typeof f.daemon === 'string') {
    add('socket, 50 clients', `skipped: ${f.daemon}`, '', '', null);
    add('daemon start → first answer', 'skipped', '', '', null);
  } else {
    const d = f.daemon;
    // 50 clients calling back to back keep ~50 calls queued at a one-thread server: the round trip is
    // mostly that queue. Throughput is the comparable figure: the same calls in-process, one at a time.
    const inProcRate = 1000 / f.inProcess.mean;
    // Issue 16: p99 ≤ 50 ms at 10k (150 ms at 50k) and at least the in-process call rate.
    const p99Limit = upTo10k ? 50 : n >= 50_000 ? 150 : Number.NaN;
    add(`socket, ${d.clients} clients back to back p50/p95/p99`, `${pct(d.concurrent)} · ${d.callsPerSec.toFixed(0)} calls/s`,
      `in-process ${inProcRate.toFixed(0)} calls/s (mean ${ms(f.inProcess.mean)})`, times(d.callsPerSec, inProcRate),
      n >= 10_000 && Number.isFinite(p99Limit)
        ? { text: `p99 ≤ ${p99Limit} ms, calls/s ≥ in-process`, ok: d.concurrent.p99 <= p99Limit && d.callsPerSec >= inProcRate }
        : null);
    const e = f.eventLoopOnly;
    if (e && typeof e !== 'string') {
      add(`  … reads on the event loop (no reader threads) p50/p95/p99`, `${pct(e.concurrent)} · ${e.callsPerSec.toFixed(0)} calls/s`,
        `in-process ${inProcRate.toFixed(0)} calls/s`, times(e.callsPerSec, inProcRate), null);
      if (e.statusDuringBatchMs !== undefined) add("  … status during a batch, no reader threads", ms(e.statusDuringBatchMs), '', '', null);
    }
    if (d.statusDuringBatchMs !== undefined) {
      const scan = d.statusDuringScan ? ` (${d.statusDuringScan} of the status calls during a re-scan)` : '';
      add("another client's status during a 100-call batch", `${ms(d.statusDuringBatchMs)}${scan}`, `in-process mean call ${ms(f.inProcess.mean)}`, '',
        atMost(d.statusDuringBatchMs, 20, '≤ 20 ms'));
    }
    if (d.statusAfterWrite) {
      add('status right after an append p50/p95/max', `${pct(d.statusAfterWrite)} / ${ms(d.statusAfterWrite.max)}`, '', '', atMost(d.statusAfterWrite.max, 20, '≤ 20 ms'));
    }
    if (d.rss) {
      const first = d.rss.afterCalls[0]!;
      const last = d.rss.afterCalls.at(-1)!;
      const peak = Math.max(...d.rss.afterCalls.map((a) => a.mb));
      // Flat: after the first thousand calls (caches and V8's heap settled) it grows by at most 10 %.
      const flat = last.calls >= 10_000 ? peak <= first.mb * 1.1 : null;
      add('daemon RSS: idle · after calls', `${d.rss.idleMB.toFixed(0)} MB · ${d.rss.afterCalls.map((a) => `${a.mb.toFixed(0)} MB @${a.calls.toLocaleString('en-US')}`).filter((_, i, all) => i === 0 || i === all.length - 1 || i === 1).join(' · ')}`,
        '', '', n >= 50_000 ? { text: '≤ 150 MB (50k), flat over 10,000 calls', ok: peak <= 150 && flat !== false } : flat === null ? null : { text: 'flat over 10,000 calls', ok: flat });
    }
    add(`daemon start → first answer (${d.cli})`, `${ms(d.startMs)} (CPU ${ms(d.startCpuMs)})`, `node -e 0: ${ms(f.nodeStartMs)}`, '', atMost(d.startMs, 500, '≤ 500 ms'));
  }
  if (typeof f.inProcessStartMs === 'number') add('  … in-process, code loaded (the app)', ms(f.inProcessStartMs), '', '', atMost(f.inProcessStartMs, 500, '≤ 500 ms'));
  if (typeof f.hook === 'string') add('Claude Code hook', `skipped: ${f.hook}`, '', '', null);
  else if (f.hook) {
    const h = f.hook;
    const base = `node -e 0: ${ms(h.node.p50)} p50`;
    // Claude Code runs the hook on every prompt: its whole process, start to exit, beside a bare Node's.
    add(`hook, later prompt (${h.runs}) p50/p95`, `${ms(h.laterPrompt.p50)} / ${ms(h.laterPrompt.p95)} (${h.laterPrompt.n})`, base,
      `${(h.laterPrompt.p50 / h.node.p50).toFixed(2)}× node`, atMost(h.laterPrompt.p50 / h.node.p50, 1.5, 'p50 ≤ 1.5× node -e 0'));
    add(`hook, first prompt via daemon (${h.runs}) p50/p95`, `${ms(h.firstPrompt.p50)} / ${ms(h.firstPrompt.p95)} (${h.firstWithBlock}/${h.firstPrompt.n} with a block)`, base,
      `${(h.firstPrompt.p50 / h.node.p50).toFixed(2)}× node`, atMost(h.firstPrompt.p50 / h.node.p50, 1.5, 'p50 ≤ 1.5× node -e 0'));
  }
  if (typeof f.paint === 'string') add('window: navigation → list painted', `skipped: ${f.paint}`, '', '', null);
  else if (f.paint) {
    const p = f.paint;
    // Issue 16: start → window with the list painted ≤ 1 s; without a display, the renderer's part in Chromium.
    add(`window: navigation → list painted (Chromium, ${p.runs} fresh runs) p50/max`, `${ms(p.listPainted.p50)} / ${ms(p.listPainted.max)} (first paint ${ms(p.firstContentful.p50)})`,
      `one-line page ${ms(p.blankPage.p50)}`, times(p.blankPage.p50, p.listPainted.p50), atMost(p.listPainted.p50, 1000, 'p50 ≤ 1 s (renderer only)'));
  }
  return rows;
}

export function renderTable(rows: readonly Row[]): string {
  const head = ['size', 'measure', 'Throughline', 'baseline (same run)', 'vs baseline', 'target', ''];
  const body = rows.map((r) => [
    r.size.toLocaleString('en-US'),
    r.measure,
    r.ours,
    r.baseline,
    r.ratio,
    r.target,
    r.ok === null ? '' : r.ok ? 'pass' : '**MISS**',
  ]);
  const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
  return [line(head), line(head.map(() => '---')), ...body.map(line)].join('\n');
}
