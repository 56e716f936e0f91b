#!/usr/bin/env node
// `npm start`'s first step: makes sure Electron's binary is there before anything slow runs (the
// better-sqlite3 build for Electron takes minutes). electron 45's package has no postinstall, so
// `npm install` never fetches the binary; this fetches it once (node_modules/electron/install.js,
// through @electron/get, which needs Node ≥ 22.12) and, when that cannot work, says in one line
// how to get it and that `npx throughline serve --ui` shows the same UI without Electron.
//
//   node scripts/desktop-check.mjs        exit 0: the binary is there (fetched if need be); 1: it is not
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

/** The Node version Electron's tooling (electron, @electron/get) declares, and @electron/get needs to load. */
export const DESKTOP_NODE = [22, 12];

const HEADLESS = '`npx throughline serve --ui` shows the same UI in a browser without Electron';

/** Where the binary should be: what electron's own index.js and electron-vite read (path.txt under dist/). */
export function electronBinary(electronDir, env = process.env) {
  if (env.ELECTRON_EXEC_PATH) return fs.existsSync(env.ELECTRON_EXEC_PATH) ? env.ELECTRON_EXEC_PATH : null;
  let rel;
  try {
    rel = fs.readFileSync(path.join(electronDir, 'path.txt'), 'utf8');
  } catch {
    return null;
  }
  const full = path.join(env.ELECTRON_OVERRIDE_DIST_PATH || path.join(electronDir, 'dist'), rel);
  return fs.existsSync(full) ? full : null;
}

export function nodeIsRecentEnough(version = process.versions.node) {
  const [major, minor] = version.split('.').map(Number);
  return major > DESKTOP_NODE[0] || (major === DESKTOP_NODE[0] && minor >= DESKTOP_NODE[1]);
}

/**
 * Checks, and fetches when it can. Returns { ok, message }: message is one line for the person
 * (null when there is nothing to say).
 */
export function checkDesktop({ electronDir, nodeVersion = process.versions.node, env = process.env, say = () => {} }) {
  if (electronBinary(electronDir, env)) return { ok: true, message: null };
  const version = JSON.parse(fs.readFileSync(path.join(electronDir, 'package.json'), 'utf8')).version;
  const fetchCommand = `node ${path.relative(process.cwd(), path.join(electronDir, 'install.js')) || 'install.js'}`;
  if (!nodeIsRecentEnough(nodeVersion)) {
    return {
      ok: false,
      message: `Electron ${version}'s binary is not installed, and fetching it needs Node ≥ ${DESKTOP_NODE.join('.')} (this is ${nodeVersion}): on Node ${DESKTOP_NODE.join('.')}+ with network access run \`npm start\` again (or \`${fetchCommand}\`); meanwhile ${HEADLESS}.`,
    };
  }
  say(`Fetching Electron ${version}'s binary (about 100 MB, once)…`);
  const run = spawnSync(process.execPath, [path.join(electronDir, 'install.js')], { encoding: 'utf8', env, timeout: 15 * 60_000 });
  if (run.status === 0 && electronBinary(electronDir, env)) return { ok: true, message: null };
  const output = `${run.stderr ?? ''}${run.stdout ?? ''}`;
  const reason = output.split('\n').find((l) => /error|fail|ENOTFOUND|EAI_AGAIN|ECONN|ETIMEDOUT/i.test(l))?.trim() || run.error?.message || `exit ${run.status}`;
  return {
    ok: false,
    message: `Electron ${version}'s binary is not installed and could not be fetched (${reason.replace(/^\w*Error:\s*/, '')}): with network access run \`npm start\` again (or \`${fetchCommand}\`); meanwhile ${HEADLESS}.`,
  };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  // The project's own path (not the link's target) is the one to tell a person.
  const local = path.join(root, 'node_modules', 'electron');
  const electronDir = fs.existsSync(path.join(local, 'package.json'))
    ? local
    : path.dirname(createRequire(path.join(root, 'package.json')).resolve('electron/package.json'));
  const result = checkDesktop({ electronDir, say: (line) => process.stdout.write(`${line}\n`) });
  if (result.message) process.stderr.write(`${result.message}\n`);
  process.exit(result.ok ? 0 : 1);
}
