// Builds the renderer alone, for browser mode (`throughline serve --ui`) and the end-to-end tests:
// `npm run build:ui` → out/renderer-web, which the HTTP bridge serves by default.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { CONTENT_SECURITY_POLICY } from './src/main/server/http-security.js';

const root = path.dirname(fileURLToPath(import.meta.url));
export const rendererRoot = path.join(root, 'src/renderer');
export const rendererWebOut = path.join(root, 'out/renderer-web');

/**
 * The same CSP the servers send as a header, also as a <meta> in the built page, so a copy opened any
 * other way is just as locked down. frame-ancestors only works as a header, so it is left out here.
 * Build only: the dev server needs inline scripts for hot reload.
 */
export function cspMeta(): Plugin {
  const policy = CONTENT_SECURITY_POLICY.split('; ')
    .filter((d) => !d.startsWith('frame-ancestors'))
    .join('; ');
  return {
    name: 'throughline-csp-meta',
    apply: 'build',
    transformIndexHtml: (html) => html.replace('<meta charset="UTF-8" />', `<meta charset="UTF-8" />\n    <meta http-equiv="Content-Security-Policy" content="${policy}" />`),
  };
}

export default defineConfig({
  root: rendererRoot,
  base: './',
  plugins: [react(), cspMeta()],
  build: {
    outDir: rendererWebOut,
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: false,
    chunkSizeWarningLimit: 1000,
  },
});
