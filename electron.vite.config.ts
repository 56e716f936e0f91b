// The desktop app's build: main (Node, ESM), preload (sandboxed, so one self-contained CommonJS file)
// and the renderer (the same React app browser mode serves; see vite.renderer.config.ts).
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'electron-vite';
import { cspMeta, rendererRoot } from './vite.renderer.config.js';

const root = path.dirname(fileURLToPath(import.meta.url));

export default defineConfig({
  main: {
    build: {
      // Dependencies (better-sqlite3, zod, …) load from node_modules at run time, not bundled.
      externalizeDeps: true,
      // The daemon's reader thread is an entry of its own (out/main/read-worker.js, found by src/main/api/read-pool.ts).
      rolldownOptions: { input: { index: path.join(root, 'src/main/index.ts'), 'read-worker': path.join(root, 'src/main/api/read-worker.ts') } },
    },
  },
  preload: {
    build: {
      // A sandboxed preload cannot require anything but electron: nothing external, and CommonJS.
      externalizeDeps: false,
      rolldownOptions: {
        input: { index: path.join(root, 'src/preload/index.ts') },
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: rendererRoot,
    plugins: [react(), cspMeta()],
    build: {
      outDir: path.join(root, 'out/renderer'),
      minify: true,
      rolldownOptions: { input: { index: path.join(rendererRoot, 'index.html') } },
    },
  },
});
