// The window's start (issue 16: start → list painted ≤ 1 s), in Chromium against the real daemon:
// what the renderer loads and what it asks the daemon for before the list is on screen. The time
// itself is the benchmark's (bench/run-paint.ts, beside a one-line page in the same run); these
// tests hold the two things that time rests on.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { chromiumMissing, SKIP_MESSAGE } from './browser.js';
import { startApp, type App } from './harness.js';

const suite = chromiumMissing() ? describe.skip : describe;
if (chromiumMissing()) console.warn(SKIP_MESSAGE);

/** Names only the transcript's libraries carry (highlight.js, DOMPurify, marked), even minified. */
const TRANSCRIPT_ONLY = ['highlightAuto', 'DOMPurify', 'walkTokens'];

/** The code the page loads before anything runs: index.html's module script and its preloads. */
function startCode(rendererDir: string): string {
  const html = fs.readFileSync(path.join(rendererDir, 'index.html'), 'utf8');
  const files = [...html.matchAll(/<(?:script[^>]*\bsrc|link[^>]*rel="modulepreload"[^>]*\bhref)="\.\/([^"]+)"/g)].map((m) => m[1]!);
  expect(files.some((f) => f.endsWith('.js'))).toBe(true);
  return files.map((f) => fs.readFileSync(path.join(rendererDir, f), 'utf8')).join('\n');
}

suite('the window starts with the list', { timeout: 120_000 }, () => {
  let app: App;
  beforeAll(async () => {
    app = await startApp();
  });
  afterAll(async () => {
    await app?.close();
  });

  it('loads the transcript, Settings, Activity, Compose and Status code only when they are opened', async () => {
    const rendererDir = inject('rendererDir');
    const start = startCode(rendererDir);
    const all = fs
      .readdirSync(path.join(rendererDir, 'assets'))
      .filter((f) => f.endsWith('.js'))
      .map((f) => fs.readFileSync(path.join(rendererDir, 'assets', f), 'utf8'))
      .join('\n');
    for (const name of TRANSCRIPT_ONLY) {
      // Booleans, so a failure names the library instead of printing the whole bundle.
      expect(all.includes(name), `${name} is in the build`).toBe(true);
      expect(start.includes(name), `${name} is not in the start code`).toBe(false);
    }

    // Each lazy view still arrives when asked for: the transcript by opening a row, a route by its link.
    const { page, log } = await app.open();
    await page.locator('.conv-row:not(.skeleton)').first().click();
    await page.locator('.entry').first().waitFor();
    for (const heading of ['Settings', 'Activity', 'Index status', 'Compose']) {
      await page.getByRole('link', { name: heading }).click();
      await page.getByRole('heading', { level: 1, name: heading }).waitFor();
    }
    expect(log.errors).toEqual([]);
  });

  it('asks for the list before anything else the daemon answers, the status and workspaces after it', async () => {
    const { page, log } = await app.open();
    await page.locator('.conv-row:not(.skeleton)').first().waitFor();
    await page.waitForFunction(() => document.querySelector('.nav-index') !== null);
    const calls = log.requests.filter((u) => new URL(u).pathname.startsWith('/api/')).map((u) => new URL(u).pathname.slice('/api/'.length));
    expect(calls[0]).toBe('conversations.list');
    expect(calls).toContain('status');
    expect(calls).toContain('conversations.workspaces');
  });
});
