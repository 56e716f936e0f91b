// History and recall calls as cards (issue 17 §9; p2-history-tools-spec.md §5 and personal-recall's
// "the tool card in the transcript links straight to what was found"), in Chromium. The data is real:
// a Claude Code session is written and indexed, its agent calls Throughline's tools through the real
// MCP server over the running daemon (its own conversation for the history tools), the answers go
// into the session file as Claude Code writes tool results, and a pi session (pi's own
// SessionManager) holds the same answers under pi's tool names. Then the transcript shows cards whose
// hits open the other conversation, and Activity shows the same calls as cards.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RecallResult } from '../../src/shared/api.js';
import { chromiumMissing, SKIP_MESSAGE } from './browser.js';
import { LEDGER } from './corpus.js';
import { screenshots, startApp, type App } from './harness.js';
import { callOverMcp, claudeLines, writeLines, writePiSession, type RealCall } from '../helpers/tool-call-sessions.js';

const suite = chromiumMissing() ? describe.skip : describe;
if (chromiumMissing()) console.warn(SKIP_MESSAGE);

const SESSION = '7a11ce00-0000-4000-8000-00000000c0de';
const HANDOFF = 'Goal: rate-limit the payments webhook. State: token bucket per IP chosen. Next: move the bucket to Redis. Files: src/webhooks/limit.ts.';

suite('history and recall calls as cards', () => {
  let app: App;
  let own: number;
  let calls: RealCall[];
  let recalled: RecallResult;

  beforeAll(async () => {
    app = await startApp();
    // The agent's own session, indexed before it calls the history tools on itself.
    const file = path.join(app.dir, 'sources', 'claude-code', '-home-ada-code-ledger', `${SESSION}.jsonl`);
    const opening: [string, string] = [
      'The payments webhook needs a rate limiter again, like the one we did last time.',
      'I will look up the earlier rate limiter work first, then reuse its token bucket settings for the webhook.',
    ];
    const start = Date.now() - 3_600_000;
    writeLines(file, claudeLines(SESSION, LEDGER, start, opening, []).opening);
    await app.core.scan();
    own = (await app.core.api['conversations.get']({ conversation_id: SESSION })).conversation.id;

    const query = 'rate limiter token bucket';
    recalled = await app.core.api.recall_conversations({ query, conversation: SESSION });
    const hit = recalled.hits[0]!;
    calls = await callOverMcp(app.daemon.socketPath, 'claude-code', [
      { name: 'recall_conversations', args: { query, conversation: SESSION } },
      { name: 'read_conversation', args: { conversation_id: hit.id } },
      { name: 'conversation_inspect', args: { conversation_id: hit.id, query: 'bucket' } },
      { name: 'history_search', args: { conversation: SESSION, query: 'token bucket' } },
      { name: 'history_read', args: { conversation: SESSION, mode: 'items', entries: [0, 1] } },
      { name: 'history_handoff', args: { conversation: SESSION, text: HANDOFF } },
    ]);
    expect(calls.filter((c) => c.isError)).toEqual([]);
    writeLines(file, claudeLines(SESSION, LEDGER, start, opening, calls).calls, true);
    // pi, asking the same through its extension (bare tool names, the socket's text).
    writePiSession(LEDGER, path.join(app.dir, 'sources', 'pi', 'cards'), 'Find the rate limiter conversation from last week.', calls.slice(0, 2));
    await app.core.scan();
  }, 120_000);

  afterAll(async () => {
    await app?.close();
  });

  it('draws each call’s answer as a card; a recall hit opens that conversation at its entry', async () => {
    const { page, log } = await app.open({ hash: `#/c/${own}` });
    const recall = page.locator('.tool-card-recall_conversations');
    await recall.waitFor();
    // Every hit: its title (a link), the agent and workspace of that conversation, the matched words.
    const titles = await recall.locator('.tool-card-title').allTextContents();
    expect(titles).toEqual(recalled.hits.slice(0, titles.length).map((h) => h.title));
    expect(titles.length).toBeGreaterThanOrEqual(2);
    const first = recall.locator('a.tool-card-hit').first();
    await expect.poll(() => first.locator('.agent').textContent()).toBe('Imported');
    expect(await first.locator('.tool-card-ws').getAttribute('title')).toBe(recalled.hits[0]!.workspace);
    expect(await first.locator('.tool-card-why').textContent()).toBe(`matched: ${recalled.hits[0]!.why}`);

    // The reads list the entries they read, each linked to that entry.
    const read = page.locator('.tool-card-read_conversation');
    await read.scrollIntoViewIfNeeded();
    expect(await read.locator('a.tool-card-title').textContent()).toBe(recalled.hits[0]!.title);
    expect(await read.locator('.tool-card-entry').count()).toBeGreaterThanOrEqual(2);
    const inspect = page.locator('.tool-card-conversation_inspect');
    await inspect.scrollIntoViewIfNeeded();
    expect(await inspect.locator('.is-match').count()).toBeGreaterThanOrEqual(1);
    const search = page.locator('.tool-card-history_search');
    await search.scrollIntoViewIfNeeded();
    expect(await search.locator('.tool-card-query').textContent()).toBe('token bucket');
    expect(await search.locator('.tool-card-entry').first().getAttribute('href')).toMatch(new RegExp(`^#/c/${own}\\?entry=\\d+$`));
    const hread = page.locator('.tool-card-history_read');
    await hread.scrollIntoViewIfNeeded();
    expect(await hread.locator('.tool-card-seq').allTextContents()).toEqual(['#0', '#1']);
    expect(await hread.locator('a.tool-card-entry').first().getAttribute('href')).toBe(`#/c/${own}?entry=0`);
    const handoff = page.locator('.tool-card-history_handoff');
    await handoff.scrollIntoViewIfNeeded();
    expect(await handoff.locator('.tool-card-what').textContent()).toMatch(/^Handoff written after entry #\d+ — the agent's context was not reset$/);
    await handoff.locator('summary', { hasText: 'Show handoff text' }).click();
    expect(await handoff.locator('.tool-card-handoff .plain').textContent()).toBe(HANDOFF);
    // No result of ours is left as the plain collapsed line.
    expect(await page.locator('details.tool-result').count()).toBe(0);
    await search.scrollIntoViewIfNeeded();
    await screenshots(page, 'tool-cards-history', async (width) => {
      for (const c of [search, hread, handoff]) {
        const box = await c.boundingBox();
        if (box) expect(box.x + box.width).toBeLessThanOrEqual(width);
      }
    });

    await recall.scrollIntoViewIfNeeded();
    await screenshots(page, 'tool-cards', async (width) => {
      // At 800 px nothing overflows the card sideways.
      const box = await recall.boundingBox();
      expect(box!.x + box!.width).toBeLessThanOrEqual(width);
    });

    // A hit opens the other conversation, revealing the entry it points at.
    const hit = recalled.hits[0]!;
    await recall.locator('a.tool-card-hit').first().click();
    await page.waitForURL(new RegExp(`#/c/${hit.id}\\?entry=${hit.entry}$`));
    await expect.poll(() => page.locator('.transcript-title').textContent()).toBe(hit.title);
    await page.locator(`#entry-${hit.entry}.revealed`).waitFor();
    expect(log.errors).toEqual([]);
  });

  it('draws pi’s calls (bare tool names) the same way', async () => {
    const pi = (await app.core.api['conversations.list']({ source: 'pi', limit: 100 })).items.find((c) => c.title.startsWith('Find the rate limiter'));
    expect(pi).toBeDefined();
    const { page } = await app.open({ hash: `#/c/${pi!.id}` });
    const recall = page.locator('.tool-card-recall_conversations');
    await recall.waitFor();
    expect(await recall.locator('.tool-card-title').first().textContent()).toBe(recalled.hits[0]!.title);
    expect(await page.locator('.tool-card-read_conversation .tool-card-entry').count()).toBeGreaterThanOrEqual(2);
  });

  it('Activity shows the same calls as cards, their conversations clickable', async () => {
    const { page, log } = await app.open({ hash: '#/activity' });
    const recall = page.locator('.activity-item', { hasText: 'recall_conversations' }).filter({ hasText: 'claude-code' }).first();
    await recall.waitFor();
    const card = recall.locator('.tool-card-recall_conversations');
    expect(await card.locator('.tool-card-query').textContent()).toBe('rate limiter token bucket');
    const hits = card.locator('a.tool-card-hit');
    await expect.poll(() => hits.first().locator('.tool-card-title').textContent()).toBe(recalled.hits[0]!.title);
    expect(await hits.count()).toBe(recalled.hits.length);
    const hread = page.locator('.activity-item', { hasText: 'history_read' }).first().locator('.tool-card-history_read');
    expect(await hread.locator('.tool-card-what').textContent()).toBe('items 0, 1');
    await expect.poll(() => hread.locator('.tool-card-entries a').allTextContents()).toEqual(['#0', '#1']);
    expect(await hread.locator('.tool-card-entries a').first().getAttribute('href')).toBe(`#/c/${own}?entry=0`);
    await screenshots(page, 'activity-cards');
    await hits.first().click();
    await page.waitForURL(new RegExp(`#/c/${recalled.hits[0]!.id}$`));
    await expect.poll(() => page.locator('.transcript-title').textContent()).toBe(recalled.hits[0]!.title);
    expect(log.errors).toEqual([]);
  });
});
