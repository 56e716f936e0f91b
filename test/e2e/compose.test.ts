// Compose and Settings → Extensions, driven in Chromium against the real daemon: what typing shows,
// where a suggestion leads, and that a setting changed in the window changes the socket's next answer.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SuggestResult } from '../../src/shared/api.js';
import { chromiumMissing, SKIP_MESSAGE } from './browser.js';
import { LEDGER } from './corpus.js';
import { screenshot, startApp, type App } from './harness.js';

const suite = chromiumMissing() ? describe.skip : describe;
if (chromiumMissing()) console.warn(SKIP_MESSAGE);

suite('compose and settings (browser mode)', () => {
  let app: App;
  beforeAll(async () => {
    app = await startApp();
  });
  afterAll(async () => {
    await app?.close();
  });

  it('shows, while typing, the suggestions an agent would get with their scores and signals', async () => {
    const { page, log } = await app.open({ hash: '#/compose' });
    await page.getByLabel('Workspace', { exact: true }).fill(LEDGER);
    const box = page.getByLabel('Message', { exact: true });
    await box.pressSequentially('the token bucket rate limiter keeps answering 429 behind the', { delay: 20 });
    // The last word, then how long until the preview is the one for the whole message.
    const final = 'the token bucket rate limiter keeps answering 429 behind the proxy';
    const expected = (await app.core.api.suggest({ text: final, workspace: LEDGER })).block;
    await box.press('Space');
    await box.pressSequentially('proxy');
    const typed = await page.evaluate(() => performance.now());
    await page.waitForFunction((block) => document.querySelector('[data-testid="pointer-block"]')?.textContent === block, expected, { polling: 'raf' });
    const readyMs = (await page.evaluate(() => performance.now())) - typed;
    console.info(`compose preview ready ${readyMs.toFixed(0)} ms after the last keystroke (debounce included)`);
    expect(readyMs).toBeLessThan(1000);
    const cards = page.getByTestId('suggestion');
    await expect.poll(() => cards.count()).toBeGreaterThan(0);
    await expect.poll(() => page.getByTestId('suggest-reason').textContent()).toMatch(/would be suggested/);

    const first = cards.filter({ hasText: 'Add a rate limiter to the payments webhook endpoint' });
    expect(await first.count()).toBe(1);
    // Why, in words; the numbers only in the detail line.
    const signals = await first.getByTestId('signal').allTextContents();
    expect(signals.some((s) => /^Shares \w/.test(s))).toBe(true);
    expect(signals).toContain('Same workspace');
    for (const s of signals) expect(s).not.toMatch(/\d\.\d|×|≈|\(s\)/);
    // Its age said by the same rule as the date on the card (calendar days), not the engine's 24-hour count.
    const listed = (await first.locator('.row-meta span').last().textContent())!;
    const said = /\d:\d\d/.test(listed) ? 'today' : /^Yesterday$|days ago$/.test(listed) ? listed.toLowerCase() : `on ${listed}`;
    expect(signals).toContain(`Last active ${said}`);
    expect(Number((await first.locator('.score-detail summary').textContent())!.replace('Score ', ''))).toBeGreaterThan(0);
    expect(await first.getByTestId('score-detail').textContent()).toMatch(/terms \+\d/);

    // The block shown is exactly the one the api hands an agent for the same message.
    const direct = (await app.core.api.suggest({ text: 'the token bucket rate limiter keeps answering 429 behind the proxy', workspace: LEDGER })) as SuggestResult;
    await expect.poll(() => page.getByTestId('pointer-block').textContent()).toBe(direct.block);
    expect(await page.locator('.compose-result').getAttribute('aria-busy')).toBe('false');
    await screenshot(page, 'compose');
    expect(log.errors).toEqual([]);
  });

  it('says why nothing would be suggested', async () => {
    const { page } = await app.open({ hash: '#/compose' });
    await page.getByLabel('Workspace', { exact: true }).fill(LEDGER);
    await page.getByLabel('Message', { exact: true }).fill('thanks, that is all for today');
    await expect.poll(() => page.getByTestId('suggest-reason').textContent()).toMatch(/Nothing would be suggested/);
    // A sentence for a person; the engine's own words and numbers behind "Details".
    const sentence = (await page.locator('.result-reason').textContent())!.trim();
    expect(sentence.length).toBeGreaterThan(3);
    expect(sentence).not.toMatch(/\d|≥|×|\(s\)|df|salient/);
    expect(await page.getByTestId('suggestion').count()).toBe(0);
    expect(await page.getByTestId('pointer-block').count()).toBe(0);
  });

  it('with "This workspace only" and no workspace typed, says so instead of searching everywhere', async () => {
    const { page } = await app.open({ hash: '#/compose' });
    await page.getByLabel('Message', { exact: true }).fill('the token bucket rate limiter keeps answering 429 behind the proxy');
    await expect.poll(() => page.locator('.result-reason').textContent()).toMatch(/“This workspace only”, but no workspace is given/);
    expect(await page.getByTestId('suggestion').count()).toBe(0);
    // A folder inside the workspace's repository is that workspace (issue 17 §4).
    await page.getByLabel('Workspace', { exact: true }).fill(`${LEDGER}/src/webhooks`);
    await expect.poll(() => page.getByTestId('suggestion').filter({ hasText: 'Add a rate limiter to the payments webhook endpoint' }).count()).toBe(1);
  });

  it('opens a clicked suggestion at the matching entry, scrolled into view and highlighted', async () => {
    const { page } = await app.open({ hash: '#/compose' });
    await page.getByLabel('Workspace', { exact: true }).fill(LEDGER);
    await page.getByLabel('Message', { exact: true }).fill('migration 7 with the FTS5 rebuild is slow');
    const card = page.getByTestId('suggestion').filter({ hasText: 'Move ledger search to SQLite FTS5' });
    await card.locator('.suggestion-title').click();

    await page.waitForURL(/#\/c\/\d+\?entry=\d+&q=[^&]+$/);
    const entry = Number(new URL(page.url()).hash.match(/entry=(\d+)/)![1]);
    const revealed = page.locator('.entry.revealed');
    await expect.poll(() => revealed.count()).toBe(1);
    expect(await revealed.getAttribute('data-seq')).toBe(String(entry));
    expect(await revealed.getAttribute('aria-current')).toBe('true');
    // The entry is one that holds the message's distinctive words (which one is the engine's call).
    expect(await revealed.textContent()).toMatch(/migration|rebuild|fts5/i);
    // In view and focused, so keyboard and screen-reader users land on it too.
    expect(await revealed.evaluate((el) => {
      const r = el.getBoundingClientRect();
      return r.top >= 0 && r.bottom <= window.innerHeight + r.height / 2;
    })).toBe(true);
    await expect.poll(() => revealed.evaluate((el) => el === document.activeElement)).toBe(true);
    // The distinctive words are highlighted inside it, not the whole entry painted over.
    const q = decodeURIComponent(new URL(page.url()).hash.match(/q=([^&]+)/)![1]!.replace(/\+/g, ' ')).toLowerCase().split(' ');
    const hits = await revealed.locator('mark.hit').allTextContents();
    expect(hits.length).toBeGreaterThan(0);
    for (const h of hits) expect(q.some((w) => h.toLowerCase().startsWith(w))).toBe(true);
    const role = (await revealed.getAttribute('class'))!.match(/role-\w+/)![0];
    const plain = page.locator(`.entry.is-message.${role}:not(.revealed)`).first();
    expect(await revealed.evaluate((el) => getComputedStyle(el).backgroundColor)).toBe(await plain.evaluate((el) => getComputedStyle(el).backgroundColor));
    await screenshot(page, 'transcript-revealed');
  });

  it('applies a sensitivity changed in Settings to the socket’s very next suggest', async () => {
    const agent = await app.socket();
    const text = 'rate limiter for the webhook, with tenant quotas';
    const ids = (r: SuggestResult) => r.suggestions.map((s) => s.id);
    const viaSocket = () => agent.call('suggest', { text, workspace: LEDGER });
    const direct = (sensitivity: 'focused' | 'broad') => app.core.api.suggest({ text, workspace: LEDGER, scope: 'everywhere', sensitivity });
    // The premise: on this corpus the two presets give different answers for this message.
    expect(ids(await direct('focused'))).not.toEqual(ids(await direct('broad')));

    const { page } = await app.open({ hash: '#/settings' });
    await page.getByRole('heading', { name: 'Personal Recall' }).waitFor();
    await page.getByRole('radio', { name: /All my workspaces/ }).check();
    await page.getByText('Saved').waitFor();

    await page.getByRole('radio', { name: /Focused/ }).check();
    await expect.poll(async () => (await viaSocket()).sensitivity).toBe('focused');
    const focused = await viaSocket();
    expect(ids(focused)).toEqual(ids(await direct('focused')));

    await page.getByRole('radio', { name: /Broad/ }).check();
    await expect.poll(async () => (await viaSocket()).sensitivity).toBe('broad');
    const broad = await viaSocket();
    expect(ids(broad)).toEqual(ids(await direct('broad')));
    expect(ids(broad)).not.toEqual(ids(focused));
    expect(broad.suggestions.length).toBeGreaterThan(0);

    // When to recall: a conversation's later message is answered only with "Every message".
    let chat = 0;
    const laterMessage = async () => {
      const conversation = `e2e-chat-${++chat}`;
      await agent.call('suggest', { text, workspace: LEDGER, conversation });
      return agent.call('suggest', { text, workspace: LEDGER, conversation });
    };
    expect((await laterMessage()).reason).toMatch(/autoRecallWhen/);
    await page.getByRole('radio', { name: /Every message/ }).check();
    await expect.poll(async () => (await laterMessage()).reason).not.toMatch(/autoRecallWhen/);
    await page.getByRole('radio', { name: /At the start/ }).check();
    await expect.poll(async () => (await laterMessage()).reason).toMatch(/autoRecallWhen/);

    await page.getByRole('switch', { name: 'Recall earlier conversations automatically' }).uncheck();
    await expect.poll(async () => (await viaSocket()).suggestions.length).toBe(0);
    expect((await viaSocket()).block).toBe('');
    await page.getByRole('switch', { name: 'Recall earlier conversations automatically' }).check();
    await page.getByText('Advanced: pins').click();
    await screenshot(page, 'settings');
    // The agents' socket is the daemon's; the page shows where agents connect.
    expect(await page.getByTestId('socket-path').textContent()).toBe(app.daemon.socketPath);
    await page.getByRole('heading', { name: 'Agent access' }).scrollIntoViewIfNeeded();
    await page.getByLabel('Token name').fill('laptop pi');
    await page.getByLabel('Limit to workspaces').fill(LEDGER);
    await page.getByRole('button', { name: 'Create token' }).click();
    await expect.poll(async () => (await app.core.api['settings.get']({})).tokens.map((t) => [t.name, t.workspaces])).toEqual([['laptop pi', [LEDGER]]]);
    await page.getByRole('heading', { name: 'Agent access' }).evaluate((h) => h.scrollIntoView({ block: 'start' }));
    // Scrolling within the page never shifts the window's frame (the nav stays put).
    expect(await page.evaluate(() => [document.scrollingElement!.scrollTop, document.querySelector('.nav')!.getBoundingClientRect().top])).toEqual([0, 0]);
    await screenshot(page, 'settings-agents');
  });

  // personal-recall-plugin.md: "false removes it for every user here and hides its settings"; pins
  // resolve "shipped preset ← operator ← user", so an operator's pin is what an empty field follows.
  it('hides the recall settings when the operator turned auto-recall off, and shows the operator\'s pins as pinned', async () => {
    const operatorFile = path.join(app.dir, 'config', 'operator.json');
    try {
      fs.mkdirSync(path.dirname(operatorFile), { recursive: true });
      fs.writeFileSync(operatorFile, JSON.stringify({ autoRecall: false }));
      const { page } = await app.open({ hash: '#/settings' });
      await page.getByTestId('auto-recall-operator-off').waitFor();
      expect(await page.getByRole('switch', { name: 'Recall earlier conversations automatically' }).count()).toBe(0);
      expect(await page.getByRole('radio', { name: /Focused/ }).count()).toBe(0);
      expect(await page.getByText('Advanced: pins').count()).toBe(0);
      await screenshot(page, 'settings-operator-off');

      fs.writeFileSync(operatorFile, JSON.stringify({ pins: { dfCeiling: 40 } }));
      await page.reload();
      await page.getByText('Advanced: pins').click();
      const ceiling = page.getByLabel(/Distinctive-word ceiling/);
      expect(await ceiling.getAttribute('placeholder')).toBe("40 (operator's pin)");
      expect(await page.locator('.pin', { has: ceiling }).getByText('Pinned by the operator.').count()).toBe(1);
      expect(await page.getByLabel(/Lone-word rarity/).getAttribute('placeholder')).toMatch(/\(preset\)$/);
      await screenshot(page, 'settings-operator-pins');
    } finally {
      fs.rmSync(operatorFile, { force: true });
    }
  });
});
