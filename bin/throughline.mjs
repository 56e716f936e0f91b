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
 * Whether `bundle` is newer than every source file it holds, listed beside it by
 * scripts/build-cli.mjs: a known list is stat-ed instead of walking src/ (the walk took 7-40 ms of
 * every command's start, the daemon's first answer included). A stale or missing bundle, or no list,
 * is not fresh: the sources run through tsx.
 */
function isFresh(bundleFile, inputsFile) {
  try {
    const built = fs.statSync(bundleFile).mtimeMs;
    const inputs = JSON.parse(fs.readFileSync(path.join(root, '.build', inputsFile), 'utf8'));
    // The listed paths are relative and normalized: joined by hand, not by path.join, whose
    // normalizing of ~180 paths took 6-18 ms of a start against 1 ms for the stats themselves.
    const base = root + path.sep;
    return inputs.every((file) => fs.statSync(base + file).mtimeMs <= built);
  } catch {
    return false;
  }
}

/** `hook --help` (or -h) asks for the command's help, which the CLI prints; the hook's bundle only runs hooks. */
const asksHelp = (args) => args.some((a) => a === '--help' || a === '-h');

// Agents run the hook on every prompt: its own bundle when current, else it falls through to the CLI below.
if (process.argv[2] === 'hook' && !asksHelp(process.argv.slice(3)) && isFresh(hookBundle, 'hook.inputs.json')) {
  try {
    await (await import(pathToFileURL(hookBundle).href)).hookMain(process.argv.slice(3));
  } catch (err) {
    process.stderr.write(`throughline hook: ${err?.message ?? err}; doing nothing\n`);
    process.exit(0);
  }
}

async function load() {
  if (isFresh(bundle, 'cli.inputs.json')) return (await import(pathToFileURL(bundle).href)).main;
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
