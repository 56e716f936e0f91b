// `throughline hook --help` prints the hook's help whether or not the hook has its own bundle.
// bin/throughline.mjs runs `hook …` from .build/hook.mjs when that bundle is fresh, and the bundle
// only runs hooks: it used to take `--help` for an agent's name and print nothing (and
// scripts/assemble-readme.py takes the README's command help from this output). Each case runs the
// real bin/throughline.mjs from a copy of the project's layout (bin/ copied, src/ and node_modules
// linked), with .build/ made by the real scripts/build-cli.mjs, or without one.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = path.resolve(__dirname, '../..');
const HELP_START = 'Usage: throughline hook claude|codex|gemini';

let tmp: string;

/** A project layout whose bin/throughline.mjs is the real one, with or without the bundles. */
function layout(name: string, bundled: boolean): string {
  const root = path.join(tmp, name);
  fs.mkdirSync(path.join(root, 'bin'), { recursive: true });
  fs.copyFileSync(path.join(ROOT, 'bin', 'throughline.mjs'), path.join(root, 'bin', 'throughline.mjs'));
  fs.symlinkSync(path.join(ROOT, 'src'), path.join(root, 'src'));
  fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(root, 'node_modules'));
  if (bundled) {
    const r = spawnSync(process.execPath, [path.join(ROOT, 'scripts', 'build-cli.mjs'), path.join(root, '.build')], { encoding: 'utf8', timeout: 120_000 });
    expect(r.status, r.stderr).toBe(0);
    expect(fs.existsSync(path.join(root, '.build', 'hook.mjs'))).toBe(true);
  }
  return root;
}

function run(root: string, args: string[], input = '') {
  const env = { ...process.env, HOME: tmp, XDG_STATE_HOME: path.join(tmp, 'state') };
  return spawnSync(process.execPath, [path.join(root, 'bin', 'throughline.mjs'), ...args], { env, input, encoding: 'utf8', timeout: 60_000 });
}

describe('throughline hook --help', () => {
  beforeAll(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'tl-hook-help-'));
  });
  afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

  it('with the hook bundle: --help and -h print the help; a hook still runs from the bundle', () => {
    const root = layout('bundled', true);
    for (const flag of ['--help', '-h']) {
      const r = run(root, ['hook', flag]);
      expect(r.status, r.stderr).toBe(0);
      expect(r.stdout.startsWith(HELP_START)).toBe(true);
    }
    const r = run(root, ['hook', 'claude', '--help']);
    expect(r.stdout.startsWith(HELP_START)).toBe(true);
    // Not a prompt's hook JSON: the hook prints nothing and exits 0, as it always does.
    const hook = run(root, ['hook', 'claude'], '{}');
    expect(hook.status).toBe(0);
    expect(hook.stdout).toBe('');
  }, 180_000);

  it('without a bundle (the sources through tsx): the same help', () => {
    const root = layout('sources', false);
    const r = run(root, ['hook', '--help']);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout.startsWith(HELP_START)).toBe(true);
  }, 120_000);
});
