#!/usr/bin/env node
// Builds better-sqlite3 for Electron's ABI into out/native/, apart from node_modules (which keeps the
// Node build the CLI and the tests load). The app passes out/native/better_sqlite3.node to
// better-sqlite3 as its `nativeBinding`; packaging copies the folder into the app's resources.
//
//   node scripts/electron-native.mjs [--force] [--strict] [--arch x64|arm64]
//
// It first tries a prebuilt binary (prebuild-install, as better-sqlite3's own install does), then a
// source build against Electron's headers (node-gyp). Both download; where that is impossible (an
// offline machine, CI without network) it says so and exits 0 so `npm start` still reaches Electron
// with a clear message — unless --strict (packaging), where a missing binary is an error.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(path.join(root, 'package.json'));
const args = process.argv.slice(2);
const force = args.includes('--force');
const strict = args.includes('--strict');
const archAt = args.indexOf('--arch');
const arch = archAt >= 0 ? args[archAt + 1] : process.arch;
const platform = process.platform;

const outDir = path.join(root, 'out', 'native');
const outFile = path.join(outDir, 'better_sqlite3.node');
const stampFile = path.join(outDir, 'stamp.json');

function say(message) {
  process.stdout.write(`electron-native: ${message}\n`);
}

function version(pkg) {
  return JSON.parse(fs.readFileSync(require.resolve(`${pkg}/package.json`), 'utf8')).version;
}

function run(cmd, cmdArgs, cwd) {
  const result = spawnSync(process.execPath, [cmd, ...cmdArgs], { cwd, stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8', timeout: 10 * 60_000 });
  return { ok: result.status === 0, output: `${result.stdout ?? ''}${result.stderr ?? ''}`.trim() };
}

function bin(pkg, file) {
  return path.join(path.dirname(require.resolve(`${pkg}/package.json`)), file);
}

const electron = version('electron');
const sqlite = version('better-sqlite3');
const wanted = { electron, platform, arch, betterSqlite3: sqlite };

if (!force && fs.existsSync(outFile) && fs.existsSync(stampFile)) {
  const stamp = JSON.parse(fs.readFileSync(stampFile, 'utf8'));
  if (Object.entries(wanted).every(([k, v]) => stamp[k] === v)) {
    say(`better-sqlite3 ${sqlite} for Electron ${electron} (${platform}-${arch}) is up to date.`);
    process.exit(0);
  }
}

// Build in a scratch copy, never in node_modules: rebuilding there would swap out the Node build.
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'throughline-native-'));
const src = path.dirname(require.resolve('better-sqlite3/package.json'));
for (const entry of ['package.json', 'binding.gyp', 'src', 'deps', 'lib']) {
  fs.cpSync(path.join(src, entry), path.join(work, entry), { recursive: true });
}
const built = path.join(work, 'build', 'Release', 'better_sqlite3.node');

say(`building better-sqlite3 ${sqlite} for Electron ${electron} (${platform}-${arch})…`);
const attempts = [
  ['prebuilt binary', bin('prebuild-install', 'bin.js'), ['--runtime=electron', `--target=${electron}`, `--arch=${arch}`, `--platform=${platform}`, '--verbose']],
  ['source build', bin('node-gyp', 'bin/node-gyp.js'), ['rebuild', '--release', `--target=${electron}`, `--arch=${arch}`, '--dist-url=https://electronjs.org/headers']],
];
const failures = [];
for (const [label, cmd, cmdArgs] of attempts) {
  if (!fs.existsSync(cmd)) {
    failures.push(`${label}: ${cmd} not found`);
    continue;
  }
  const result = run(cmd, cmdArgs, work);
  if (result.ok && fs.existsSync(built)) {
    fs.mkdirSync(outDir, { recursive: true });
    fs.copyFileSync(built, outFile);
    fs.writeFileSync(stampFile, JSON.stringify({ ...wanted, via: label, at: new Date().toISOString() }, null, 2) + '\n');
    fs.rmSync(work, { recursive: true, force: true });
    say(`done (${label}): ${path.relative(root, outFile)}`);
    process.exit(0);
  }
  // The reason, not the banner: the first lines that name an error.
  const lines = result.output.split('\n');
  const why = lines.filter((l) => /error|ENOTFOUND|EAI_AGAIN|ECONN|ETIMEDOUT|not found/i.test(l) && !/node -v|node-gyp -v/.test(l)).slice(0, 2);
  failures.push(`${label}: ${(why.length ? why : lines.slice(-2)).join(' | ').trim() || 'failed'}`);
}
fs.rmSync(work, { recursive: true, force: true });

say('could not build better-sqlite3 for Electron here.');
for (const f of failures) say(`  ${f}`);
say('Both ways download (a prebuilt binary from GitHub, or Electron headers from electronjs.org).');
say('On a machine with network access run `node scripts/electron-native.mjs`; until then the app');
say('will say at start that its index cannot be opened. The CLI and the tests are unaffected.');
process.exit(strict ? 1 : 0);
