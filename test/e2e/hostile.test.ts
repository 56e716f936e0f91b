// A transcript full of web-page tricks (see corpus.ts) must render as inert text: no script runs,
// no dialog opens, nothing loads from another host, no javascript: link survives, and a 1 MB line
// neither freezes the page nor widens it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumMissing, SKIP_MESSAGE } from './browser.js';
import { EVIL_HOST, HOSTILE_TITLE } from './corpus.js';
import { screenshot, startApp, type App, type PageLog } from './harness.js';
import type { Page } from 'playwright-core';

const suite = chromiumMissing() ? describe.skip : describe;
if (chromiumMissing()) console.warn(SKIP_MESSAGE);

function assertInert(log: PageLog): void {
  expect(log.dialogs).toEqual([]);
  expect(log.errors).toEqual([]);
  expect(log.requests.filter((u) => new URL(u).hostname !== '127.0.0.1')).toEqual([]);
  expect(log.requests.filter((u) => u.includes(EVIL_HOST))).toEqual([]);
  // Nothing was even attempted from another origin: the CSP refused no load. (Chromium does report
  // inline handlers and <style> as the sanitizer's inert DOMParser document parses them — nothing
  // runs there, and the checks above show nothing survived — so those reports are not counted.)
  expect(log.console.filter((m) => /Refused to (load|connect|frame|display|send form|apply)/i.test(m))).toEqual([]);
}

async function pwned(page: Page): Promise<unknown> {
  return page.evaluate(() => (window as unknown as { __pwned?: unknown }).__pwned);
}

suite('hostile transcript content (browser mode)', () => {
  let app: App;
  let id: number;
  beforeAll(async () => {
    app = await startApp();
    const list = await app.core.api['conversations.list']({ limit: 500 });
    id = list.items.find((c) => c.title === HOSTILE_TITLE)!.id;
  });
  afterAll(async () => {
    await app?.close();
  });

  it('renders script, event handlers, javascript: links and remote media as inert text', async () => {
    const { page, log } = await app.open({ hash: `#/c/${id}` });
    await page.locator('.entry.is-message').nth(1).waitFor();
    // Give anything that might fire (onerror, onload, ontoggle) a moment to do so.
    await page.waitForTimeout(500);

    const md = page.locator('.entries .md');
    expect(await md.locator('script, iframe, frame, object, embed, svg, math, style, form, button, input, video, audio, source, link, meta, base').count()).toBe(0);
    expect(await page.locator('[onerror], [onload], [ontoggle], [onclick]').count()).toBe(0);
    expect(await page.locator('a[href]').evaluateAll((as) => as.map((a) => a.getAttribute('href')!).filter((h) => /^\s*(javascript|data|vbscript):/i.test(h)))).toEqual([]);
    // Every image that is left points nowhere; remote ones became labelled placeholders.
    expect(await md.locator('img').evaluateAll((imgs) => imgs.filter((i) => i.getAttribute('src') && !i.getAttribute('src')!.startsWith('data:')).length)).toBe(0);
    expect(await md.locator('.md-blocked-image').count()).toBeGreaterThanOrEqual(3);
    expect(await md.locator('.md-blocked-image').allTextContents()).toContain('Image not loaded: remote (https://evil.example)');
    // The one honest link still works, and opens outside the app.
    const normal = md.locator('a[href="https://example.org/docs"]');
    expect(await normal.getAttribute('target')).toBe('_blank');
    expect(await normal.getAttribute('rel')).toContain('noopener');
    // The javascript: links are still there as text, disarmed; clicking one does nothing.
    const disarmed = md.locator('a:not([href])', { hasText: 'Open the dashboard' });
    expect(await disarmed.count()).toBe(1);
    await disarmed.click();
    expect(page.url()).toContain(`#/c/${id}`);

    expect(await pwned(page)).toBeUndefined();
    assertInert(log);
    await screenshot(page, 'hostile-transcript');
  });

  it('clips a 1 MB line instead of freezing or widening the page, and shows all of it on request', async () => {
    const { page, log } = await app.open({ hash: `#/c/${id}` });
    const clipped = page.locator('.clipped');
    await clipped.waitFor();
    const noSidewaysScroll = () => page.evaluate(() => {
      const t = document.querySelector('.transcript')!;
      return document.documentElement.scrollWidth <= window.innerWidth && t.scrollWidth <= t.clientWidth;
    });
    expect(await noSidewaysScroll()).toBe(true);
    const button = clipped.getByRole('button', { name: /Show the whole message \(1\.0 MB\)/ });
    await button.click();
    expect(await clipped.locator('pre').evaluate((p) => p.textContent!.length)).toBeGreaterThan(1024 * 1024);
    expect(await noSidewaysScroll()).toBe(true);
    assertInert(log);
  });

  it('shows hostile titles and snippets in the list as text', async () => {
    const { page, log } = await app.open();
    await page.getByLabel('Search conversations').fill('onerror');
    await expect.poll(() => page.locator('.filter-count').textContent()).toMatch(/match/);
    await expect.poll(() => page.locator('.conv-row:not(.skeleton)').count()).toBeGreaterThan(0);
    const row = page.locator('.conv-row', { hasText: HOSTILE_TITLE });
    expect(await row.locator('img, script').count()).toBe(0);
    expect(await row.locator('.row-preview').textContent()).toMatch(/onerror/);
    expect(await pwned(page)).toBeUndefined();
    assertInert(log);
  });
});
