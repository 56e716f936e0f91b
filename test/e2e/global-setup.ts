// Builds the renderer once for all end-to-end tests, with Vite's own build API, into a temporary
// folder (never over out/renderer-web, which a developer may be serving).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import { build } from 'vite';
import { chromiumMissing } from './browser.js';

declare module 'vitest' {
  export interface ProvidedContext {
    rendererDir: string;
  }
}

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export default async function setup(project: TestProject): Promise<() => void> {
  if (chromiumMissing()) {
    project.provide('rendererDir', '');
    return () => {};
  }
  const outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'throughline-ui-'));
  // What `npm run build:ui` ships: a production build. Vite takes NODE_ENV from the environment before
  // the mode, and vitest sets it to "test", which would give React's development build (several times
  // slower: the scroll measurement in window.test.ts would time React's dev checks, not the app).
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    await build({ configFile: path.join(root, 'vite.renderer.config.ts'), logLevel: 'warn', build: { outDir, emptyOutDir: true } });
  } finally {
    process.env.NODE_ENV = nodeEnv;
  }
  project.provide('rendererDir', outDir);
  return () => fs.rmSync(outDir, { recursive: true, force: true });
}
