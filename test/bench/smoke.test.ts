// CI smoke run of the benchmark: the smallest size (1k conversations) through the whole harness in --quick mode. Timings
// are not asserted (CI machines vary); that the table prints and every figure is a number is.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTmp } from '../helpers/tmp.js';

const ROOT = path.resolve(__dirname, '..', '..');

interface Lat {
  p50: number;
  p95: number;
  p99: number;
}

describe('npm run bench (smoke)', () => {
  const tmp = useTmp('tl-bench-');

  it('generates the 1k corpus in every generated agent’s layout and prints the table with numbers', () => {
    const dir = tmp();
    const json = path.join(dir, 'figures.json');
    const r = spawnSync(
      process.execPath,
      [path.join(ROOT, 'bin/run-ts.mjs'), path.join(ROOT, 'bench/run.ts'), '--sizes', '1000', '--quick', '--corpus-root', dir, '--json', json],
      { cwd: ROOT, encoding: 'utf8', timeout: 480_000 },
    );
    expect(r.status, r.stderr).toBe(0);

    // The corpus: each agent's folder layout, and a manifest of probes.
    const corpus = path.join(dir, '1000');
    expect(fs.readdirSync(path.join(corpus, '.pi/agent/sessions')).every((d) => /^--.+--$/.test(d))).toBe(true);
    expect(fs.readdirSync(path.join(corpus, '.claude/projects')).length).toBeGreaterThan(0);
    expect(fs.readdirSync(path.join(corpus, '.codex/sessions'))[0]).toMatch(/^\d{4}$/);
    expect(fs.readdirSync(path.join(corpus, '.gemini/tmp')).every((d) => /^[0-9a-f]{64}$/.test(d))).toBe(true);
    for (const dir of ['.copilot/session-state', '.cursor/projects', '.factory/sessions']) expect(fs.readdirSync(path.join(corpus, dir)).length).toBeGreaterThan(0);
    expect(fs.readdirSync(path.join(corpus, 'repos'), { recursive: true }).some((f) => String(f).endsWith('.aider.chat.history.md'))).toBe(true);
    expect(fs.readdirSync(path.join(corpus, '.local/share/opencode/storage')).sort()).toEqual(['message', 'part', 'session']);
    const manifest = JSON.parse(fs.readFileSync(path.join(corpus, 'manifest.json'), 'utf8')) as { conversations: number; probes: unknown[]; agents: Record<string, number> };
    expect(manifest.conversations).toBe(1000);
    for (const agent of ['claude-code', 'codex', 'pi', 'gemini', 'opencode', 'copilot', 'cursor', 'droid', 'aider']) expect(manifest.agents[agent]).toBeGreaterThan(0);
    expect(manifest.probes.length).toBeGreaterThan(0);

    // The table.
    expect(r.stdout).toMatch(/\| size \| measure \| Throughline \| baseline/);
    for (const measure of ['cold index', 'peak RSS, indexing', 'index size', 're-scan, unchanged', 'append → searchable', 'suggest p50/p95/p99',
      'recall_conversations p50/p95/p99', 'read_conversation p50/p95/p99', 'history_search p50/p95/p99', 'daemon start → first answer',
      "another client's status during a 100-call batch", 'daemon RSS: idle · after calls']) {
      expect(r.stdout).toContain(`| 1,000 | ${measure}`);
    }
    // ripgrep is installed by .ci/run: the search ratio is measured query by query against it.
    if (spawnSync('rg', ['--version']).status === 0) expect(r.stdout).toMatch(/\| 1,000 \| search vs ripgrep \(paired, \d+ queries\) \| [\d.]+ ms \| rg [\d.]+ ms \| [\d.]+×/);
    expect(r.stdout).toMatch(/targets: \d+ hold, \d+ missed/);

    // The figures behind it are numbers.
    const { figures } = JSON.parse(fs.readFileSync(json, 'utf8')) as {
      figures: {
        cold: { ms: number; bytes: number; maxRssMB: number; conversations: number };
        rescan: { ms: number; parsedFiles: number };
        indexBytes: number;
        rawBytes: number;
        queries: { suggest: Lat; recall: Lat; read: Lat; history: Lat; recallFound: { found: number; asked: number } };
        append: { latency: Lat; timeouts: number };
        daemon: { startMs: number } | string;
      }[];
    };
    const f = figures[0]!;
    const finite = (v: number) => expect(Number.isFinite(v), String(v)).toBe(true);
    finite(f.cold.ms);
    finite(f.cold.maxRssMB);
    expect(f.cold.conversations).toBe(1000);
    expect(f.cold.bytes).toBe(f.rawBytes);
    expect(f.rescan.parsedFiles).toBe(0);
    expect(f.indexBytes).toBeGreaterThan(0);
    for (const l of [f.queries.suggest, f.queries.recall, f.queries.read, f.queries.history, f.append.latency]) {
      finite(l.p50);
      finite(l.p95);
      finite(l.p99);
    }
    expect(f.queries.recallFound.found).toBe(f.queries.recallFound.asked);
    expect(f.append.timeouts).toBe(0);
    if (typeof f.daemon !== 'string') finite(f.daemon.startMs);
  }, 500_000); // writes and indexes a 1k corpus in nine formats (OpenCode's alone ~3,300 small files), then every row: 5 minutes at load 18
});
