// The query side of the benchmark: the four agent tools, timed call by call through the same
// dispatch every transport uses (validation included), with ripgrep and the JSON scan asked the
// same questions over the raw files.
import type { Api, MethodName, RecallResult } from '../src/shared/api.js';
import { dispatch } from '../src/main/api/dispatch.js';
import type { Manifest, Probe } from './corpus.js';
import { conversationFiles, jsonScan, parseConversation, rgFiles, startRgRunner, type ScanRun } from './lib-baselines.js';
import { latency, timeEach, type Latency } from './lib-stats.js';

export interface QuerySet {
  suggest: { text: string; workspace: string }[];
  recall: string[];
  read: string[];
  history: { conversation: string; query: string; path: string }[];
}

/** Questions built from the probes: rare identifiers, topic phrases, and the two mixed. */
export function buildQueries(m: Manifest, count: number): QuerySet {
  const probes: Probe[] = [];
  for (let i = 0; probes.length < count && m.probes.length > 0; i++) probes.push(m.probes[i % m.probes.length]!);
  return {
    suggest: probes.map((p, i) => ({
      workspace: p.workspace,
      text: [
        `Can you look at the ${p.topic.join(' ')} problem in ${p.idents[0]} again? It broke the same way as before.`,
        `${p.topic.slice(0, 2).join(' ')} is failing in ci again, please fix it`,
        `Let's add a retry to ${p.idents[3]} and make sure the tests still pass.`,
      ][i % 3]!,
    })),
    recall: probes.map((p, i) => [p.idents[0]!, `${p.topic[0]} ${p.topic[1]} ${p.idents[0]}`, p.topic.join(' ')][i % 3]!),
    read: probes.map((p) => p.sessionId),
    history: probes.map((p, i) => ({ conversation: p.sessionId, path: p.path, query: i % 2 ? p.idents[1]! : p.topic[0]! })),
  };
}

export interface QueryFigures {
  suggest: Latency;
  recall: Latency;
  read: Latency;
  history: Latency;
  /** Share of rare-identifier recall queries whose conversation came back in the top 10. */
  recallFound: { found: number; asked: number };
}

async function call(api: Api, method: MethodName, params: unknown): Promise<unknown> {
  return dispatch(api, method, params);
}

export async function runQueries(api: Api, q: QuerySet, m: Manifest, warmup = 5): Promise<QueryFigures> {
  const now = m.now;
  const run = async <T>(items: T[], fn: (x: T) => Promise<unknown>): Promise<Latency> => {
    for (const x of items.slice(0, warmup)) await fn(x);
    return timeEach(items, fn);
  };
  const suggest = await run(q.suggest, (s) => call(api, 'suggest', { text: s.text, workspace: s.workspace, now, scope: 'everywhere' }));
  const recall = await run(q.recall, (query) => call(api, 'recall_conversations', { query, workspace: 'all', now }));
  const read = await run(q.read, (id) => call(api, 'read_conversation', { conversation_id: id }));
  const history = await run(q.history, (h) => call(api, 'history_search', { conversation: h.conversation, query: h.query }));
  // Not a timing: a check that the figures above come from a search that finds things.
  let found = 0;
  const rare = m.probes.slice(0, 30);
  for (const p of rare) {
    const r = (await call(api, 'recall_conversations', { query: p.idents[0]!, workspace: 'all', now })) as RecallResult;
    if (r.hits.some((h) => h.sessionId === p.sessionId)) found++;
  }
  return { suggest, recall, read, history, recallFound: { found, asked: rare.length } };
}

export interface BaselineFigures {
  /** ripgrep over every session file for the recall queries. */
  rg: Latency;
  /** ripgrep over the one conversation's file(s), for the history_search queries. */
  rgOneFile: Latency;
  /** Reading and parsing the one conversation's file(s), for read_conversation. */
  parseOneFile: Latency;
  /** The JSON scan, a few queries only: each reads the whole corpus. */
  scan: Latency;
  scanRuns: ScanRun[];
  /** From the query child (see Paired); absent in runs saved before it. */
  paired?: Paired;
}

/**
 * ripgrep and recall_conversations asked the same queries in turn (each 3 times in a row, the median
 * kept), so the ratio compares the two under the same machine conditions; `ratio` is the median of
 * the per-query ratios.
 */
export interface Paired {
  ours: Latency;
  rg: Latency;
  ratio: number;
}

const words = (q: string): string[] => q.split(/\s+/).filter((w) => w.length > 1);

export function runBaselines(q: QuerySet, roots: string[], files: string[], opts: { rgQueries: number; scanQueries: number }): BaselineFigures {
  const rg = latency(q.recall.slice(0, opts.rgQueries).map((query) => rgFiles(words(query), roots).ms));
  const hist = q.history.slice(0, Math.max(opts.rgQueries, 20));
  const rgOneFile = latency(hist.map((h) => rgFiles([h.query], conversationFiles(h.path)).ms));
  const parseOneFile = latency(hist.map((h) => parseConversation(h.path)));
  const scanRuns = q.recall.slice(0, opts.scanQueries).map((query) => jsonScan(files, words(query)));
  return { rg, rgOneFile, parseOneFile, scan: latency(scanRuns.map((r) => r.ms)), scanRuns };
}

/** See Paired. Run in the query child: ripgrep from a runner process, so this one does not fork. */
export async function pairedVsRipgrep(api: Api, q: QuerySet, m: Manifest, roots: string[], count: number): Promise<Paired> {
  const pairs: { ours: number; rg: number }[] = [];
  const runner = startRgRunner();
  try {
    // A few calls first absorb the fork that started the runner.
    for (const query of q.recall.slice(0, 5)) await call(api, 'recall_conversations', { query, workspace: 'all', now: m.now });
    // Each side asked 3 times in a row and the median kept: the same treatment for both (ripgrep's
    // later runs find the files in the page cache, ours find the index's pages in SQLite's cache).
    const median3 = (xs: number[]) => xs.sort((a, b) => a - b)[1]!;
    for (const query of q.recall.slice(0, count)) {
      const rgRuns: number[] = [];
      for (let i = 0; i < 3; i++) rgRuns.push((await runner.rgFiles(words(query), roots)).ms);
      const ourRuns: number[] = [];
      for (let i = 0; i < 3; i++) {
        const t0 = performance.now();
        await call(api, 'recall_conversations', { query, workspace: 'all', now: m.now });
        ourRuns.push(performance.now() - t0);
      }
      pairs.push({ ours: median3(ourRuns), rg: median3(rgRuns) });
    }
  } finally {
    runner.close();
  }
  return { ours: latency(pairs.map((p) => p.ours)), rg: latency(pairs.map((p) => p.rg)), ratio: latency(pairs.map((p) => p.rg / p.ours)).p50 };
}
