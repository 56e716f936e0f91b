// The CLI as a real process (bin/throughline.mjs): on a real pseudo-terminal (util-linux `script`) it
// prints for a person, in colour unless NO_COLOR; through a pipe it prints the agents' text; and a
// reader that goes away (`| head -1`, `| true`) ends it quietly.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURES } from '../helpers/tmp.js';
import { cli } from './helpers.js';

const ROOT = path.resolve(__dirname, '../..');
const BIN = path.join(ROOT, 'bin', 'throughline.mjs');
const hasScript = spawnSync('script', ['--version'], { encoding: 'utf8' }).status === 0;

let home: string;
let db: string;

function env(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const e: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!/^(NO_COLOR|FORCE_COLOR|THROUGHLINE_|XDG_)/.test(k)) e[k] = v;
  return { ...e, HOME: home, TERM: 'xterm-256color', ...extra };
}

/** Runs the CLI on a pseudo-terminal: `script` gives it one as stdout and copies what it prints. */
function onTerminal(args: string[], extra: Record<string, string> = {}): string {
  const command = ['node', BIN, ...args].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
  const r = spawnSync('script', ['-qec', command, '/dev/null'], { env: env(extra), encoding: 'utf8', timeout: 60_000 });
  expect(r.status, r.stderr).toBe(0);
  return r.stdout.replace(/\r\n/g, '\n');
}

/** Runs the CLI with stdout a pipe whose reader is gone before anything is written. */
function closedReader(args: string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], { env: env(), stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.destroy();
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

describe('the CLI process', () => {
  beforeAll(async () => {
    home = fs.mkdtempSync(path.join(os.tmpdir(), 'tl-process-'));
    db = path.join(home, 'index.sqlite');
    const r = await cli(home, ['index', '--db', db, '--source', `pi=${path.join(FIXTURES, 'pi')}`]);
    expect(r.code, r.err).toBe(0);
  });
  afterAll(() => fs.rmSync(home, { recursive: true, force: true }));

  it.skipIf(!hasScript)('on a terminal: for a person, coloured; NO_COLOR: the same without colour; a pipe: the agents’ text', () => {
    const args = ['search', '--db', db, '--', 'getThemesDir'];
    const coloured = onTerminal(args);
    expect(coloured).toContain('\x1b[1m1 conversation for “getThemesDir”\x1b[22m');
    expect(coloured).toMatch(/\x1b\[1m\x1b\[33mgetThemesDir\x1b\[39m\x1b\[22m/);
    const plain = onTerminal(args, { NO_COLOR: '1' });
    expect(plain).not.toContain('\x1b');
    expect(plain).toBe(coloured.replace(/\x1b\[[0-9;]*m/g, ''));
    const piped = spawnSync(process.execPath, [BIN, ...args], { env: env({ FORCE_COLOR: '1' }), encoding: 'utf8' });
    expect(piped.stdout).toMatch(/^recall_conversations "getThemesDir": 1 conversation\(s\)\./);
    expect(piped.stdout).not.toContain('\x1b');
  }, 120_000);

  it('a reader that went away (| head -1, | true) ends the command quietly, exit 0', async () => {
    for (const args of [['stats', '--db', db], ['search', '--db', db, '--', 'theme'], ['read', '--db', db, '1']]) {
      const r = await closedReader(args);
      expect(r, args[0]).toEqual({ code: 0, stderr: '' });
    }
  }, 120_000);
});
