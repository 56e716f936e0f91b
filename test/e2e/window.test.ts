// The window as a person meets it (issue 13, "the window"), in Chromium against the real daemon:
// widths, keyboard, search honesty, reveal and find, code, lists, states and plain words — each
// pictured at 800, 1024 and 1440 px in light and dark (test-results/screenshots/NAME-WIDTH-SCHEME.png).
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createCore } from '../../src/main/api/core.js';
import { startHttpBridge } from '../../src/main/server/http.js';
import { chromiumMissing, launchChromium, SKIP_MESSAGE } from './browser.js';
import { ATLAS, BIG_TITLE, BIG_TURNS, LEDGER } from './corpus.js';
import { stripMarkdown } from '../../src/renderer/src/lib/plain.js';
import { conversationId, screenshots, startApp, type App } from './harness.js';

const suite = chromiumMissing() ? describe.skip : describe;
if (chromiumMissing()) console.warn(SKIP_MESSAGE);

const width = (page: Page, selector: string) => page.locator(selector).first().evaluate((el) => Math.round(el.getBoundingClientRect().width));
const visible = (page: Page, selector: string) => page.locator(selector).first().isVisible();
const focused = (page: Page) => page.evaluate(() => ({ id: document.activeElement?.id ?? '', cls: document.activeElement?.className ?? '' }));

suite('the window (issue 13)', { timeout: 180_000 }, () => {
  let app: App;
  const idOf = (title: string) => conversationId(app, title);
  beforeAll(async () => {
    app = await startApp();
  });
  afterAll(async () => {
    await app?.close();
  });

  it('fits 800, 1024 and 1440 px: the nav folds to icons, list and transcript share one pane when narrow', async () => {
    const id = await idOf('Move ledger search to SQLite FTS5 with triggers');
    const { page, log } = await app.open();
    await page.locator('.conv-row:not(.skeleton)').first().waitFor();
    await screenshots(page, 'list', async (w) => {
      expect(await width(page, '.nav')).toBe(w < 1100 ? 60 : 216);
      expect(await visible(page, '.detail-pane')).toBe(w >= 900);
      // Nav names stay for screen readers and tooltips.
      expect(await page.getByRole('link', { name: 'Compose' }).getAttribute('title')).toBe('Compose');
    });

    await page.goto(`${new URL(app.url).origin}/#/c/${id}`);
    await page.locator('.entry').first().waitFor();
    await screenshots(page, 'transcript', async (w) => {
      expect(await visible(page, '.list-pane')).toBe(w >= 900);
      expect(await visible(page, '.back-button')).toBe(w < 900);
      // The transcript gets the room: one pane below 900 px, and never the ~165 px of before.
      const pane = await width(page, '.detail-pane');
      expect(pane).toBeGreaterThanOrEqual(w - (w < 1100 ? 60 : 216) - (w < 900 ? 0 : 420));
      expect(pane).toBeGreaterThan(560);
      // Nothing wider than the window: no sideways scrolling, no buttons cut off.
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= innerWidth)).toBe(true);
      for (const b of await page.locator('.transcript-bar button:visible, .transcript-info button:visible').all()) {
        expect(await b.evaluate((el) => el.getBoundingClientRect().right <= innerWidth)).toBe(true);
      }
    });
    // The back button (narrow) goes back to the list.
    await page.setViewportSize({ width: 800, height: 860 });
    await page.locator('.back-button').click();
    await page.waitForURL(/#\/conversations$/);
    expect(await visible(page, '.list-pane')).toBe(true);

    // Compose: its two columns fit, or become one; nothing is clipped on the right.
    await page.goto(`${new URL(app.url).origin}/#/compose`);
    await page.getByLabel('Workspace', { exact: true }).fill(LEDGER);
    await page.getByLabel('Message', { exact: true }).fill('the rate limiter answers 429 behind the proxy');
    await page.getByTestId('suggestion').first().waitFor();
    await screenshots(page, 'compose', async (w) => {
      const out = await page.locator('.compose-output').evaluate((el) => el.getBoundingClientRect());
      const input = await page.locator('.compose-input').evaluate((el) => el.getBoundingClientRect());
      expect(out.right).toBeLessThanOrEqual(w);
      expect(out.width).toBeGreaterThan(300);
      // One column below 960 px: the preview under the draft, as wide.
      if (w < 960) expect(out.top).toBeGreaterThan(input.bottom - 1);
      else expect(out.left).toBeGreaterThan(input.right);
    });
    expect(log.errors).toEqual([]);
  });

  it('answers the keyboard: Ctrl+K, j/k, Enter, Esc back to the row, ? for the list of shortcuts', async () => {
    const { page } = await app.open({ hash: '#/settings' });
    await page.getByRole('heading', { name: 'Settings' }).waitFor();
    // Ctrl+K from anywhere: the conversations, search focused.
    await page.keyboard.press('Control+k');
    await page.waitForURL(/#\/conversations$/);
    await expect.poll(() => focused(page)).toMatchObject({ id: 'conv-search' });
    await page.locator('.conv-row:not(.skeleton)').first().waitFor();
    // j/k move the active row (out of the search field first).
    await page.locator('.conv-list').focus();
    await page.keyboard.press('j');
    await page.keyboard.press('j');
    await page.keyboard.press('k');
    expect(await page.locator('.conv-list').getAttribute('aria-activedescendant')).toBe('conv-row-1');
    const second = await page.locator('#conv-row-1').getAttribute('data-conversation');
    await page.keyboard.press('Enter');
    await page.waitForURL(new RegExp(`#/c/${second}$`));
    await page.locator('.entry').first().waitFor();
    // With a transcript open, j opens the next one.
    await page.locator('.transcript').focus();
    await page.keyboard.press('j');
    const third = await page.locator('#conv-row-2').getAttribute('data-conversation');
    await page.waitForURL(new RegExp(`#/c/${third}$`));
    // Esc closes it and the list has focus, on that conversation's row.
    await page.locator('.transcript').focus();
    await page.keyboard.press('Escape');
    await page.waitForURL(/#\/conversations$/);
    await expect.poll(() => focused(page)).toMatchObject({ cls: expect.stringContaining('conv-list') });
    // The row is marked active once the list has its rows back (a frame or more after the focus).
    const activeConversation = async () => page.locator(`#${await page.locator('.conv-list').getAttribute('aria-activedescendant')}`).getAttribute('data-conversation');
    await expect.poll(activeConversation).toBe(third);
    // ? lists the shortcuts; Esc closes the list.
    await page.keyboard.press('?');
    const dialog = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    await dialog.waitFor();
    expect(await dialog.locator('tr').count()).toBeGreaterThanOrEqual(7);
    expect(await dialog.textContent()).toMatch(/Ctrl.*K.*Search conversations/);
    await screenshots(page, 'shortcuts');
    await page.keyboard.press('Escape');
    await expect.poll(() => dialog.isVisible()).toBe(false);
    // Still on the list: Esc closed only the dialog.
    expect(page.url()).toMatch(/#\/conversations$/);
  });

  it('says when it shows partial matches, and a new query does not leave an unrelated transcript open', async () => {
    const rounding = await idOf('Reconcile rounding errors in currency conversion');
    const { page } = await app.open({ hash: `#/c/${rounding}` });
    await page.locator('.entry').first().waitFor();
    const search = page.getByLabel('Search conversations');
    // Every result holds both words: no note.
    expect((await app.core.api['conversations.list']({ query: 'rounding currency' })).relaxed).toBe(false);
    await search.fill('rounding currency');
    await expect.poll(() => page.locator('.filter-count').textContent()).toMatch(/match/);
    expect(await page.getByTestId('partial-matches').count()).toBe(0);
    // The open conversation is among the results: it stays, selected.
    await expect.poll(() => page.locator('.conv-row.selected').getAttribute('data-conversation')).toBe(String(rounding));
    expect(page.url()).toContain(`#/c/${rounding}`);

    // Words no conversation holds together: partial matches, said so; the transcript closes.
    const partial = 'token bucket webhook flicker';
    expect((await app.core.api['conversations.list']({ query: partial })).relaxed).toBe(true);
    await search.fill(partial);
    await page.getByTestId('partial-matches').waitFor();
    expect(await page.getByTestId('partial-matches').textContent()).toMatch(/^Showing partial matches/);
    await page.waitForURL(/#\/conversations$/);
    expect(await page.locator('.detail-pane').textContent()).toMatch(/Pick a conversation/);
    await screenshots(page, 'search-partial');
  });

  it('reveals a hit with its words highlighted; finds in the conversation with next and previous', async () => {
    const { page } = await app.open();
    await page.getByLabel('Search conversations').fill('projection balances');
    await expect.poll(() => page.locator('.filter-count').textContent()).toMatch(/match/);
    const hit = page.locator('.conv-row', { hasText: BIG_TITLE });
    await hit.click();
    await page.waitForURL(/\?entry=\d+&q=projection\+balances$/);
    const revealed = page.locator('.entry.revealed');
    await revealed.waitFor();
    const marks = await revealed.locator('mark.hit').allTextContents();
    // The engine picked the entry; whichever it is, the words (or their stems) are marked in it, and nothing else.
    expect(marks.length).toBeGreaterThan(0);
    for (const m of marks) expect(m.toLowerCase()).toMatch(/^(projection|balanc)/);

    // The whole title, not cut beside buttons, at every width; the resume command whole too.
    await screenshots(page, 'reveal', async () => {
      const title = page.locator('.transcript-title');
      expect(await title.evaluate((el) => el.scrollHeight <= el.clientHeight + 1 && el.scrollWidth <= el.clientWidth + 1)).toBe(true);
      expect(await title.textContent()).toBe(BIG_TITLE);
    });

    // Ctrl+F: every occurrence in the conversation, loaded or not.
    const word = 'idempotency';
    const expected = await app.core.api['conversations.find']({ conversation_id: await idOf(BIG_TITLE), query: word });
    expect(expected.total).toBeGreaterThan(100);
    await page.setViewportSize({ width: 1024, height: 860 });
    await page.locator('.transcript').focus();
    await page.keyboard.press('Control+f');
    const input = page.getByRole('textbox', { name: 'Find in conversation' });
    await expect.poll(() => focused(page)).toMatchObject({ cls: '' });
    await input.fill(word);
    const count = page.getByTestId('find-count');
    await expect.poll(() => count.textContent()).toBe(`1 of ${expected.total}`);
    const current = page.locator('mark.find-current');
    await current.waitFor();
    const seqOfCurrent = () => current.evaluate((el) => Number(el.closest('.entry')!.getAttribute('data-seq')));
    expect(await seqOfCurrent()).toBe(expected.matches[0]!.entry);
    await input.press('Enter');
    await expect.poll(() => count.textContent()).toBe(`2 of ${expected.total}`);
    await expect.poll(seqOfCurrent).toBe(expected.matches[1]!.entry);
    await input.press('Shift+Enter');
    await input.press('Shift+Enter');
    // Before the first: the last, far away and paged in on demand.
    await expect.poll(() => count.textContent()).toBe(`${expected.total} of ${expected.total}`);
    await expect.poll(seqOfCurrent).toBe(expected.matches.at(-1)!.entry);
    expect(await current.evaluate((el) => {
      const r = el.getBoundingClientRect();
      return r.top >= 0 && r.bottom <= innerHeight;
    })).toBe(true);
    await screenshots(page, 'find', async (w) => {
      expect(await page.locator('.find-bar').evaluate((el) => el.getBoundingClientRect().right)).toBeLessThanOrEqual(w);
    });
    // Esc closes the find bar, not the transcript.
    await input.press('Escape');
    await expect.poll(() => page.locator('.find-bar').count()).toBe(0);
    expect(page.url()).toMatch(/#\/c\/\d+/);

    // The resume command is shown whole (a Claude Code conversation has one).
    const claude = (await app.core.api['conversations.list']({ source: 'claude-code', limit: 1 })).items[0]!;
    await page.goto(`${new URL(app.url).origin}/#/c/${claude.id}`);
    await page.locator('.resume').waitFor();
    await screenshots(page, 'resume', async (w) => {
      const resume = page.locator('.resume');
      expect(await resume.evaluate((el) => el.scrollWidth <= el.clientWidth + 1)).toBe(true);
      expect(await resume.evaluate((el) => el.getBoundingClientRect().right)).toBeLessThanOrEqual(w);
    });
  });

  it('highlights code with a language label and a copy button, within the CSP; list previews are plain', async () => {
    const { page, log, context } = await app.open();
    await context.grantPermissions(['clipboard-write'], { origin: new URL(app.url).origin });
    // List previews: plain text, the summary (the agent's, else the one derived at index time) or the
    // first reply, with any markdown said as words (the markdown itself: test/renderer/plain.test.ts).
    const row = page.locator('.conv-row', { hasText: BIG_TITLE });
    await row.waitFor();
    const preview = (await row.locator('.row-preview').textContent())!;
    const listed = (await app.core.api['conversations.list']({ limit: 500, subagents: true })).items.find((i) => i.title === BIG_TITLE)!;
    expect(preview.trim()).toBe(stripMarkdown(listed.summary ?? listed.derivedSummary ?? listed.preview ?? '').trim());
    expect(preview.length).toBeGreaterThan(20);
    expect(preview).not.toMatch(/\*\*|`|```/);

    const id = await idOf(BIG_TITLE);
    await page.goto(`${new URL(app.url).origin}/#/c/${id}?entry=1`);
    const block = page.locator('.entry[data-seq="1"] .code-block');
    await block.waitFor();
    expect(await block.locator('.code-lang').textContent()).toBe('TypeScript');
    expect(await block.locator('.hljs-keyword').count()).toBeGreaterThan(2);
    expect(await block.locator('.hljs-comment').textContent()).toBe('// replay in order');
    // Colours come from the stylesheet: a keyword is not drawn in the text colour.
    const colours = await block.evaluate((el) => [getComputedStyle(el.querySelector('.hljs-keyword')!).color, getComputedStyle(el.querySelector('pre')!).color]);
    expect(colours[0]).not.toBe(colours[1]);
    // What was written to the clipboard (the page may not read it back: Permissions-Policy clipboard-read=()).
    await page.evaluate(() => {
      const w = window as unknown as { copied: string };
      const write = navigator.clipboard.writeText.bind(navigator.clipboard);
      navigator.clipboard.writeText = (t: string) => ((w.copied = t), write(t));
    });
    await block.getByRole('button', { name: 'Copy TypeScript' }).click();
    await expect.poll(() => block.locator('.code-copy').textContent()).toBe('Copied');
    expect(await page.evaluate(() => (window as unknown as { copied: string }).copied)).toBe(await block.locator('pre').textContent());
    await screenshots(page, 'code');
    // Nothing was refused by the CSP: no inline style or script was needed.
    expect(log.console.filter((c) => /Content Security Policy|Refused to/i.test(c))).toEqual([]);
    expect(log.errors).toEqual([]);
  });

  it('lists: pi rows have a preview, the workspace filter shows whole paths, a long transcript keeps few entries in the page', async () => {
    const { page } = await app.open();
    await page.getByLabel('Agent', { exact: true }).selectOption('pi');
    await expect.poll(async () => new Set(await page.locator('.conv-row .agent').allTextContents())).toEqual(new Set(['pi']));
    const pis = await app.core.api['conversations.list']({ source: 'pi' });
    expect(pis.items.length).toBeGreaterThan(0);
    for (const p of pis.items) {
      const text = (await page.locator(`.conv-row[data-conversation="${p.id}"] .row-preview`).textContent())!;
      expect(text.trim().length, p.title).toBeGreaterThan(10);
    }
    await page.getByLabel('Agent', { exact: true }).selectOption('');
    const ws = page.getByLabel('Workspace', { exact: true });
    await ws.fill(ATLAS);
    await ws.press('Enter');
    await screenshots(page, 'lists', async () => {
      expect(await ws.evaluate((el) => el.getBoundingClientRect().width)).toBeGreaterThan(280);
      expect(await ws.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
    });

    const id = await idOf(BIG_TITLE);
    await page.setViewportSize({ width: 1360, height: 860 });
    await page.goto(`${new URL(app.url).origin}/#/c/${id}`);
    await page.locator('.entry').first().waitFor();
    // Scroll to the end, paging every entry in; only those in sight stay in the page.
    const transcript = page.locator('.transcript');
    for (let i = 0; i < 40; i++) {
      await transcript.evaluate((el) => (el.scrollTop = el.scrollHeight));
      await page.waitForTimeout(100);
      if ((await page.locator('.page-button', { hasText: 'later' }).count()) === 0 && (await page.locator(`.entry[data-seq="${BIG_TURNS * 2 - 1}"]`).count())) break;
    }
    await page.locator(`.entry[data-seq="${BIG_TURNS * 2 - 1}"]`).waitFor();
    expect(await page.locator('.entry').count()).toBeLessThan(40);
  });

  it('scrolls a 1,200-entry transcript in short frames, with only the entries in sight in the page', async () => {
    await app.closePages();
    // A browser of its own without the 60 Hz cap: a frame then lasts as long as its work, so the
    // gaps between animation frames measure what each scroll step costs.
    const browser = await launchChromium(['--disable-frame-rate-limit', '--disable-gpu-vsync']);
    try {
      const page = await (await browser.newContext({ viewport: { width: 1360, height: 860 } })).newPage();
      await page.goto(app.url); // the token, as a cookie
      await page.waitForSelector('.nav');
      await page.goto(`${new URL(app.url).origin}/#/c/${await idOf(BIG_TITLE)}`);
      await page.locator('.entry').first().waitFor();
      const transcript = page.locator('.transcript');
      // Page every entry in first: the measurement is of scrolling, not of fetching.
      for (let i = 0; i < 40 && !(await page.locator(`.entry[data-seq="${BIG_TURNS * 2 - 1}"]`).count()); i++) {
        await transcript.evaluate((el) => (el.scrollTop = el.scrollHeight));
        await page.waitForTimeout(150);
      }
      await page.locator(`.entry[data-seq="${BIG_TURNS * 2 - 1}"]`).waitFor();
      const pass = () =>
        transcript.evaluate(async (el) => {
          const gaps: number[] = [];
          let dom = 0;
          el.scrollTop = 0;
          await new Promise((r) => requestAnimationFrame(r));
          let last = performance.now();
          while (el.scrollTop + el.clientHeight < el.scrollHeight - 2) {
            el.scrollTop += 400;
            await new Promise((r) => requestAnimationFrame(r));
            const now = performance.now();
            gaps.push(now - last);
            last = now;
            dom = Math.max(dom, el.querySelectorAll('.entry').length);
          }
          gaps.sort((a, b) => a - b);
          return { frames: gaps.length, p50: gaps[Math.floor(gaps.length / 2)]!, p95: gaps[Math.floor(gaps.length * 0.95)]!, dom };
        });
      // The first pass draws each entry for the first time (markdown, highlighting); the second
      // finds them rendered before, as a reader scrolling back does. The second is traced: on a
      // shared machine wall-clock gaps measure the other processes too, while a task's thread time
      // (the trace's tdur) is the CPU this page's main thread spent on it.
      const first = await pass();
      await browser.startTracing(page, { categories: ['disabled-by-default-devtools.timeline', 'devtools.timeline', 'toplevel'] });
      const again = await pass();
      const trace = JSON.parse((await browser.stopTracing()).toString('utf8')) as { traceEvents: { name: string; ph: string; tid: number; pid: number; tdur?: number; args?: { name?: string } }[] };
      const main = trace.traceEvents.find((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain');
      const tasks = trace.traceEvents
        .filter((e) => main && e.pid === main.pid && e.tid === main.tid && e.ph === 'X' && e.name === 'RunTask' && e.tdur !== undefined)
        .map((e) => e.tdur! / 1000)
        .sort((a, b) => a - b);
      const cpuP50 = tasks[Math.floor(tasks.length / 2)] ?? 0;
      const cpuP95 = tasks[Math.floor(tasks.length * 0.95)] ?? 0;
      console.info(
        `1,200-entry transcript, 400 px a frame top to bottom: wall-clock first pass ${first.frames} frames p50 ${first.p50.toFixed(1)} ms p95 ${first.p95.toFixed(1)} ms, ` +
          `again p50 ${again.p50.toFixed(1)} ms p95 ${again.p95.toFixed(1)} ms; main-thread CPU per task (${tasks.length} tasks) p50 ${cpuP50.toFixed(1)} ms p95 ${cpuP95.toFixed(1)} ms; ` +
          `at most ${Math.max(first.dom, again.dom)} entries in the page`,
      );
      // Logged, not asserted: a time bound fails under load (the goal, a 60 Hz frame of 16 ms at p95, is
      // followed in the log line above: main-thread CPU p95 ~9-12 ms on this shared 2-core machine with
      // software raster, where React's development build measured ~23 ms). What is asserted is the shape
      // that keeps frames short whatever the machine: only the entries in sight are in the page.
      expect(Math.max(first.dom, again.dom)).toBeLessThan(40);
      expect(tasks.length).toBeGreaterThan(again.frames);
    } finally {
      await browser.close();
    }
  }, 360_000); // two passes over 1,200 entries, one traced: minutes on a loaded machine

  it('states: an unknown conversation is "not found" with a way back; Index status lists every watched folder', async () => {
    const { page } = await app.open({ hash: '#/c/987654' });
    await page.getByText('Conversation not found').waitFor();
    expect(await page.locator('.detail-pane').textContent()).not.toMatch(/Something went wrong|Try again/);
    await screenshots(page, 'not-found');
    await page.setViewportSize({ width: 1360, height: 860 });
    await page.getByRole('link', { name: 'Back to conversations' }).click();
    await page.waitForURL(/#\/conversations$/);

    await page.goto(`${new URL(app.url).origin}/#/status`);
    const status = await app.core.api.status({});
    const rows = page.locator('.table.folders tbody tr');
    await expect.poll(() => rows.count()).toBe(status.folders.length);
    for (const f of status.folders) {
      const r = rows.filter({ hasText: f.path });
      expect(await r.locator('td.num').textContent()).toBe(String(f.files));
    }
    expect(status.folders.find((f) => f.kind === 'jsonl')!.files).toBeGreaterThan(5);
    await page.locator('#folders-title').scrollIntoViewIfNeeded();
    await screenshots(page, 'status-folders');
  });

  it('an empty index says which folders it looked in, and which it did not find', async () => {
    await app.closePages();
    const dir = path.join(app.dir, 'empty');
    const there = path.join(dir, 'claude-projects');
    fs.mkdirSync(there, { recursive: true });
    const missing = path.join(dir, 'no-such-codex-folder');
    const core = createCore({ dbPath: path.join(dir, 'index.sqlite'), settingsPath: path.join(dir, 'settings.json'), sources: [{ kind: 'claude-code', root: there }, { kind: 'codex', root: missing }] });
    await core.scan();
    const bridge = await startHttpBridge(core.api, { rendererDir: inject('rendererDir') });
    const context = await app.browser.newContext({ viewport: { width: 1360, height: 860 } });
    try {
      const page = await context.newPage();
      await page.goto(bridge.url);
      await page.getByText('No conversations yet').waitFor();
      const looked = page.locator('.looked-in li');
      await expect.poll(() => looked.count()).toBe(2);
      expect(await looked.filter({ hasText: there }).textContent()).toMatch(/Claude Code · 0 files/);
      expect(await looked.filter({ hasText: missing }).textContent()).toMatch(/Codex · not found/);
      await screenshots(page, 'empty-index');
      await page.goto(`${bridge.url.replace(/\/?(\?.*)?$/, '')}/#/status`.replace(/\?[^#]*/, ''));
      await page.locator('.table.folders').waitFor();
      expect(await page.locator('.table.folders tr', { hasText: missing }).locator('td.num').textContent()).toBe('not found');
    } finally {
      await context.close();
      await bridge.close();
      core.close();
    }
  });

  it('speaks plainly: no "(s)", no scores or multipliers outside the detail lines', async () => {
    const { page } = await app.open({ hash: '#/compose' });
    await page.getByLabel('Workspace', { exact: true }).fill(LEDGER);
    await page.getByLabel('Message', { exact: true }).fill('migration 7 with the FTS5 rebuild is slow');
    await page.getByTestId('suggestion').first().waitFor();
    const outside = () =>
      page.locator('.compose-output').evaluate((el) => {
        const clone = el.cloneNode(true) as HTMLElement;
        for (const d of Array.from(clone.querySelectorAll('.score-detail, .block, .terms'))) d.remove();
        return clone.textContent ?? '';
      });
    for (const text of ['migration 7 with the FTS5 rebuild is slow', 'thanks, that is all for today', 'zebra quokka narwhal']) {
      await page.getByLabel('Message', { exact: true }).fill(text);
      await expect.poll(() => page.locator('.compose-result').getAttribute('aria-busy')).toBe('false');
      const seen = await outside();
      expect(seen, text).not.toMatch(/\(s\)|×|≥|≈|\bdf\b|\d+\.\d+/);
    }
    await page.getByLabel('Message', { exact: true }).fill('migration 7 with the FTS5 rebuild is slow');
    await page.getByTestId('suggestion').first().waitFor();
    await page.locator('.score-detail summary').first().click();
    await screenshots(page, 'compose-plain');
    for (const hash of ['#/status', '#/activity', '#/settings', '#/conversations']) {
      await page.goto(`${new URL(app.url).origin}/${hash}`);
      await page.waitForTimeout(300);
      expect(await page.locator('body').textContent(), hash).not.toMatch(/\(s\)/);
    }
  });
});
