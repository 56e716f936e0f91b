// Issue 11 §15: Settings → Left out offers, in the same step, to remove what is already indexed from
// a folder the person leaves out (or to keep it), so excluding a folder never leaves its text in the
// index unasked. Driven in Chromium against the real daemon and index.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumMissing, SKIP_MESSAGE } from './browser.js';
import { ATLAS, LEDGER } from './corpus.js';
import { startApp, type App } from './harness.js';

const suite = chromiumMissing() ? describe.skip : describe;
if (chromiumMissing()) console.warn(SKIP_MESSAGE);

suite('Settings → Left out', () => {
  let app: App;
  beforeAll(async () => {
    app = await startApp();
  });
  afterAll(async () => {
    await app?.close();
  });

  const inWorkspace = (workspace: string) => app.core.db.prepare('SELECT count(*) FROM conversations WHERE workspace = ?').pluck().get(workspace) as number;
  const entriesIn = (workspace: string) =>
    app.core.db.prepare('SELECT count(*) FROM entries e JOIN conversations c ON c.id = e.conversation_id WHERE c.workspace = ?').pluck().get(workspace) as number;

  it('says what is already indexed, and removes it with the exclusion', async () => {
    const atlas = inWorkspace(ATLAS);
    const entries = entriesIn(ATLAS);
    expect(atlas).toBeGreaterThan(1);
    const { page } = await app.open({ hash: '#/settings' });
    await page.getByLabel('Workspace to leave out').fill(ATLAS);
    await page.getByRole('button', { name: 'Leave out', exact: true }).click();
    await expect.poll(() => page.getByTestId('exclusion-preview').textContent()).toBe(`${atlas} conversations (${entries.toLocaleString('en-US')} entries) from ${ATLAS} are already in the index.`);
    // Nothing changed while the person decides.
    expect(inWorkspace(ATLAS)).toBe(atlas);
    expect((await app.core.api['settings.get']({})).exclusions).toEqual([]);
    await page.getByRole('button', { name: 'Leave out and remove them' }).click();
    await expect.poll(() => page.getByTestId('exclusion-done').textContent()).toBe(`Left out ${ATLAS}; removed ${atlas} conversations (${entries.toLocaleString('en-US')} entries) from the index.`);
    expect(inWorkspace(ATLAS)).toBe(0);
    expect((await app.core.api['settings.get']({})).exclusions).toEqual([ATLAS]);
    await expect.poll(() => page.getByRole('list', { name: 'Excluded workspaces' }).textContent()).toContain(ATLAS);
  });

  it('keeps what is indexed when the person says so, and cancelling changes nothing', async () => {
    const ledger = inWorkspace(LEDGER);
    expect(ledger).toBeGreaterThan(0);
    const { page } = await app.open({ hash: '#/settings' });
    await page.getByLabel('Workspace to leave out').fill(LEDGER);
    await page.getByRole('button', { name: 'Leave out', exact: true }).click();
    await page.getByRole('button', { name: 'Cancel' }).click();
    await expect.poll(() => page.getByLabel('Workspace to leave out').inputValue()).toBe(LEDGER);
    expect((await app.core.api['settings.get']({})).exclusions).toEqual([ATLAS]);
    await page.getByRole('button', { name: 'Leave out', exact: true }).click();
    await page.getByRole('button', { name: 'Leave out, keep what is indexed' }).click();
    await expect.poll(() => page.getByTestId('exclusion-done').textContent()).toMatch(new RegExp(`^Left out ${LEDGER}; kept the ${ledger} conversations? already indexed`));
    expect(inWorkspace(LEDGER)).toBe(ledger);
    expect((await app.core.api['settings.get']({})).exclusions).toEqual([ATLAS, LEDGER]);
  });
});
