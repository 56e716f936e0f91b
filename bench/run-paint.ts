// The window's first paint, where Electron cannot run (no display here): the renderer the app ships
// (a production build), served by the daemon's UI bridge over this index, opened in Debian's
// Chromium; from the page's navigation (performance.timeOrigin) to the conversation list painted
// (the first real row in the document and a frame drawn after it). Each run is a fresh browser
// context (nothing cached). Baseline, same browser and run: the first contentful paint of a one-line
// page. What this leaves out of the app's "start → window": Electron's own start and the index opening.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { buildProductionRenderer } from './lib-renderer.js';
import { latency, type Latency } from './lib-stats.js';

const CHROMIUM = process.env.THROUGHLINE_CHROMIUM ?? '/usr/bin/chromium';
/** A conversation row with content (the list shows grey skeleton rows while it loads). */
const ROW = '.conv-row:not(.skeleton)';

export interface PaintFigures {
  runs: number;
  /** Navigation → the list painted. */
  listPainted: Latency;
  /** Navigation → the page's first contentful paint (the app's frame, before the list). */
  firstContentful: Latency;
  /** A one-line page's first contentful paint in the same browser. */
  blankPage: Latency;
}

export interface PaintEnv {
  dbPath: string;
  work: string;
  corpus: string;
}

/** Records when the first list row is painted: seen by a MutationObserver, then the frame after it. */
const MARK_LIST_PAINT = `(() => {
  const seen = () => {
    if (!document.querySelector(${JSON.stringify(ROW)})) return false;
    // rAF runs before the frame that first shows the row is drawn; a task queued from it runs after.
    requestAnimationFrame(() => setTimeout(() => { window.__listPaintedAt = performance.now(); }, 0));
    return true;
  };
  new MutationObserver((_, o) => { if (seen()) o.disconnect(); }).observe(document, { childList: true, subtree: true });
})();`;

let builtRenderer: string | null = null;

/** The renderer as `npm run build:ui` ships it (production), built once per benchmark run. */
async function buildRenderer(work: string): Promise<string> {
  if (builtRenderer && fs.existsSync(builtRenderer)) return builtRenderer;
  const outDir = path.join(path.dirname(work), `tl-bench-renderer-${process.pid}`);
  await buildProductionRenderer(outDir);
  process.once('exit', () => fs.rmSync(outDir, { recursive: true, force: true }));
  return (builtRenderer = outDir);
}

export async function firstPaint(env: PaintEnv, runs: number): Promise<PaintFigures | string> {
  if (!fs.existsSync(CHROMIUM)) return `no Chromium at ${CHROMIUM} (apt-get install chromium, or set THROUGHLINE_CHROMIUM)`;
  const rendererDir = await buildRenderer(env.work);
  const { startDaemon } = await import('../src/main/daemon/daemon.js');
  const { chromium } = await import('playwright-core');
  const daemon = await startDaemon({
    dbPath: env.dbPath,
    settingsPath: path.join(env.work, 'paint-settings.json'),
    socketPath: path.join(env.work, 'paint.sock'),
    env: { HOME: env.corpus },
    log: false,
    watch: false,
    http: { rendererDir },
  });
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  const list: number[] = [];
  const fcp: number[] = [];
  const blank: number[] = [];
  const fcpOf = () => performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? Number.NaN;
  try {
    for (let i = 0; i < runs; i++) {
      const context = await browser.newContext();
      try {
        const page = await context.newPage();
        await page.addInitScript(MARK_LIST_PAINT);
        await page.goto(daemon.httpUrl!);
        const at = await page.waitForFunction(() => (window as unknown as { __listPaintedAt?: number }).__listPaintedAt, undefined, { timeout: 60_000 });
        list.push((await at.jsonValue()) as number);
        fcp.push(await page.evaluate(fcpOf));
        const other = await context.newPage();
        await other.goto('data:text/html,<!doctype html><p>One line of text.</p>');
        await other.waitForFunction(() => performance.getEntriesByName('first-contentful-paint').length > 0, undefined, { timeout: 10_000 });
        blank.push(await other.evaluate(fcpOf));
      } finally {
        await context.close();
      }
    }
  } catch (err) {
    return `first paint failed: ${(err as Error).message.slice(0, 200)}`;
  } finally {
    await browser.close();
    await daemon.close();
  }
  return { runs, listPainted: latency(list), firstContentful: latency(fcp), blankPage: latency(blank) };
}

// Alone, over an index already built (the full bench builds its own):
//   node bin/run-ts.mjs bench/run-paint.ts --db FILE --corpus DIR [--runs 7]
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({ options: { db: { type: 'string' }, corpus: { type: 'string' }, runs: { type: 'string', default: '7' } } });
  if (!values.db || !values.corpus) throw new Error('usage: run-paint.ts --db FILE --corpus DIR [--runs N]');
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'tl-paint-'));
  try {
    console.log(JSON.stringify(await firstPaint({ dbPath: values.db, work, corpus: values.corpus }, Number(values.runs))));
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}
