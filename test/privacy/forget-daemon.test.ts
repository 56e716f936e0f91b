// Issue 11 §1 with `throughline serve` running (a real daemon process, watching a fake HOME): a CLI
// `forget FILE` is not undone by the watcher, a forgotten pushed conversation is not recreated by
// ingest.append, and a settings change is applied before the daemon's next answer.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectRpc, type RpcClient } from '../../src/main/client/socket-client.js';
import { BIN } from '../server/helpers.js';
import { fakeHome, importFile, piSession, type AgentFile, type FakeHome } from './home.js';

let home: FakeHome;
let daemon: ChildProcess;
let rpc: RpcClient;
let pi: AgentFile;
let control: AgentFile;

async function until<T>(what: string, probe: () => Promise<T | null | undefined | false>, ms = 20_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const found = async (word: string) => (await rpc.call('recall_conversations', { query: word, workspace: 'all' })).hits.map((h) => h.id);

beforeAll(async () => {
  home = fakeHome();
  pi = piSession(home);
  control = importFile(home, 'control-conv', '/open/control');
  daemon = spawn(process.execPath, [BIN, 'serve'], { env: { ...process.env, ...home.env, THROUGHLINE_DB: '', THROUGHLINE_SETTINGS: '', THROUGHLINE_SOCKET: '' }, stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  daemon.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  await until('the daemon to serve', async () => err.includes('serving agents') || (daemon.exitCode !== null && Promise.reject(new Error(err))));
  rpc = await connectRpc(path.join(home.dir, 'run', 'throughline', 'agent.sock'));
  await until('the first scan', async () => (await rpc.call('status', {})).conversations >= 2);
}, 60_000);

afterAll(async () => {
  rpc?.close();
  if (daemon && daemon.exitCode === null) {
    daemon.kill('SIGTERM');
    await new Promise((r) => daemon.once('exit', r));
  }
  fs.rmSync(home.dir, { recursive: true, force: true });
});

describe('with the daemon running', () => {
  it('a CLI `forget FILE` is not undone by the watcher when the file grows', async () => {
    const forgot = await home.cli(['forget', pi.file]);
    expect(forgot.code, forgot.out).toBe(0);
    pi.append('zyxwatchedword written after the forget');
    control.append('zyxcontrolword');
    // The watcher has seen both files once the control word is searchable.
    await until('the watcher to index the control file', async () => (await found('zyxcontrolword')).length > 0);
    await new Promise((r) => setTimeout(r, 500));
    expect(await found('zyxwatchedword')).toEqual([]);
    expect((await rpc.call('status', {})).conversations).toBe(1);
  });

  it('a forgotten pushed conversation is not recreated by ingest.append', async () => {
    const first = await rpc.call('ingest.append', { conversation: { id: 'pushed-1', workspace: '/open/pushed' }, entries: [{ role: 'user', text: 'zyxpushedfirst' }] });
    expect(first.conversation).toBeGreaterThan(0);
    expect((await home.cli(['forget', 'pushed-1'])).code).toBe(0);
    const again = await rpc.call('ingest.append', { conversation: { id: 'pushed-1', workspace: '/open/pushed' }, entries: [{ role: 'user', text: 'zyxpushedagain' }] });
    expect(again).toEqual({ conversation: null, entries: 0, excluded: 'session:pushed-1' });
    expect(await found('zyxpushedagain')).toEqual([]);
    expect(await found('zyxpushedfirst')).toEqual([]);
  });

  it('applies an exclusion written into settings.json before its next answer', async () => {
    expect(await found('zyxcontrolword')).toHaveLength(1);
    fs.writeFileSync(home.settings, JSON.stringify({ ...JSON.parse(fs.readFileSync(home.settings, 'utf8')), exclusions: ['/open/control'] }));
    expect(await found('zyxcontrolword')).toEqual([]);
    control.append('zyxcontrolafter');
    await new Promise((r) => setTimeout(r, 1500));
    expect(await found('zyxcontrolafter')).toEqual([]);
  });
});
