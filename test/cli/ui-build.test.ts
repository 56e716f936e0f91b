// `serve --ui` builds the UI when it is missing or older than its sources (src/main/cli/ui-build.ts).
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ensureUiBuilt, uiBuildNeeded } from '../../src/main/cli/ui-build.js';
import { useTmp } from '../helpers/tmp.js';

const tmp = useTmp('tl-ui-');

function touch(file: string, secondsAgo: number): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, 'x');
  const t = new Date(Date.now() - secondsAgo * 1000);
  fs.utimesSync(file, t, t);
}

describe('the UI build for serve --ui', () => {
  it('is needed when missing or older than any of its sources, not otherwise', () => {
    const root = tmp();
    const out = path.join(root, 'out', 'renderer-web');
    touch(path.join(root, 'src', 'renderer', 'src', 'App.tsx'), 100);
    touch(path.join(root, 'src', 'shared', 'api.ts'), 100);
    expect(uiBuildNeeded(root, out)).toBe('it has not been built yet');
    touch(path.join(out, 'index.html'), 50);
    expect(uiBuildNeeded(root, out)).toBeNull();
    touch(path.join(root, 'src', 'shared', 'api.ts'), 10);
    expect(uiBuildNeeded(root, out)).toBe('its sources changed since it was built');
  });

  it('builds a missing UI with Vite, saying so, and then leaves it alone', async () => {
    const out = path.join(tmp(), 'renderer-web');
    const said: string[] = [];
    expect(await ensureUiBuilt(out, (l) => said.push(l))).toBeNull();
    expect(fs.readFileSync(path.join(out, 'index.html'), 'utf8')).toContain('Content-Security-Policy');
    expect(said[0]).toMatch(/^Building the UI into .*renderer-web, as it has not been built yet/);
    expect(said[1]).toMatch(/^Built the UI in \d+\.\d s\.$/);
    expect(fs.readdirSync(path.dirname(out))).toEqual(['renderer-web']); // no half-built folder left beside it
    said.length = 0;
    expect(await ensureUiBuilt(out, (l) => said.push(l))).toBeNull();
    expect(said).toEqual([]);
  }, 60_000);
});
