// Builds the renderer once for all end-to-end tests (a production build, as it ships) into a
// temporary folder.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { buildProductionRenderer } from '../../bench/lib-renderer.js';
import { chromiumMissing } from './browser.js';

declare module 'vitest' {
  export interface ProvidedContext {
    rendererDir: string;
  }
}

export default async function setup(project: TestProject): Promise<() => void> {
  if (chromiumMissing()) {
    project.provide('rendererDir', '');
    return () => {};
  }
  const outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'throughline-ui-'));
  // The scroll measurement in window.test.ts times the app, not React's development checks.
  await buildProductionRenderer(outDir);
  project.provide('rendererDir', outDir);
  return () => fs.rmSync(outDir, { recursive: true, force: true });
}
