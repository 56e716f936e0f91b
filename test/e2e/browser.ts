// Debian's Chromium, driven by playwright-core. Without it (and outside CI) the browser tests are
// skipped with a message; in CI they must run, so there a missing browser fails loudly instead.
import fs from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

export const CHROMIUM = process.env.THROUGHLINE_CHROMIUM ?? '/usr/bin/chromium';

export function chromiumMissing(): boolean {
  return !fs.existsSync(CHROMIUM) && !process.env.CI;
}

export const SKIP_MESSAGE = `End-to-end tests skipped: ${CHROMIUM} is missing (install it with \`apt-get install -y chromium\`; in CI they always run).`;

/** `extraArgs`: e.g. the frame-timing flags of the scroll measurement (test/e2e/window.test.ts). */
export function launchChromium(extraArgs: string[] = []): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', ...extraArgs],
  });
}
