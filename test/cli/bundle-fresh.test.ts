// bin/throughline.mjs runs the CLI from its bundle (.build/cli.mjs) while that is newer than every
// source file it holds, and from the sources through tsx once one of those is edited. It tells by
// stat-ing the list scripts/build-cli.mjs writes beside the bundle (.build/cli.inputs.json), not by
// walking src/ (7-40 ms of every command's start: the daemon's first answer waited for it). Each case
// runs the real bin from a copy of the project's layout (bin/ and src/ copied, node_modules linked).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = path.resolve(__dirname, '../..');
// A command's summary, as it reads in the sources and in the bundle (where esbuild escapes the ’ before it).
const SUMMARY = 'session files (incremental)';
const COMMANDS = path.join('src', 'main', 'cli', 'index-commands.ts');

let tmp: string;

function layout(): string {
  const root = path.join(tmp, 'project');
  fs.mkdirSync(path.join(root, 'bin'), { recursive: true });
  fs.copyFileSync(path.join(ROOT, 'bin', 'throughline.mjs'), path.join(root, 'bin', 'throughline.mjs'));
  fs.cpSync(path.join(ROOT, 'src'), path.join(root, 'src'), { recursive: true });
  fs.copyFileSync(path.join(ROOT, 'package.json'), path.join(root, 'package.json'));
  fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(root, 'node_modules'));
  fs.symlinkSync(path.join(ROOT, 'resources'), path.join(root, 'resources'));
  const r = spawnSync(process.execPath, [path.join(ROOT, 'scripts', 'build-cli.mjs'), path.join(root, '.build')], { encoding: 'utf8', timeout: 120_000 });
  expect(r.status, r.stderr).toBe(0);
  return root;
}

function help(root: string): string {
  const env = { ...process.env, HOME: tmp, XDG_STATE_HOME: path.join(tmp, 'state') };
  const r = spawnSync(process.execPath, [path.join(root, 'bin', 'throughline.mjs'), '--help'], { env, encoding: 'utf8', timeout: 60_000 });
  expect(r.status, r.stderr).toBe(0);
  return r.stdout;
}

/** Replaces `from` by `to` in a file, its mtime then set `ms` from now. */
function edit(file: string, from: string, to: string, ms: number): void {
  const text = fs.readFileSync(file, 'utf8');
  expect(text).toContain(from);
  fs.writeFileSync(file, text.replace(from, to));
  const at = new Date(Date.now() + ms);
  fs.utimesSync(file, at, at);
}

describe('bin/throughline.mjs: bundle or sources', () => {
  beforeAll(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'tl-bundle-fresh-'));
  });
  afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

  it('runs the bundle while it is current, and the sources once a source it holds is edited', () => {
    const root = layout();
    expect(JSON.parse(fs.readFileSync(path.join(root, '.build', 'cli.inputs.json'), 'utf8'))).toContain(COMMANDS.split(path.sep).join('/'));
    // What runs is told by a text only the bundle has: the bundle's copy of the summary, edited (its mtime moves on, so it stays current).
    edit(path.join(root, '.build', 'cli.mjs'), SUMMARY, 'from the bundle', 1000);
    expect(help(root)).toContain('from the bundle');
    // A source file the bundle holds, edited after it was built: the sources run.
    edit(path.join(root, COMMANDS), SUMMARY, 'from the sources', 60_000);
    const out = help(root);
    expect(out).toContain('from the sources');
    expect(out).not.toContain('from the bundle');
  }, 240_000);
});
