#!/usr/bin/env node
// The CLI. `npm install` bundles it (scripts/build-cli.mjs) for a fast start; when that bundle is
// missing or older than the sources (someone is editing them), the TypeScript sources run through
// tsx instead, so what runs is always what is in src/.
// Built-ins by process.getBuiltinModule rather than `import`: an imported 'node:fs' has its whole
// namespace built, which loads all of stream on every hook run (src/main/builtins.ts).
const fs = process.getBuiltinModule('node:fs');
const path = process.getBuiltinModule('node:path');
const { fileURLToPath, pathToFileURL } = process.getBuiltinModule('node:url');

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bundle = path.join(root, '.build', 'cli.mjs');
const hookBundle = path.join(root, '.build', 'hook.mjs');

/**
 * The hook's bundle, when it is newer than every source file it holds (listed beside it by
 * scripts/build-cli.mjs). Agents run the hook on every prompt, so this check stats a known list
 * instead of walking src/, and a stale or missing bundle falls through to the CLI below.
 */
function hookBundleIsFresh() {
  try {
    const built = fs.statSync(hookBundle).mtimeMs;
    const inputs = JSON.parse(fs.readFileSync(path.join(root, '.build', 'hook.inputs.json'), 'utf8'));
    return inputs.every((file) => fs.statSync(path.join(root, file)).mtimeMs <= built);
  } catch {
    return false;
  }
}

/** `hook --help` (or -h) asks for the command's help, which the CLI prints; the hook's bundle only runs hooks. */
const asksHelp = (args) => args.some((a) => a === '--help' || a === '-h');

if (process.argv[2] === 'hook' && !asksHelp(process.argv.slice(3)) && hookBundleIsFresh()) {
  try {
    await (await import(pathToFileURL(hookBundle).href)).hookMain(process.argv.slice(3));
  } catch (err) {
    process.stderr.write(`throughline hook: ${err?.message ?? err}; doing nothing\n`);
    process.exit(0);
  }
}

function newestSource(dir) {
  let newest = 0;
  for (const item of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, item.name);
    newest = Math.max(newest, item.isDirectory() ? newestSource(full) : fs.statSync(full).mtimeMs);
  }
  return newest;
}

function bundleIsFresh() {
  try {
    const built = fs.statSync(bundle).mtimeMs;
    return built >= newestSource(path.join(root, 'src', 'main')) && built >= newestSource(path.join(root, 'src', 'shared'));
  } catch {
    return false;
  }
}

async function load() {
  if (bundleIsFresh()) return (await import(pathToFileURL(bundle).href)).main;
  const { register } = await import('tsx/esm/api');
  register();
  return (await import('../src/main/cli/main.ts')).main;
}

let main;
try {
  main = await load();
} catch (err) {
  // `hook` runs inside Claude Code on every prompt: a broken install must not fail the prompt.
  if (process.argv[2] !== 'hook') throw err;
  process.stderr.write(`throughline hook: cannot load the CLI (${err?.message ?? err}); doing nothing\n`);
  process.exit(0);
}
process.exitCode = await main(process.argv.slice(2));
