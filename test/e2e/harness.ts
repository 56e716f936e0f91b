// One running Throughline for a test file: an index built from the fixtures, the agent socket and
// the browser bridge (the real daemon, as `throughline serve --ui` runs it), and a Chromium page
// that records everything a hostile transcript might make it do.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { inject } from 'vitest';
import { createCore, type Core } from '../../src/main/api/core.js';
import { connectRpc, type RpcClient } from '../../src/main/client/socket-client.js';
import { startDaemon, type Daemon } from '../../src/main/daemon/daemon.js';
import { launchChromium } from './browser.js';
import { buildCorpus } from './corpus.js';

export const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const SCREENSHOTS = path.join(REPO, 'test-results', 'screenshots');

export interface PageLog {
  dialogs: string[];
  errors: string[];
  console: string[];
  /** Every URL the page asked for. */
  requests: string[];
}

export interface App {
  dir: string;
  /** The agents' home for this app (HOME of the core): Settings → Extensions installs under it. */
  home: string;
  core: Core;
  daemon: Daemon;
  url: string;
  browser: Browser;
  socket(): Promise<RpcClient>;
  /** Closes the pages opened so far. */
  closePages(): Promise<void>;
  /** A fresh page (own context: own cookie) with its log; the previous one is closed. */
  open(options?: { colorScheme?: 'light' | 'dark'; hash?: string; width?: number }): Promise<{ page: Page; log: PageLog; context: BrowserContext }>;
  close(): Promise<void>;
}

/** The id of the conversation with this title (sub-agents included); throws when there is none. */
export async function conversationId(app: App, title: string): Promise<number> {
  const all = await app.core.api['conversations.list']({ limit: 500, subagents: true });
  const c = all.items.find((i) => i.title === title);
  if (!c) throw new Error(`no conversation titled ${title}`);
  return c.id;
}

/** `allAgents`: the index also holds a real fixture of every other agent Throughline reads. */
export async function startApp(options: { allAgents?: boolean } = {}): Promise<App> {
  const rendererDir = inject('rendererDir');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tl-e2e-'));
  const sources = buildCorpus(REPO, path.join(dir, 'sources'), options.allAgents);
  const home = path.join(dir, 'home');
  fs.mkdirSync(home);
  const env: NodeJS.ProcessEnv = { ...process.env, HOME: home };
  for (const k of ['CLAUDE_CONFIG_DIR', 'CODEX_HOME', 'PI_CODING_AGENT_DIR', 'THROUGHLINE_COMMAND']) delete env[k];
  const core = createCore({ dbPath: path.join(dir, 'index.sqlite'), settingsPath: path.join(dir, 'config', 'settings.json'), sources, env });
  await core.scan();
  const daemon = await startDaemon({ core, socketPath: path.join(dir, 'agent.sock'), log: false, watch: false, http: { rendererDir } });
  const browser = await launchChromium();
  const clients: RpcClient[] = [];
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  // One context and one page for the whole file, reloaded for each test: a new page costs a new
  // renderer process (seconds on a 2-core machine); a reload gives a fresh app state all the same.
  let context: BrowserContext | null = null;
  let page: Page | null = null;
  let log: PageLog = { dialogs: [], errors: [], console: [], requests: [] };
  const closePages = async () => {
    await context?.close().catch(() => undefined);
    context = page = null;
  };

  return {
    dir,
    home,
    core,
    daemon,
    url: daemon.httpUrl!,
    browser,
    async socket() {
      const c = await connectRpc(daemon.socketPath, { client: 'e2e-agent' });
      clients.push(c);
      return c;
    },
    closePages,
    async open(options = {}) {
      if (!context || !page) {
        context = await browser.newContext({ viewport: { width: 1360, height: 860 }, deviceScaleFactor: 1 });
        page = await context.newPage();
        page.on('dialog', (d) => {
          log.dialogs.push(d.message());
          void d.dismiss();
        });
        page.on('pageerror', (e) => log.errors.push(e.message));
        page.on('console', (m) => log.console.push(`${m.type()}: ${m.text()}`));
        page.on('request', (r) => log.requests.push(r.url()));
      }
      await page.emulateMedia({ colorScheme: options.colorScheme ?? 'light' });
      await page.setViewportSize({ width: options.width ?? 1360, height: 860 });
      log = { dialogs: [], errors: [], console: [], requests: [] };
      // about:blank first, so even a URL differing only in its hash loads the app afresh.
      await page.goto('about:blank');
      log.requests.length = 0;
      const url = new URL(daemon.httpUrl!);
      url.hash = options.hash ?? '';
      await page.goto(url.toString());
      await page.waitForSelector('.nav');
      return { page, log, context };
    },
    async close() {
      for (const c of clients) c.close();
      await closePages();
      await browser.close();
      await daemon.close();
      core.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

export async function screenshot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`) });
}

export const WIDTHS = [800, 1024, 1440] as const;
export const SCHEMES = ['light', 'dark'] as const;

/**
 * `name-WIDTH-SCHEME.png` at every width and colour scheme, the page left at the last (1440, dark)
 * unless `after` restores something. `check` runs at each, so a layout rule is asserted where it is seen.
 */
export async function screenshots(page: Page, name: string, check?: (width: number, scheme: 'light' | 'dark') => Promise<void>): Promise<void> {
  for (const scheme of SCHEMES) {
    await page.emulateMedia({ colorScheme: scheme });
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 860 });
      // Two frames: resize observers (the virtual lists) settle before the picture.
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
      await check?.(width, scheme);
      await screenshot(page, `${name}-${width}-${scheme}`);
    }
  }
}
