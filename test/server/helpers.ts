// Shared by the agent-transport tests: a real index built from the fixtures (plus two conversations
// in workspaces A and B, pushed through ingest.append), the daemon as a child process, and a raw
// line-oriented socket client.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createCore } from '../../src/main/api/core.js';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const BIN = path.join(ROOT, 'bin', 'throughline.mjs');
export const FIXTURES = path.join(ROOT, 'test', 'fixtures');

export const WS_A = '/work/projects/alpha';
export const WS_B = '/work/projects/beta';
/** A word only the A and B conversations hold. */
export const SHARED_TERM = 'zanzibarflamingo';

/** A private (0700) temporary folder with a short path: Unix socket paths are limited to ~107 bytes. */
export function tempDir(prefix = 'tl-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

export interface TestIndex {
  dir: string;
  dbPath: string;
  settingsPath: string;
  /** Conversation ids of the A and B conversations. */
  a: number;
  b: number;
}

export async function buildIndex(dir = tempDir(), settings: object = {}): Promise<TestIndex> {
  const dbPath = path.join(dir, 'index.sqlite');
  const settingsPath = path.join(dir, 'settings.json');
  fs.writeFileSync(settingsPath, JSON.stringify(settings));
  const core = createCore({
    dbPath,
    settingsPath,
    sources: [
      { kind: 'claude-code', root: path.join(FIXTURES, 'claude-code') },
      { kind: 'codex', root: path.join(FIXTURES, 'codex') },
      { kind: 'pi', root: path.join(FIXTURES, 'pi') },
    ],
  });
  try {
    await core.scan();
    const push = (id: string, workspace: string, words: string) =>
      core.api['ingest.append']({
        conversation: { id, workspace, title: `${words} plan` },
        entries: [
          { role: 'user', text: `Let us plan the ${SHARED_TERM} ${words} together.` },
          { role: 'assistant', text: `The ${SHARED_TERM} ${words} needs three steps: schema, backfill, switch.` },
          { role: 'user', text: `Secret detail for ${words}: the port is 4${words.length}11.` },
        ],
      });
    const a = (await push('conv-alpha', WS_A, 'migration')).conversation!;
    const b = (await push('conv-beta', WS_B, 'rollout')).conversation!;
    return { dir, dbPath, settingsPath, a, b };
  } finally {
    core.close();
  }
}

export interface DaemonProcess {
  proc: ChildProcess;
  socketPath: string;
  stderr(): string;
  /** SIGTERM, then the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** Starts `throughline serve` and resolves once it says it is serving (or rejects with its stderr). */
export function spawnDaemon(index: { dir: string; dbPath: string; settingsPath: string }, extra: string[] = [], socketPath = path.join(index.dir, 'agent.sock')): Promise<DaemonProcess> {
  const proc = spawn(process.execPath, [BIN, 'serve', '--db', index.dbPath, '--socket', socketPath, '--log', path.join(index.dir, 'daemon.log'), '--no-watch', ...extra], {
    env: { ...process.env, THROUGHLINE_SETTINGS: index.settingsPath, XDG_STATE_HOME: index.dir },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let err = '';
  proc.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise<number | null>((resolve) => proc.once('exit', (code) => resolve(code)));
  const handle: DaemonProcess = {
    proc,
    socketPath,
    stderr: () => err,
    async stop(signal = 'SIGTERM') {
      if (proc.exitCode === null && proc.signalCode === null) proc.kill(signal);
      return exited;
    },
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`daemon did not start in time: ${err}`)), 30_000);
    proc.stderr!.on('data', () => {
      if (err.includes('Throughline is serving agents')) {
        clearTimeout(timer);
        resolve(handle);
      }
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`daemon exited (${code}): ${err}`));
    });
  });
}

/** Sends raw bytes and collects `expect` answer lines (parsed), or what arrived before the timeout. */
export function exchange(socketPath: string, payload: string | Buffer, expect: number, timeoutMs = 5000): Promise<unknown[]> {
  return new Promise((resolve, reject) => {
    const s = net.connect(socketPath);
    const got: unknown[] = [];
    let buf = '';
    const finish = () => {
      clearTimeout(timer);
      s.destroy();
      resolve(got);
    };
    const timer = setTimeout(finish, timeoutMs);
    s.setEncoding('utf8');
    s.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    s.on('data', (d: string) => {
      buf += d;
      let nl: number;
      while ((nl = buf.indexOf('\n')) >= 0) {
        got.push(JSON.parse(buf.slice(0, nl)));
        buf = buf.slice(nl + 1);
        if (got.length >= expect) finish();
      }
    });
    s.on('connect', () => s.write(payload));
  });
}

export const req = (id: number | string | null, method: string, params?: unknown): string =>
  JSON.stringify(params === undefined ? { jsonrpc: '2.0', id, method } : { jsonrpc: '2.0', id, method, params }) + '\n';

export interface RpcAnswer {
  id: number | string | null;
  result?: Record<string, unknown>;
  error?: { code: number; message: string; data?: { field?: string } };
}

/** Runs a node script (plain .mjs) and parses the JSON it prints. */
export function runNode(args: string[], options: { env?: NodeJS.ProcessEnv; input?: string; timeoutMs?: number } = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, args, { env: options.env ?? process.env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    proc.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    proc.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => {
      proc.kill('SIGKILL');
      reject(new Error(`timed out: node ${args.join(' ')}\n${stderr}`));
    }, options.timeoutMs ?? 30_000);
    proc.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    proc.stdin.end(options.input ?? '');
  });
}
