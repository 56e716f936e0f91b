// One count everywhere, as a person sees it: the sidebar's badge, the list's header and Index status
// show the number `throughline stats` prints, on a corpus with sub-agent conversations (which the list
// keeps apart unless asked; before, the badge counted them and the header did not).
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumMissing, SKIP_MESSAGE } from './browser.js';
import { startApp, type App } from './harness.js';
import { cli } from '../cli/helpers.js';

const suite = chromiumMissing() ? describe.skip : describe;
if (chromiumMissing()) console.warn(SKIP_MESSAGE);

suite('one count everywhere (browser mode)', () => {
  let app: App;
  beforeAll(async () => {
    app = await startApp();
  });
  afterAll(async () => {
    await app?.close();
  });

  it('badge, list header and Index status agree with `throughline stats`', async () => {
    const stats = JSON.parse((await cli(app.dir, ['stats', '--db', path.join(app.dir, 'index.sqlite'), '--json'])).out) as { conversations: number; subagents: number };
    expect(stats.subagents).toBeGreaterThan(0);
    const n = stats.conversations.toLocaleString('en-US');
    const { page } = await app.open();
    await expect.poll(() => page.locator('.nav-index').textContent()).toContain(`${n} conversations`);
    await expect.poll(() => page.locator('.filter-count').textContent()).toBe(`${n} conversations`);
    const status = await app.open({ hash: '#/status' });
    await status.page.getByRole('heading', { name: 'Index status' }).waitFor();
    expect(await status.page.locator('.stat', { hasText: 'Conversations' }).locator('.stat-value').textContent()).toBe(n);
  });
});
