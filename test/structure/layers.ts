// Which part of the source may import which: the layering rule, as a table a test holds the code to
// (after VS Code's code-layering check). A layer imports only the layers listed for it, so a change
// that reaches upward (the store into the api, a transport past the api into the store) fails the
// test instead of drifting in. Imports are read with TypeScript's own pre-processor (static, type-only,
// re-exports and dynamic import() alike), not with a regex that a comment or a string could fool.
import path from 'node:path';
import ts from 'typescript';

export type Layer =
  | 'shared'
  | 'preload'
  | 'renderer'
  | 'base'
  | 'store'
  | 'ingest'
  | 'recall'
  | 'integrations'
  | 'api'
  | 'client'
  | 'server'
  | 'mcp'
  | 'hook'
  | 'app'
  | 'daemon'
  | 'cli'
  | 'entry';

/**
 * What each layer may import besides itself, from the bottom up: shared ← base ← store ← ingest,
 * recall ← api ← transports (server, mcp, hook, app, cli) ← the daemon's assembly and the entry points.
 * `base` is the small node-only modules at the top of src/main (paths, settings, privacy rules, the pid
 * lock); `client` is the socket's client side, which must stay light (no api, no SQLite).
 */
export const ALLOWED: Record<Layer, readonly Layer[]> = {
  shared: [],
  preload: ['shared'],
  renderer: ['shared'],
  base: ['shared'],
  store: ['shared', 'base'],
  ingest: ['shared', 'base', 'store'],
  recall: ['shared', 'base', 'store'],
  // Installing into the agents' config files: below the api, which reports and changes installs.
  integrations: ['shared', 'base'],
  api: ['shared', 'base', 'store', 'ingest', 'recall', 'integrations'],
  client: ['shared', 'base'],
  server: ['shared', 'base', 'api'],
  mcp: ['shared', 'base', 'api', 'client', 'integrations'],
  // The turn-start hooks: through the daemon, else the MCP backend's direct path (same access rules).
  hook: ['shared', 'base', 'client', 'mcp'],
  // The Electron window serves the renderer with the HTTP bridge's static files and security headers.
  app: ['shared', 'base', 'api', 'server'],
  daemon: ['shared', 'base', 'store', 'ingest', 'api', 'server'],
  // The CLI is a transport over the api (install/uninstall too: api/integrations.ts); it names the
  // other transports and the daemon only to start them (serve, mcp, hook).
  cli: ['shared', 'base', 'api', 'server', 'mcp', 'hook', 'daemon'],
  entry: ['shared', 'base', 'store', 'api', 'server', 'app', 'daemon'],
};

/** Only these may import Electron: the core runs under plain Node (the daemon, the CLI, the tests). */
export const ELECTRON_LAYERS: readonly Layer[] = ['app', 'entry', 'preload'];

/** The layer of a file, by its path relative to the repository root; null outside src/. */
export function layerOf(file: string): Layer | null {
  const parts = file.split(/[\\/]/);
  if (parts[0] !== 'src') return null;
  if (parts[1] === 'shared' || parts[1] === 'preload' || parts[1] === 'renderer') return parts[1];
  if (parts[1] !== 'main') return null;
  if (parts.length === 3) return parts[2] === 'index.ts' ? 'entry' : 'base';
  const folder = parts[2] as Layer;
  if (folder in ALLOWED) return folder;
  throw new Error(`${file}: src/main/${parts[2]}/ is in no layer; add it to the table in test/structure/layers.ts`);
}

export interface SourceFile {
  /** Relative to the repository root, with forward slashes. */
  path: string;
  text: string;
}

export interface Violation {
  file: string;
  imports: string;
  rule: string;
}

function resolveRelative(from: string, spec: string): string {
  return path.posix.normalize(path.posix.join(path.posix.dirname(from), spec));
}

/** Every module a file names: imports, type imports, re-exports and dynamic import() with a literal. */
export function importsOf(file: SourceFile): string[] {
  return ts.preProcessFile(file.text, true, true).importedFiles.map((f) => f.fileName);
}

/** The imports that break the table, or Electron outside the layers allowed it. */
export function checkLayers(files: readonly SourceFile[], allowed: Record<Layer, readonly Layer[]> = ALLOWED): Violation[] {
  const out: Violation[] = [];
  for (const file of files) {
    const from = layerOf(file.path);
    if (!from) continue;
    for (const spec of importsOf(file)) {
      if (spec === 'electron' || spec.startsWith('electron/')) {
        if (!ELECTRON_LAYERS.includes(from)) out.push({ file: file.path, imports: spec, rule: `${from} may not import electron` });
        continue;
      }
      if (!spec.startsWith('.')) continue;
      const target = resolveRelative(file.path, spec);
      const to = layerOf(target);
      if (!to) {
        out.push({ file: file.path, imports: spec, rule: `${from} may not import from outside src/` });
        continue;
      }
      if (to !== from && !allowed[from].includes(to)) out.push({ file: file.path, imports: spec, rule: `${from} may not import ${to}` });
    }
  }
  return out;
}
