// The renderer as `npm run build:ui` ships it (a production build, vite.renderer.config.ts), built with
// Vite's own API into a folder the caller owns (never over out/renderer-web, which a developer may be
// serving). One builder for the end-to-end tests (test/e2e/global-setup.ts) and the first-paint bench
// (run-paint.ts), so both measure and test what ships.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export async function buildProductionRenderer(outDir: string): Promise<void> {
  // Vite takes NODE_ENV from the environment before the mode, and vitest sets it to "test", which
  // would give React's development build (several times slower: the tests and the bench would time
  // React's dev checks, not the app).
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    await build({ configFile: path.join(ROOT, 'vite.renderer.config.ts'), logLevel: 'warn', build: { outDir, emptyOutDir: true } });
  } finally {
    if (nodeEnv === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = nodeEnv;
  }
}
