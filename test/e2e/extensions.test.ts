// Settings → Extensions → Agent integrations, in Chromium: each integration of the registry with its
// state, and Install / Remove doing to the agents' files exactly what `throughline install` does.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INTEGRATIONS } from '../../src/main/integrations/registry.js';
import { chromiumMissing, SKIP_MESSAGE } from './browser.js';
import { screenshots, startApp, type App } from './harness.js';

const suite = chromiumMissing() ? describe.skip : describe;
if (chromiumMissing()) console.warn(SKIP_MESSAGE);

suite('Settings → Extensions: agent integrations', () => {
  let app: App;
  beforeAll(async () => {
    app = await startApp();
  });
  afterAll(async () => {
    await app?.close();
  });

  it('lists every integration, installs and removes one with the installer’s own code', async () => {
    const { page, log } = await app.open({ hash: '#/settings' });
    const rows = page.locator('.integration');
    await expect.poll(() => rows.count()).toBe(INTEGRATIONS.length);
    expect(await page.locator('.integration strong').allTextContents()).toEqual(INTEGRATIONS.map((i) => i.agent));
    for (const i of INTEGRATIONS) expect(await page.getByTestId(`integration-${i.id}`).getByTestId('integration-state').textContent()).toBe('Not installed');

    // Install Codex: the button runs the same installer, so the file is what `throughline install codex` writes.
    const codex = page.getByTestId('integration-codex');
    await codex.getByRole('button', { name: 'Install for Codex' }).click();
    await expect.poll(() => codex.getByTestId('integration-state').textContent()).toBe('Installed');
    // config.toml, hooks.json and the launcher agents start Throughline through.
    expect(await codex.getByRole('status').textContent()).toMatch(/^Installed: 3 files changed\. .*Restart Codex/);
    const config = path.join(app.home, '.codex', 'config.toml');
    expect(fs.readFileSync(config, 'utf8')).toMatch(/\[mcp_servers\.throughline\][\s\S]*"mcp"/);
    expect((await app.core.api['integrations.list']({})).items.find((i) => i.id === 'codex')!.state).toBe('installed');

    // A Claude Code settings file that does not parse: said so, and Install changes nothing.
    const settings = path.join(app.home, '.claude', 'settings.json');
    fs.mkdirSync(path.dirname(settings), { recursive: true });
    fs.writeFileSync(settings, '{ "hooks": ');
    await page.reload();
    const claude = page.getByTestId('integration-claude');
    await expect.poll(() => claude.getByTestId('integration-state').textContent()).toBe('Cannot tell');
    expect(await claude.locator('.error-text').textContent()).toMatch(/settings\.json is not valid JSON/);
    await screenshots(page, 'settings-extensions', async () => {
      await page.locator('#integrations-title').scrollIntoViewIfNeeded();
    });
    await page.setViewportSize({ width: 1360, height: 860 });
    await claude.getByRole('button', { name: 'Install for Claude Code' }).click();
    await expect.poll(() => claude.getByRole('alert').textContent()).toMatch(/not valid JSON.*Nothing was changed/);
    expect(fs.readFileSync(settings, 'utf8')).toBe('{ "hooks": ');
    fs.rmSync(settings);

    // Remove takes out what Install added.
    await page.getByTestId('integration-codex').getByRole('button', { name: 'Remove from Codex' }).click();
    await expect.poll(() => page.getByTestId('integration-codex').getByTestId('integration-state').textContent()).toBe('Not installed');
    expect(fs.readFileSync(config, 'utf8')).not.toMatch(/throughline/);
    expect(log.errors).toEqual([]);
  });
});
