// `npm run bench:corpus -- --conversations N [--out DIR] [--seed S]`
// Writes a deterministic benchmark corpus of N conversations in the agents' real formats (pi, Claude
// Code, Codex CLI, Gemini CLI, OpenCode, Copilot CLI, Cursor, Droid and Aider, in the shares of corpus-plan.ts) under DIR (default bench/.corpus/N), laid out as the agents lay them out under a HOME, plus
// DIR/manifest.json: the probes (conversations with known rare identifiers) the harness queries.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { openConversation, sessionPath, type Agent } from './corpus-formats.js';
import { OPENCODE_STORAGE } from './corpus-format-opencode.js';
import { AGENTS, CORPUS_NOW, pickAgent, pickStart, pickTier, type Tier } from './corpus-plan.js';
import { writeTurns } from './corpus-plan.js';
import { createVoice, createWorkspaces, rareIdentifiers } from './corpus-text.js';
import { createRng } from './lib-prng.js';

export interface Probe {
  serial: number;
  agent: Agent;
  sessionId: string;
  path: string;
  workspace: string;
  tier: Tier['name'];
  /** Identifiers that occur in this conversation only; idents[0] is in its first prompt. */
  idents: string[];
  topic: string[];
  title: string | null;
}

/** Bumped whenever the generator's output changes, so that an older corpus on disk is rewritten. */
export const GENERATOR_VERSION = 6;

export interface Manifest {
  version: 1;
  generator: number;
  seed: number;
  conversations: number;
  bytes: number;
  now: string;
  workspaces: string[];
  tiers: Record<Tier['name'], number>;
  agents: Record<Agent, number>;
  probes: Probe[];
}

export interface CorpusOptions {
  conversations: number;
  out: string;
  seed?: number;
  /** About this many conversations are recorded as probes, spread evenly. */
  probes?: number;
  onProgress?: (done: number, bytes: number) => void;
}

export const BENCH_DIR = path.dirname(fileURLToPath(import.meta.url));
export const defaultCorpusDir = (n: number): string => path.join(BENCH_DIR, '.corpus', String(n));

/** The agents' session roots under a corpus folder, as scan sources. */
export function corpusSources(dir: string): { kind: Agent; root: string }[] {
  return [
    { kind: 'pi', root: path.join(dir, '.pi/agent/sessions') },
    { kind: 'claude-code', root: path.join(dir, '.claude/projects') },
    { kind: 'codex', root: path.join(dir, '.codex/sessions') },
    { kind: 'gemini', root: path.join(dir, '.gemini/tmp') },
    { kind: 'opencode', root: path.join(dir, OPENCODE_STORAGE) },
    { kind: 'copilot', root: path.join(dir, '.copilot/session-state') },
    { kind: 'cursor', root: path.join(dir, '.cursor/projects') },
    { kind: 'droid', root: path.join(dir, '.factory/sessions') },
    // Aider has no folder of its own: the repositories' folder is given, as `--source aider=FOLDER`.
    { kind: 'aider', root: path.join(dir, 'repos') },
  ];
}

/**
 * Empties a folder for a new corpus. Only a folder that is empty or holds an earlier corpus (it has
 * manifest.json) is touched: `--out ~` must never delete someone's real ~/.claude.
 */
function clearCorpusDir(dir: string): void {
  if (fs.existsSync(dir) && fs.readdirSync(dir).length > 0) {
    if (!fs.existsSync(path.join(dir, 'manifest.json'))) {
      throw new Error(`${dir} is not empty and holds no benchmark corpus (no manifest.json); refusing to write into it.`);
    }
    for (const sub of ['.pi', '.claude', '.codex', '.gemini', '.local', '.copilot', '.cursor', '.factory', 'repos', 'manifest.json']) fs.rmSync(path.join(dir, sub), { recursive: true, force: true });
  }
  fs.mkdirSync(dir, { recursive: true });
}

export function generateCorpus(opts: CorpusOptions): Manifest {
  const seed = opts.seed ?? 1;
  const master = createRng(seed);
  const workspaces = createWorkspaces(master.fork());
  clearCorpusDir(opts.out);
  const stride = Math.max(1, Math.floor(opts.conversations / (opts.probes ?? 200)));
  const manifest: Manifest = {
    version: 1, generator: GENERATOR_VERSION, seed, conversations: opts.conversations, bytes: 0, now: new Date(CORPUS_NOW).toISOString(),
    workspaces: workspaces.map((w) => w.path), tiers: { short: 0, medium: 0, long: 0, huge: 0 }, agents: Object.fromEntries(AGENTS.map((a) => [a, 0])) as Record<Agent, number>, probes: [],
  };
  // Child seeds are 32-bit: among 50k conversations two would share one (and so a session id and a
  // file) about one time in four. A repeated seed is skipped; conversations before it stay the same.
  const seeds = new Set<number>();
  const lastRun = new Map<string, number>();
  for (let serial = 0; serial < opts.conversations; serial++) {
    // One child generator per conversation: conversation i is the same whatever N is.
    let seedOf = master.u32();
    while (seeds.has(seedOf)) seedOf = master.u32();
    seeds.add(seedOf);
    const rng = createRng(seedOf);
    const agent = pickAgent(rng);
    const tier = pickTier(rng);
    const workspace = rng.skewed(workspaces, 1.5);
    const start = pickStart(rng);
    const sessionId = rng.uuid();
    const idents = rareIdentifiers(rng, serial);
    const voice = createVoice(rng, workspace, idents);
    const w = openConversation({ agent, root: opts.out, workspace: workspace.path, start, sessionId, rng });
    const { title } = writeTurns(w, voice, tier);
    manifest.bytes += w.close();
    manifest.tiers[tier.name]++;
    manifest.agents[agent]++;
    if (agent === 'aider') lastRun.set(w.file, serial);
    if (serial % stride === 0) {
      const file = sessionPath({ agent, root: opts.out, workspace: workspace.path, start, sessionId });
      manifest.probes.push({ serial, agent, sessionId: w.id ?? sessionId, path: file, workspace: workspace.path, tier: tier.name, idents, topic: voice.topic, title });
    }
    if (opts.onProgress && serial % 500 === 499) opts.onProgress(serial + 1, manifest.bytes);
  }
  // An append to an Aider history goes on its last run: a probe (appended to by the live figures)
  // must be the last run of its file.
  manifest.probes = manifest.probes.filter((p) => p.agent !== 'aider' || lastRun.get(p.path) === p.serial);
  fs.writeFileSync(path.join(opts.out, 'manifest.json'), JSON.stringify(manifest, null, 1));
  return manifest;
}

export function readManifest(dir: string): Manifest | null {
  try {
    const m = JSON.parse(fs.readFileSync(path.join(dir, 'manifest.json'), 'utf8')) as Manifest;
    return m.version === 1 ? m : null;
  } catch {
    return null;
  }
}

/** Reuses a corpus already on disk when it was written with the same size and seed. */
export function ensureCorpus(n: number, seed: number, dir = defaultCorpusDir(n), log: (s: string) => void = () => undefined): Manifest {
  const have = readManifest(dir);
  if (have && have.conversations === n && have.seed === seed && have.generator === GENERATOR_VERSION) return have;
  log(`writing a ${n}-conversation corpus to ${dir} …`);
  const t0 = performance.now();
  const m = generateCorpus({ conversations: n, out: dir, seed });
  log(`  ${(m.bytes / 1048576).toFixed(0)} MB in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  return m;
}

function main(): void {
  const { values } = parseArgs({
    options: { conversations: { type: 'string', short: 'n' }, out: { type: 'string' }, seed: { type: 'string' } },
  });
  const n = Number(values.conversations ?? '1000');
  if (!Number.isInteger(n) || n < 1) throw new Error(`--conversations takes a positive integer (got ${values.conversations})`);
  const out = path.resolve(values.out ?? defaultCorpusDir(n));
  const t0 = performance.now();
  const m = generateCorpus({
    conversations: n,
    out,
    seed: Number(values.seed ?? '1'),
    onProgress: (done, bytes) => process.stderr.write(`\r${done}/${n} conversations, ${(bytes / 1048576).toFixed(0)} MB`),
  });
  const secs = (performance.now() - t0) / 1000;
  process.stderr.write('\n');
  console.log(
    `wrote ${n} conversations (${(m.bytes / 1048576).toFixed(1)} MB; ${JSON.stringify(m.tiers)}; ${JSON.stringify(m.agents)}) ` +
      `to ${out} in ${secs.toFixed(1)} s (${(m.bytes / 1048576 / secs).toFixed(0)} MB/s)`,
  );
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
