// The Claude Code hook as Claude Code runs it: a new process on every prompt. Timed side by side
// with `node -e 0` (round-robin, so a machine that slows down slows all three alike): a later
// prompt (reads the transcript head, prints nothing) and a first prompt answered by the daemon.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { Manifest } from './corpus.js';
import { latency, type Latency } from './lib-stats.js';

export interface HookFigures {
  /** What ran: the hook's own bundle, or the sources through tsx (a stale or missing bundle). */
  runs: 'bundle' | 'sources (tsx)';
  node: Latency;
  laterPrompt: Latency;
  firstPrompt: Latency;
  /** How many first-prompt runs printed a pointer block (they should all answer through the daemon). */
  firstWithBlock: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function timed(args: string[], input: string, env: NodeJS.ProcessEnv): { ms: number; stdout: string } {
  const t0 = performance.now();
  const r = spawnSync(process.execPath, args, { input, env, encoding: 'utf8' });
  return { ms: performance.now() - t0, stdout: r.stdout ?? '' };
}

function hookBundleFresh(root: string): boolean {
  try {
    const built = fs.statSync(path.join(root, '.build', 'hook.mjs')).mtimeMs;
    const inputs = JSON.parse(fs.readFileSync(path.join(root, '.build', 'hook.inputs.json'), 'utf8')) as string[];
    return inputs.every((f) => fs.statSync(path.join(root, f)).mtimeMs <= built);
  } catch {
    return false;
  }
}

export interface HookEnv {
  root: string;
  dbPath: string;
  work: string;
  /** Rebuild a stale bundle first (not in --quick: tests running the CLI could read it half-written). */
  rebuild: boolean;
}

export async function hookLatency(env: HookEnv, m: Manifest, rounds: number): Promise<HookFigures | string> {
  const bin = path.join(env.root, 'bin', 'throughline.mjs');
  if (env.rebuild && !hookBundleFresh(env.root)) spawnSync(process.execPath, [path.join(env.root, 'scripts', 'build-cli.mjs')], { cwd: env.root, stdio: 'ignore' });
  const runs = hookBundleFresh(env.root) ? 'bundle' : 'sources (tsx)';
  const socket = path.join(env.work, 'hook.sock');
  const settings = path.join(env.work, 'hook-settings.json');
  fs.writeFileSync(settings, '{}');
  const childEnv: NodeJS.ProcessEnv = { ...process.env, THROUGHLINE_SETTINGS: settings, XDG_STATE_HOME: path.join(env.work, 'state') };
  delete childEnv.THROUGHLINE_TOKEN;
  const daemon = spawn(process.execPath, [bin, 'serve', '--db', env.dbPath, '--socket', socket, '--no-watch', '--log', path.join(env.work, 'hook-daemon.log')], {
    env: childEnv,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  daemon.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  try {
    for (let t = 0; !stderr.includes('serving agents'); t++) {
      if (daemon.exitCode !== null || t > 600) return `daemon did not start: ${stderr.trim().slice(0, 200)}`;
      await sleep(50);
    }
    // A later prompt: the transcript already holds one.
    const transcript = path.join(env.work, 'hook-transcript.jsonl');
    fs.writeFileSync(transcript, JSON.stringify({ type: 'user', message: { role: 'user', content: 'an earlier prompt' } }) + '\n');
    const args = [bin, 'hook', 'claude', '--db', env.dbPath, '--socket', socket];
    const node: number[] = [];
    const later: number[] = [];
    const first: number[] = [];
    let firstWithBlock = 0;
    for (let i = 0; i < rounds; i++) {
      const p = m.probes[i % m.probes.length]!;
      const prompt = `${p.topic.join(' ')} in ${p.idents[0]}`;
      const input = (extra: object) => JSON.stringify({ session_id: `bench-${i}`, cwd: p.workspace, hook_event_name: 'UserPromptSubmit', prompt, ...extra });
      node.push(timed(['-e', '0'], '', childEnv).ms);
      later.push(timed(args, input({ transcript_path: transcript }), childEnv).ms);
      const f = timed(args, input({ transcript_path: path.join(env.work, `none-${i}.jsonl`) }), childEnv);
      first.push(f.ms);
      if (f.stdout.includes('additionalContext')) firstWithBlock++;
    }
    return { runs, node: latency(node), laterPrompt: latency(later), firstPrompt: latency(first), firstWithBlock };
  } finally {
    daemon.kill('SIGTERM');
    await new Promise((r) => (daemon.exitCode !== null ? r(null) : daemon.once('exit', r)));
  }
}
