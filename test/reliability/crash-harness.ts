// The crash trials' world: agents' session folders seeded from real fixtures, a plan for an agent
// appending to them (whole lines, half lines, now and then a damaged line), and the two checks
// an index must pass after any crash: it agrees with its own committed offsets, and (after a
// completing run) with a clean single pass over the final files.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { SourceKind } from '../../src/shared/types.js';
import { createIndexer, type Source } from '../../src/main/ingest/scan.js';
import { ADAPTERS } from '../../src/main/ingest/sources.js';
import { openDb, type Db } from '../../src/main/store/db.js';
import { createWriter } from '../../src/main/store/writer.js';
import { dumpIndex } from '../helpers/dump.js';
import { assertIndexIntact, FTS_TABLES } from '../helpers/fuzz-files.js';
import { FIXTURES } from '../helpers/fuzz-lines.js';

/** mulberry32: small, seeded, good enough to pick files and kill times reproducibly. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The agents whose files the trials write (each with its folder in ROOTS). */
type TrialKind = Extract<SourceKind, 'claude-code' | 'codex' | 'pi' | 'jsonl'>;

interface PoolFile {
  kind: TrialKind;
  /** Fixture path under test/fixtures, or null for a generated Throughline import file. */
  fixture: string | null;
  /** Where it lives under its agent's sessions folder (see ROOTS). */
  dest: string;
}

const SUB = 'large/claude-code/incremental-subagents';
const POOL: PoolFile[] = [
  { kind: 'claude-code', fixture: 'large/claude-code/session-9eda1058.jsonl', dest: '-tmp-a/9eda1058-9706-484a-b992-d03f9cfa2546.jsonl' },
  { kind: 'claude-code', fixture: 'claude-code/agent-sessions-small-all-entry-types.jsonl', dest: '-tmp-b/1b7e2c1e-0000-4000-8000-00000000000b.jsonl' },
  { kind: 'claude-code', fixture: `${SUB}/turn-2.jsonl`, dest: '-tmp-c/7b3e9a51-5b1c-4c1e-9f1a-2d6b0c8e4f11.jsonl' },
  { kind: 'claude-code', fixture: `${SUB}/turn-2/subagents/agent-a485154.jsonl`, dest: '-tmp-c/7b3e9a51-5b1c-4c1e-9f1a-2d6b0c8e4f11/subagents/agent-a485154.jsonl' },
  { kind: 'codex', fixture: 'codex/rollout-2026-01-02T18-39-45-019b7f94-51b4-7593-922e-ba12b5b73b52.jsonl', dest: '2026/01/02/rollout-2026-01-02T18-39-45-019b7f94-51b4-7593-922e-ba12b5b73b52.jsonl' },
  { kind: 'codex', fixture: 'codex/codemie-turn-2-cli0.129.jsonl', dest: '2026/01/03/rollout-2026-01-03T10-00-00-019b7f94-51b4-7593-922e-ba12b5b7aaaa.jsonl' },
  { kind: 'pi', fixture: 'pi/pi-mono-large-session-v1-head27.jsonl', dest: '--tmp-a--/2025-11-20T23-33-50-805Z_d703a1a9-1b7b-4fb1-b512-c9738b1fe617.jsonl' },
  { kind: 'pi', fixture: 'pi/pi-mono-before-compaction-v1-excerpt.jsonl', dest: '--tmp-b--/2025-12-09T00-00-00-000Z_ffae836b-9420-4060-ac13-7745215f90ff.jsonl' },
  { kind: 'pi', fixture: 'pi/agent-sessions-pi-small-v3.jsonl', dest: '--tmp-c--/2026-05-12T01-02-27-657Z_019e19b4-eb48-746a-aa6b-8dfcfa37954b.jsonl' },
  { kind: 'jsonl', fixture: null, dest: 'notes-a.jsonl' },
  { kind: 'jsonl', fixture: null, dest: 'notes-b.jsonl' },
];

/** Each agent's default sessions folder under HOME, so the daemon (which reads HOME) finds the same files. */
export const ROOTS: Record<TrialKind, string> = {
  'claude-code': '.claude/projects',
  codex: '.codex/sessions',
  pi: '.pi/agent/sessions',
  jsonl: '.local/share/throughline/import',
};

/** The environment of a child that must see only the trial's HOME (no agent or XDG overrides of ours). */
export function childEnv(home: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (!/^(XDG_|THROUGHLINE_|CLAUDE_CONFIG_DIR|CODEX_HOME|PI_CODING_AGENT_DIR)/.test(k)) env[k] = v;
  }
  return { ...env, HOME: home, ...extra };
}
const WORDS = 'index crash offset commit batch writer reader socket daemon agent session compaction handoff search recall token budget fixture'.split(' ');

/** A Throughline import file: one conversation of `n` messages of seeded words. */
function generatedLines(name: string, n: number, rand: () => number): string[] {
  const lines = [JSON.stringify({ type: 'conversation', id: name, workspace: `/tmp/${name}`, title: `Generated ${name}` })];
  for (let i = 0; i < n; i++) {
    const text = Array.from({ length: 5 + Math.floor(rand() * 40) }, () => WORDS[Math.floor(rand() * WORDS.length)]).join(' ');
    lines.push(JSON.stringify({ type: 'message', role: i % 2 ? 'assistant' : 'user', text: `${i} ${text}`, id: `${name}-${i}` }));
  }
  return lines;
}

/** A Throughline import file of about `bytes` bytes: one conversation of long seeded messages. */
export function writeGenerated(file: string, bytes: number, seed: number): void {
  const rand = rng(seed);
  const name = path.basename(file, '.jsonl');
  const lines = [JSON.stringify({ type: 'conversation', id: name, workspace: `/tmp/${name}` })];
  for (let size = 0, i = 0; size < bytes; i++) {
    const text = Array.from({ length: 120 }, () => WORDS[Math.floor(rand() * WORDS.length)]! + Math.floor(rand() * 5000)).join(' ');
    lines.push(JSON.stringify({ type: 'message', role: i % 2 ? 'assistant' : 'user', text }));
    size += lines.at(-1)!.length + 1;
  }
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, lines.join('\n') + '\n');
}

export interface Write {
  file: string;
  data: string; // base64
  delayMs: number;
}

export interface Trial {
  dir: string;
  /** HOME of the trial's agents: the session folders are under it, as ROOTS says. */
  home: string;
  db: string;
  sources: Source[];
  /** The writer's plan: what the agents append while the indexer runs and is killed. */
  writes: Write[];
  files: string[];
  bytes: { initial: number; appended: number; garbage: number };
}

/** A trial folder: 3–5 session files, each partly written; the rest is the writer's plan. */
export function makeTrial(seed: number): Trial {
  const rand = rng(seed);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `tl-crash-${seed}-`));
  const picked = POOL.filter(() => rand() < 0.3);
  if (picked.length < 3) picked.push(...POOL.filter((p) => !picked.includes(p)).slice(0, 3 - picked.length));
  const pending: { file: string; lines: string[] }[] = [];
  const bytes = { initial: 0, appended: 0, garbage: 0 };
  for (const p of picked) {
    const lines = p.fixture
      ? fs.readFileSync(path.join(FIXTURES, p.fixture), 'utf8').split('\n').filter((l) => l.trim())
      : generatedLines(path.basename(p.dest, '.jsonl'), 100 + Math.floor(rand() * 200), rand);
    const file = path.join(dir, 'home', ROOTS[p.kind], p.dest);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    // Some files exist from the start (partly written), others are created by the writer.
    const head = rand() < 0.25 ? 0 : Math.floor(lines.length * (0.1 + rand() * 0.6));
    if (head > 0) {
      const text = lines.slice(0, head).join('\n') + '\n';
      fs.writeFileSync(file, text);
      bytes.initial += Buffer.byteLength(text);
    }
    pending.push({ file, lines: lines.slice(head) });
  }
  const writes: Write[] = [];
  const push = (file: string, data: Buffer) => writes.push({ file, data: data.toString('base64'), delayMs: rand() < 0.1 ? 1 + Math.floor(rand() * 3) : 0 });
  while (pending.some((p) => p.lines.length)) {
    const open = pending.filter((p) => p.lines.length);
    const p = open[Math.floor(rand() * open.length)]!;
    const line = Buffer.from(p.lines.shift()! + '\n');
    bytes.appended += line.length;
    if (rand() < 0.04) {
      // A damaged line: cut short, or bytes that are not UTF-8. It must cost only itself.
      const bad = rand() < 0.5 ? line.subarray(0, Math.max(1, Math.floor(line.length / 3))) : Buffer.from([0xff, 0xfe, 0x80, 0x7b, 0xc3]);
      push(p.file, Buffer.concat([bad, Buffer.from('\n')]));
      bytes.garbage += bad.length + 1;
    }
    if (rand() < 0.2 && line.length > 2) {
      // Half a line now, the rest later: the indexer must wait for the newline.
      const cut = 1 + Math.floor(rand() * (line.length - 1));
      push(p.file, line.subarray(0, cut));
      push(p.file, line.subarray(cut));
    } else push(p.file, line);
  }
  const home = path.join(dir, 'home');
  return { dir, home, db: path.join(dir, 'index.sqlite'), sources: sourcesUnder(home), writes, files: pending.map((p) => p.file), bytes };
}

export function sourcesUnder(home: string): Source[] {
  return (Object.keys(ROOTS) as TrialKind[]).map((kind) => ({ kind, root: path.join(home, ROOTS[kind]) }));
}

/** Terms with their document and occurrence counts, per full-text table: equal vocabularies, equal indexes. */
function vocabularies(db: Db): Record<string, unknown[]> {
  const out: Record<string, unknown[]> = {};
  for (const t of FTS_TABLES) {
    db.exec(`CREATE VIRTUAL TABLE IF NOT EXISTS temp.v_${t} USING fts5vocab(main, ${t}, 'row')`);
    out[t] = db.prepare(`SELECT term, doc, cnt FROM temp.v_${t} ORDER BY term`).raw().all();
  }
  return out;
}

export type Snapshot = ReturnType<typeof dumpIndex> & { vocab: Record<string, unknown[]>; problems: unknown[] };

/** Everything compared between two indexes: conversations, entries, FTS vocabularies, recorded problems. */
export function snapshot(db: Db, relativeTo: string): Snapshot {
  const problems = db
    .prepare('SELECT path, line, reason FROM ingest_errors ORDER BY path, line, reason')
    .all()
    .map((p) => ({ ...(p as { path: string }), path: path.relative(relativeTo, (p as { path: string }).path) }));
  return { ...dumpIndex(db), vocab: vocabularies(db), problems };
}

/** A clean single pass over the session folders under `dir`/home into a fresh in-memory index. */
export function singlePass(dir: string): Snapshot {
  const db = openDb(':memory:');
  try {
    createIndexer(db, ADAPTERS).scan(sourcesUnder(path.join(dir, 'home')));
    return snapshot(db, dir);
  } finally {
    db.close();
  }
}

/**
 * Opens the index a killed process left, checks SQLite's and FTS5's integrity, and proves every
 * committed offset agrees with the index: the files cut at their committed offsets, indexed in one
 * clean pass, give exactly the same index.
 */
export function checkAfterCrash(trial: Trial): { files: number; committedBytes: number } {
  const db = openDb(trial.db); // a kill mid-transaction leaves a WAL to roll back: opening does that
  try {
    assertIndexIntact(db);
    // A kill between two batches of one file leaves its conversation_terms document stale on purpose
    // (writer.ts): every run rebuilds such documents before anything else, as done here.
    createWriter(db).refreshStaleTerms();
    const rows = db.prepare('SELECT path, committed_offset AS offset FROM source_files').all() as { path: string; offset: number }[];
    const mirror = fs.mkdtempSync(path.join(os.tmpdir(), 'tl-mirror-'));
    try {
      let committedBytes = 0;
      for (const r of rows) {
        const copy = path.join(mirror, path.relative(trial.dir, r.path));
        fs.mkdirSync(path.dirname(copy), { recursive: true });
        const fd = fs.openSync(r.path, 'r');
        const buf = Buffer.alloc(r.offset);
        fs.readSync(fd, buf, 0, r.offset, 0);
        fs.closeSync(fd);
        fs.writeFileSync(copy, buf);
        committedBytes += r.offset;
      }
      const expected = singlePass(mirror);
      const actual = snapshot(db, trial.dir);
      if (JSON.stringify(actual) !== JSON.stringify(expected)) {
        throw new Error(`index disagrees with its committed offsets: ${describeDiff(actual, expected)}`);
      }
      return { files: rows.length, committedBytes };
    } finally {
      fs.rmSync(mirror, { recursive: true, force: true });
    }
  } finally {
    db.close();
  }
}

/** The first difference between two snapshots, short enough to read in a failure. */
export function describeDiff(a: Snapshot, b: Snapshot): string {
  for (const key of Object.keys(b) as (keyof Snapshot)[]) {
    const x = JSON.stringify(a[key]);
    const y = JSON.stringify(b[key]);
    if (x === y) continue;
    let i = 0;
    while (i < x.length && x[i] === y[i]) i++;
    return `${key} differs at char ${i}: got …${x.slice(Math.max(0, i - 80), i + 160)}… want …${y.slice(Math.max(0, i - 80), i + 160)}…`;
  }
  return 'no difference';
}
