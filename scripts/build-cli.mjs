#!/usr/bin/env node
// Bundles the CLI (and daemon, MCP server, hook) into one ES module for the user's Node, so a
// command starts in a fraction of the time running the TypeScript sources through tsx takes.
// Runs on `npm install` / `npm ci` (prepare); bin/throughline.mjs falls back to the sources when
// the bundle is missing or older than them.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
await build({
  entryPoints: [path.join(root, 'src/main/cli/main.ts')],
  outdir: path.join(root, '.build'),
  entryNames: 'cli',
  chunkNames: 'chunks/[name]-[hash]',
  outExtension: { '.js': '.mjs' },
  // Commands load their modules on demand (the MCP SDK alone takes longer to load than the
  // daemon needs to answer): splitting keeps those imports lazy in the bundle too.
  splitting: true,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  sourcemap: 'linked',
  logLevel: 'warning',
});
