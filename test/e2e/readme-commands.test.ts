// The README's two commands, run as written on a clean clone: `npm install && npx throughline serve --ui`
// must give a working UI in a browser, and `npm install && npm start` must either reach Electron or
// stop at once with one line on how to get it.
//
// What this covers, honestly: the clone is a real `git clone` of this repository's committed HEAD
// (uncommitted edits are not in it), and everything after `npm install` runs for real in it (`npx
// throughline serve --ui` literally, from the README's text; `npm start` literally). `npm install`
// itself is replaced by what it does to this project beyond fetching packages: node_modules is a link
// to this checkout's (a real install is minutes of downloads and a native build, and needs network
// this test machine may not have), then the lifecycle scripts npm runs for the root package
// (preinstall, install, postinstall, prepare…) run with `npm run`. The real `npm ci` is in `.ci/run`,
// which CI runs before `npm test`.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { electronBinary } from '../../scripts/desktop-check.mjs';
import { chromiumMissing, launchChromium, SKIP_MESSAGE } from './browser.js';
import { REPO } from './harness.js';

const suite = chromiumMissing() ? describe.skip : describe;
if (chromiumMissing()) console.warn(SKIP_MESSAGE);

/** The command lines of the README's "Two commands" block, comments dropped. */
function readmeCommands(): string[] {
  const readme = fs.readFileSync(path.join(REPO, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## Two commands'));
  const block = /```sh\n([\s\S]*?)```/.exec(section)![1]!;
  return block
    .split('\n')
    .map((l) => l.replace(/#.*/, '').trim())
    .filter(Boolean);
}

/** The lifecycle scripts `npm install` runs for the root package, in npm's order. */
const INSTALL_SCRIPTS = ['preinstall', 'install', 'postinstall', 'prepublish', 'preprepare', 'prepare', 'postprepare'];

/** An environment that sees only the temporary HOME: no XDG or Throughline overrides of the test run. */
function cleanEnv(home: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (!/^(XDG_|THROUGHLINE_|CLAUDE_CONFIG_DIR|CODEX_HOME|PI_CODING_AGENT_DIR|npm_|ELECTRON_)/i.test(k)) env[k] = v;
  }
  return { ...env, HOME: home, CI: process.env.CI ?? '' };
}

function shell(command: string, cwd: string, env: NodeJS.ProcessEnv): ChildProcess {
  // Its own process group, so the npx → node chain is stopped as one.
  return spawn('sh', ['-c', command], { cwd, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
}

suite('the README’s commands on a clean clone', () => {
  let dir: string;
  let clone: string;
  let env: NodeJS.ProcessEnv;
  const started: ChildProcess[] = [];

  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tl-readme-'));
    clone = path.join(dir, 'throughline');
    env = cleanEnv(path.join(dir, 'home'));
    fs.mkdirSync(env.HOME!);
    const git = spawnSync('git', ['clone', '--quiet', REPO, clone], { encoding: 'utf8' });
    expect(git.status, git.stderr).toBe(0);
    fs.symlinkSync(fs.realpathSync(path.join(REPO, 'node_modules')), path.join(clone, 'node_modules'));
    const scripts = (JSON.parse(fs.readFileSync(path.join(clone, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
    for (const name of INSTALL_SCRIPTS.filter((n) => scripts[n])) {
      const run = spawnSync('npm', ['run', name], { cwd: clone, env, encoding: 'utf8' });
      expect(run.status, `npm run ${name}: ${run.stdout}${run.stderr}`).toBe(0);
    }
  }, 240_000);

  afterAll(() => {
    for (const child of started) if (child.exitCode === null && child.signalCode === null) process.kill(-child.pid!, 'SIGTERM');
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('lists the two commands', () => {
    expect(readmeCommands()).toEqual(['npm install && npx throughline serve --ui', 'npm install && npm start']);
  });

  it('`npx throughline serve --ui` serves the built UI, which loads in Chromium', async () => {
    const command = readmeCommands()[0]!.replace(/^npm install && /, '');
    const child = shell(command, clone, env);
    started.push(child);
    let stdout = '';
    let stderr = '';
    child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no address within 90 s; stderr: ${stderr}`)), 90_000);
      child.stdout!.on('data', (d: Buffer) => {
        stdout += d.toString();
        const m = /http:\/\/127\.0\.0\.1:\d+\/\?token=\S+/.exec(stdout);
        if (m) {
          clearTimeout(timer);
          resolve(m[0]);
        }
      });
      child.on('exit', (code) => reject(new Error(`exited ${code}: ${stderr}`)));
    });
    // The install built the UI: serve has nothing to build and nothing to complain about.
    expect(stderr).not.toMatch(/Building the UI|cannot be built|not been built/);
    expect(fs.existsSync(path.join(clone, 'out', 'renderer-web', 'index.html'))).toBe(true);

    const browser = await launchChromium();
    try {
      const page = await browser.newPage();
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));
      const response = await page.goto(url);
      expect(response?.status()).toBe(200);
      await page.waitForSelector('.nav', { timeout: 30_000 });
      expect(await page.textContent('body')).not.toContain('has not been built');
      await expect.poll(() => page.locator('.nav').textContent()).toContain('Conversations');
      expect(errors).toEqual([]);
    } finally {
      await browser.close();
    }
  }, 180_000);

  it('`npm start` without Electron’s binary stops at once with one line on how to get it', async (ctx) => {
    const electronDir = path.join(clone, 'node_modules', 'electron');
    // With the binary present npm start would open the app: nothing to check here then.
    if (electronBinary(electronDir, {})) return ctx.skip();
    // A fetch that must fail fast, whatever the network: a closed port as the mirror, an empty cache.
    const startEnv = { ...env, ELECTRON_MIRROR: 'http://127.0.0.1:9/', electron_config_cache: path.join(dir, 'electron-cache') };
    const t0 = Date.now();
    const run = spawnSync('sh', ['-c', readmeCommands()[1]!.replace(/^npm install && /, '')], { cwd: clone, env: startEnv, encoding: 'utf8', timeout: 60_000 });
    const seconds = (Date.now() - t0) / 1000;
    expect(run.status).not.toBe(0);
    // Nothing slow ran before the check: no better-sqlite3 build for Electron, no electron-vite.
    expect(run.stdout + run.stderr).not.toMatch(/electron-native: |building better-sqlite3|> electron-vite|Electron uninstall/);
    const ours = run.stderr.split('\n').filter((l) => l.includes('binary is not installed'));
    expect(ours).toHaveLength(1);
    expect(ours[0]).toMatch(/binary is not installed/);
    expect(ours[0]).toContain('node node_modules/electron/install.js');
    expect(ours[0]).toContain('npx throughline serve --ui');
    expect(seconds).toBeLessThan(30);
  }, 90_000);
});
