// Issue 11 §4: a FIFO (or a link to one, or any non-regular file) among the session files must not
// freeze `index` or the daemon: it is recorded and skipped, and everything else is indexed. Real
// FIFOs (mkfifo), real processes.
import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { connectRpc } from '../../src/main/client/socket-client.js';
import { BIN } from '../server/helpers.js';
import { claudeSession, fakeHome, type FakeHome } from './home.js';

let home: FakeHome | null = null;
let daemon: ChildProcess | null = null;
afterEach(async () => {
  if (daemon && daemon.exitCode === null && daemon.signalCode === null) {
    daemon.kill('SIGKILL');
    await new Promise((r) => daemon!.once('exit', r));
  }
  daemon = null;
  if (home) fs.rmSync(home.dir, { recursive: true, force: true });
  home = null;
});

/** A fake HOME with one real Claude Code session and, beside it, traps: a FIFO, a link to a FIFO and a FIFO sidecar. */
function trappedHome(): FakeHome {
  const h = fakeHome();
  const real = claudeSession(h);
  const folder = path.dirname(real.file);
  execFileSync('mkfifo', [path.join(h.dir, 'trap.fifo')]);
  execFileSync('mkfifo', [path.join(folder, 'fifo-session.jsonl')]);
  fs.symlinkSync(path.join(h.dir, 'trap.fifo'), path.join(folder, 'linked-session.jsonl'));
  // A sub-agent transcript whose .meta.json (read for the agent's type) is a FIFO.
  const subagents = path.join(folder, path.basename(real.file, '.jsonl'), 'subagents');
  fs.mkdirSync(subagents, { recursive: true });
  fs.copyFileSync(real.file, path.join(subagents, 'agent-abc123.jsonl'));
  execFileSync('mkfifo', [path.join(subagents, 'agent-abc123.meta.json')]);
  return h;
}

const env = (h: FakeHome) => ({ ...process.env, ...h.env, THROUGHLINE_DB: '', THROUGHLINE_SETTINGS: '', THROUGHLINE_SOCKET: '' });

describe('non-regular files among the sessions', () => {
  it('`index` finishes, reports them and indexes the rest', () => {
    home = trappedHome();
    const r = spawnSync(process.execPath, [BIN, 'index', '--json'], { env: env(home), encoding: 'utf8', timeout: 60_000 });
    expect(r.signal, 'index was killed by the timeout: it hung').toBe(null);
    expect(r.status, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as { errors: { path: string; reason: string }[]; conversations: number; subagents: number };
    // The session and its sub-agent (whose type sidecar is the FIFO).
    expect([out.conversations, out.subagents]).toEqual([1, 1]);
    const flagged = out.errors.filter((e) => /not a regular file/.test(e.reason)).map((e) => path.basename(e.path)).sort();
    expect(flagged).toEqual(['fifo-session.jsonl', 'linked-session.jsonl']);
  }, 90_000);

  it('the daemon keeps answering while they sit in a watched folder', async () => {
    home = trappedHome();
    daemon = spawn(process.execPath, [BIN, 'serve'], { env: env(home), stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    daemon.stderr!.on('data', (d: Buffer) => (err += d.toString()));
    const end = Date.now() + 30_000;
    while (!err.includes('serving agents')) {
      if (Date.now() > end || daemon.exitCode !== null) throw new Error(`daemon did not start: ${err}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    const rpc = await connectRpc(path.join(home.dir, 'run', 'throughline', 'agent.sock'), { timeoutMs: 5000 });
    try {
      // Both real transcripts (2 entries each) indexed: the scan went past every trap.
      let status = await rpc.call('status', {});
      while (status.entries < 4 && Date.now() < end) {
        await new Promise((r) => setTimeout(r, 200));
        status = await rpc.call('status', {});
      }
      expect(status.entries).toBe(4);
      // A new FIFO appearing while it watches is skipped the same way.
      execFileSync('mkfifo', [path.join(home.dir, '.claude', 'projects', '-Users-testuser-worktrees', 'late-fifo.jsonl')]);
      await new Promise((r) => setTimeout(r, 1000));
      expect((await rpc.call('status', {})).entries).toBe(4);
      expect((await rpc.call('recall_conversations', { query: 'summarize', workspace: 'all' })).hits.length).toBeGreaterThan(0);
    } finally {
      rpc.close();
    }
  }, 90_000);
});
