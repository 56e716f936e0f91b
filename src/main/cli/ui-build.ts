// `serve --ui` serves the renderer that `npm install` built (the prepare script) into out/renderer-web.
// When that build is missing, or older than the renderer's sources (someone is editing them), it is
// built here first, with Vite's API, and the terminal says so: the page a person opens is never a
// "not built" page and never yesterday's UI.
import fs from 'node:fs';
import path from 'node:path';
import { packageRoot } from '../package-root.js';

function newest(file: string): number {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(file);
  } catch {
    return 0;
  }
  if (!stat.isDirectory()) return stat.mtimeMs;
  let max = 0;
  for (const name of fs.readdirSync(file)) max = Math.max(max, newest(path.join(file, name)));
  return max;
}

/** Why the UI in `outDir` must be (re)built, or null when it is current. */
export function uiBuildNeeded(root: string, outDir: string): string | null {
  const built = newest(path.join(outDir, 'index.html'));
  if (!built) return 'it has not been built yet';
  // What goes into the page: the renderer, the api types it imports, the config and the CSP it writes.
  const inputs = ['src/renderer', 'src/shared', 'vite.renderer.config.ts', 'src/main/server/http-security.ts'];
  const sources = Math.max(...inputs.map((p) => newest(path.join(root, p))));
  return sources > built ? 'its sources changed since it was built' : null;
}

/**
 * Builds the UI into `outDir` when needed; `say` gets one line before and one after. Returns a
 * problem to report (the api keeps working without the UI), or null.
 */
export async function ensureUiBuilt(outDir: string, say: (line: string) => void): Promise<string | null> {
  const root = packageRoot();
  const why = uiBuildNeeded(root, outDir);
  if (!why) return null;
  const config = path.join(root, 'vite.renderer.config.ts');
  let vite: typeof import('vite');
  try {
    if (!fs.existsSync(config)) throw new Error(`${config} is missing`);
    vite = await import('vite');
  } catch {
    return `the UI in ${outDir} cannot be built here (${why}; Vite and the renderer's sources come with \`npm install\` in a clone): run \`npm install\`, then \`npm run build:ui\`.`;
  }
  say(`Building the UI into ${outDir}, as ${why} (a few seconds)…`);
  const t0 = Date.now();
  // Built beside the old one and swapped in, so a failed build leaves the old UI (and another
  // server still serving it) as it was.
  const next = `${outDir}.building-${process.pid}`;
  try {
    await vite.build({ configFile: config, logLevel: 'error', build: { outDir: next, emptyOutDir: true } });
    fs.rmSync(outDir, { recursive: true, force: true });
    fs.renameSync(next, outDir);
  } catch (err) {
    fs.rmSync(next, { recursive: true, force: true });
    return `building the UI failed: ${(err as Error).message.split('\n')[0]}`;
  }
  say(`Built the UI in ${((Date.now() - t0) / 1000).toFixed(1)} s.`);
  return null;
}
