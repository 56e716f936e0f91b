// The folder holding Throughline's package.json (bin/, resources/, out/). Found by walking up from
// this module, so it is right both from the TypeScript sources and from the bundled CLI.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

let cached: string | null = null;

export function packageRoot(): string {
  if (cached) return cached;
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const manifest = path.join(dir, 'package.json');
    if (fs.existsSync(manifest) && (JSON.parse(fs.readFileSync(manifest, 'utf8')) as { name?: string }).name === 'throughline') {
      return (cached = dir);
    }
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error('Cannot find Throughline’s package.json above ' + fileURLToPath(import.meta.url));
    dir = parent;
  }
}
