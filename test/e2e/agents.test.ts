// Every agent in the window (issue 14), in Chromium over browser mode against the real daemon: an index
// built from a real fixture of each agent; the agent filter lists them all and finds each one's
// conversations under its badge, a transcript of each newer agent opens with the agent's own resume
// command, and Settings → Sources and Index status name them. Screenshots at 800 px, light and dark.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SOURCE_LABEL } from '../../src/renderer/src/lib/format.js';
import { SOURCE_KINDS, type SourceKind } from '../../src/shared/types.js';
import { chromiumMissing, SKIP_MESSAGE } from './browser.js';
import { screenshot, startApp, type App } from './harness.js';

const suite = chromiumMissing() ? describe.skip : describe;
if (chromiumMissing()) console.warn(SKIP_MESSAGE);

/** The agents added by issue 14, each with the start of the command that resumes one of its conversations. */
const NEWER: [SourceKind, RegExp][] = [
  ['gemini', /gemini --resume \S+$/],
  ['opencode', /opencode --session \S+$/],
  ['copilot', /copilot --resume \S+$/],
  ['cursor', /cursor-agent --resume \S+$/],
  ['droid', /droid --resume \S+$/],
  ['aider', /aider --restore-chat-history$/],
];

/** The pickers' order: SOURCE_LABEL's (AgentOptions.tsx), which names every kind Throughline reads. */
const LISTED = Object.keys(SOURCE_LABEL) as SourceKind[];

suite('every agent in the window (browser mode)', () => {
  let app: App;
  beforeAll(async () => {
    app = await startApp({ allAgents: true });
  });
  afterAll(async () => {
    await app?.close();
  });

  it('the agent filter lists every agent; each newer agent’s conversations come under its own badge, in a colour of its own', async () => {
    const { page, log } = await app.open({ width: 800, colorScheme: 'dark' });
    await page.locator('.conv-row:not(.skeleton)').first().waitFor();
    const filter = page.getByLabel('Agent', { exact: true });
    const options = await filter.locator('option').evaluateAll((os) => os.map((o) => [(o as HTMLOptionElement).value, o.textContent]));
    expect([...LISTED].sort()).toEqual([...SOURCE_KINDS].sort());
    expect(options).toEqual([['', 'All agents'], ...LISTED.map((k) => [k, SOURCE_LABEL[k]])]);

    const count = async () => Number((await page.locator('.filter-count').textContent())!.match(/\d+/)![0]);
    const colours = new Map<string, string>();
    for (const [kind] of NEWER) {
      const total = (await app.core.api['conversations.list']({ source: kind })).total;
      expect(total, kind).toBeGreaterThan(0);
      await filter.selectOption(kind);
      await expect.poll(count).toBe(total);
      expect(await page.locator('.filter-count').textContent()).toBe(`${total} ${total === 1 ? 'conversation' : 'conversations'}`);
      const badges = page.locator('.conv-row:not(.skeleton) .agent');
      await expect.poll(async () => new Set(await badges.allTextContents())).toEqual(new Set([SOURCE_LABEL[kind]]));
      const badge = badges.first();
      expect(await badge.isVisible()).toBe(true);
      expect(await badge.getAttribute('class')).toContain(`agent-${kind}`);
      colours.set(kind, await badge.evaluate((b) => `${getComputedStyle(b).color} on ${getComputedStyle(b).backgroundColor}`));
      await screenshot(page, `agents-list-${kind}-800-dark`);
    }
    // Six badges, six colourings, none the page's plain text.
    expect(new Set(colours.values()).size, JSON.stringify([...colours])).toBe(NEWER.length);
    expect(log.errors).toEqual([]);
  });

  it('a transcript of each newer agent opens, with its badge and the agent’s own resume command', async () => {
    for (const [kind, resume] of NEWER) {
      const { items } = await app.core.api['conversations.list']({ source: kind, limit: 1 });
      const conv = items[0]!;
      const { page, log } = await app.open({ hash: `#/c/${conv.id}`, width: 800, colorScheme: 'dark' });
      await page.locator('.entry').first().waitFor();
      const detail = await app.core.api['conversations.get']({ conversation_id: conv.id });
      expect(await page.locator('.transcript-info .agent').textContent(), kind).toBe(SOURCE_LABEL[kind]);
      expect(await page.locator('.entry').count(), kind).toBeGreaterThan(0);
      expect(detail.resumeCommand, kind).toMatch(resume);
      expect(await page.getByLabel('Resume command').textContent(), kind).toBe(detail.resumeCommand);
      await screenshot(page, `agents-transcript-${kind}-800-dark`);
      expect(log.errors, kind).toEqual([]);
    }
  });

  it('Settings → Sources offers every agent; Index status names each agent’s folder', async () => {
    const { page } = await app.open({ hash: '#/settings', width: 800, colorScheme: 'dark' });
    const picker = page.getByLabel('Source agent');
    await picker.waitFor();
    expect(await picker.locator('option').allTextContents()).toEqual(LISTED.map((k) => SOURCE_LABEL[k]));
    // The lede names every agent whose folders are read without being added (Aider's are the workspaces').
    const lede = (await page.locator('[aria-labelledby="sources-title"] .card-lede').textContent())!;
    for (const kind of LISTED.filter((k) => k !== 'jsonl')) expect(lede, kind).toContain(SOURCE_LABEL[kind]);
    // A source added for a newer agent is listed under its badge.
    await picker.selectOption('opencode');
    await page.getByLabel('Source folder').fill('/srv/opencode-archive/storage');
    await page.getByRole('button', { name: 'Add source' }).click();
    const row = page.locator('[aria-label="Extra sources"] .source-row', { hasText: '/srv/opencode-archive/storage' });
    await row.waitFor();
    expect(await row.locator('.agent').textContent()).toBe('OpenCode');
    await row.scrollIntoViewIfNeeded();
    await screenshot(page, 'agents-settings-sources-800-dark');
    await row.getByRole('button', { name: /Remove/ }).click();
    await row.waitFor({ state: 'detached' });

    const status = await app.open({ hash: '#/status', width: 800, colorScheme: 'dark' });
    const folders = status.page.locator('table.folders tbody tr');
    await folders.first().waitFor();
    const agents = await folders.locator('td:nth-child(2)').allTextContents();
    for (const kind of SOURCE_KINDS) expect(agents, kind).toContain(SOURCE_LABEL[kind]);
    const files = await folders.locator('td:nth-child(3)').allTextContents();
    expect(files.filter((f) => f === 'not found')).toEqual([]);
    await status.page.locator('table.folders').scrollIntoViewIfNeeded();
    await screenshot(status.page, 'agents-status-folders-800-dark');
  });
});
