// `npm start`'s first step (scripts/desktop-check.mjs) on real folders laid out as electron's package
// lays itself out: path.txt naming the executable under dist/.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkDesktop, electronBinary, nodeIsRecentEnough } from '../../scripts/desktop-check.mjs';
import { useTmp } from '../helpers/tmp.js';

const tmp = useTmp('tl-desktop-');

function electronPackage(withBinary: boolean): string {
  const dir = tmp();
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'electron', version: '45.5.0' }));
  // An install.js that would say so if it ran: a present binary must never trigger a fetch.
  fs.writeFileSync(path.join(dir, 'install.js'), "require('fs').writeFileSync(__dirname + '/fetched', 'yes'); process.exit(1);\n");
  if (withBinary) {
    fs.writeFileSync(path.join(dir, 'path.txt'), 'electron');
    fs.mkdirSync(path.join(dir, 'dist'));
    fs.writeFileSync(path.join(dir, 'dist', 'electron'), '', { mode: 0o755 });
  }
  return dir;
}

describe('desktop-check', () => {
  it('finds the binary where electron-vite looks for it, and then fetches nothing', () => {
    const dir = electronPackage(true);
    expect(electronBinary(dir, {})).toBe(path.join(dir, 'dist', 'electron'));
    expect(checkDesktop({ electronDir: dir, nodeVersion: '22.12.0', env: {} })).toEqual({ ok: true, message: null });
    expect(fs.existsSync(path.join(dir, 'fetched'))).toBe(false);
  });

  it('on an older Node says in one line what it needs, without trying to fetch', () => {
    const dir = electronPackage(false);
    const r = checkDesktop({ electronDir: dir, nodeVersion: '20.19.0', env: {} });
    expect(r.ok).toBe(false);
    expect(r.message).toMatch(/^Electron 45\.5\.0's binary is not installed, and fetching it needs Node ≥ 22\.12 \(this is 20\.19\.0\)/);
    expect(r.message).toContain('npx throughline serve --ui');
    expect(r.message).not.toContain('\n');
    expect(fs.existsSync(path.join(dir, 'fetched'))).toBe(false);
  });

  it('on Node 22.12+ runs the package’s install.js, and says in one line when that fails', () => {
    const dir = electronPackage(false);
    const lines: string[] = [];
    const r = checkDesktop({ electronDir: dir, nodeVersion: '22.12.0', env: {}, say: (l) => lines.push(l) });
    expect(fs.readFileSync(path.join(dir, 'fetched'), 'utf8')).toBe('yes');
    expect(lines).toEqual(["Fetching Electron 45.5.0's binary (about 100 MB, once)…"]);
    expect(r.ok).toBe(false);
    expect(r.message).toMatch(/could not be fetched \(exit 1\): with network access run `npm start` again/);
    expect(r.message).not.toContain('\n');
  });

  it('compares Node versions numerically', () => {
    expect(nodeIsRecentEnough('22.12.0')).toBe(true);
    expect(nodeIsRecentEnough('23.0.1')).toBe(true);
    expect(nodeIsRecentEnough('22.9.0')).toBe(false);
    expect(nodeIsRecentEnough('20.19.5')).toBe(false);
  });
});
