#!/usr/bin/env node
// Bundles the CLI (and daemon, MCP server, hook) into ES modules for the user's Node, so a command
// starts in a fraction of the time running the TypeScript sources through tsx takes. Runs on
// `npm install` / `npm ci` (prepare); bin/throughline.mjs falls back to the sources when a bundle is
// missing or older than them.
//
// Three entry points: the CLI (.build/cli.mjs), the turn-start hook (.build/hook.mjs), which agents
// run on every prompt and which must load only what its common path needs, and the daemon's reader
// thread (.build/read-worker.mjs, started by src/main/api/read-pool.ts, which looks for it here). Beside the hook,
// .build/hook.inputs.json lists the source files its bundle holds (loaded at once or on demand), and
// .build/cli.inputs.json those of the CLI and the reader thread, so bin/throughline.mjs can check a
// bundle is current by stat-ing those instead of walking src/.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
// Another folder may be named (test/cli/hook-help.test.ts builds one beside a copy of bin/).
const outdir = path.resolve(process.argv[2] ?? path.join(root, '.build'));
const result = await build({
  entryPoints: {
    cli: path.join(root, 'src/main/cli/main.ts'),
    hook: path.join(root, 'src/main/hook/main.ts'),
    'read-worker': path.join(root, 'src/main/api/read-worker.ts'),
  },
  outdir,
  chunkNames: 'chunks/[name]-[hash]',
  outExtension: { '.js': '.mjs' },
  // Commands load their modules on demand (the MCP SDK alone takes longer to load than the
  // daemon needs to answer): splitting keeps those imports lazy in the bundle too.
  splitting: true,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  // Packages stay outside the bundle (resolved from node_modules at run time), but zod: loaded as its
  // ~20 files, module by module, it took ~110 ms of the daemon's CPU before its first answer at 10k
  // (BENCHMARKS.md, issue 16). Only modules that use it load its chunk; the hook's common path does not.
  plugins: [
    {
      name: 'packages-external-but-zod',
      setup(b) {
        b.onResolve({ filter: /^[^./]/ }, (args) => (args.path === 'zod' || args.path.startsWith('zod/') ? undefined : { path: args.path, external: true }));
      },
    },
  ],
  sourcemap: 'linked',
  metafile: true,
  logLevel: 'warning',
});

/** Every source file in the output graph of `entry`, following static and dynamic imports. */
function inputsOf(entry) {
  const outputs = result.metafile.outputs;
  const seen = new Set();
  const inputs = new Set();
  const visit = (out) => {
    if (seen.has(out) || !outputs[out]) return;
    seen.add(out);
    // The project's own sources: a package (zod) changes only through npm install, which bundles again.
    for (const input of Object.keys(outputs[out].inputs)) if (!input.includes('node_modules')) inputs.add(path.relative(root, path.resolve(process.cwd(), input)));
    for (const imp of outputs[out].imports) if (!imp.external) visit(imp.path);
  };
  visit(entry);
  return [...inputs].sort();
}

const output = (name) => Object.keys(result.metafile.outputs).find((o) => o.endsWith(name));
fs.writeFileSync(path.join(outdir, 'hook.inputs.json'), JSON.stringify(inputsOf(output('hook.mjs')), null, 1) + '\n');
// The CLI's list holds its reader thread's sources too: a daemon run from the bundle starts that bundle's worker.
const cliInputs = new Set([...inputsOf(output('cli.mjs')), ...inputsOf(output('read-worker.mjs'))]);
fs.writeFileSync(path.join(outdir, 'cli.inputs.json'), JSON.stringify([...cliInputs].sort(), null, 1) + '\n');
