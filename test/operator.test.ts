// personal-recall-plugin.md: auto_recall_enabled "false removes it for every user here and hides its
// settings; the tools are unaffected", and pins resolve "shipped preset ← operator ← user".
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../src/main/api/core.js';
import { buildIndex, SHARED_TERM, WS_A } from './server/helpers.js';

let core: Core | null = null;
afterEach(() => core?.close());

async function setup(user: object, operator: object | null) {
  const index = await buildIndex();
  fs.writeFileSync(index.settingsPath, JSON.stringify(user));
  const operatorFile = path.join(path.dirname(index.settingsPath), 'operator.json');
  if (operator) fs.writeFileSync(operatorFile, JSON.stringify(operator));
  core = createCore({ dbPath: index.dbPath, settingsPath: index.settingsPath, sources: [] });
  return { api: core.api, operatorFile, settingsPath: index.settingsPath };
}

const ask = { text: `the ${SHARED_TERM} migration plan`, workspace: WS_A, scope: 'everywhere' as const, sensitivity: 'broad' as const };

describe('the operator (operator.json)', () => {
  it('autoRecall false is off for everyone: a user setting does not turn it back on', async () => {
    const { api, operatorFile, settingsPath } = await setup({ autoRecall: true }, null);
    expect((await api.suggest(ask)).suggestions.length).toBeGreaterThan(0);
    fs.writeFileSync(operatorFile, JSON.stringify({ autoRecall: false }));
    const off = await api.suggest(ask);
    expect(off).toMatchObject({ suggestions: [], block: '', reason: 'disabled' });
    const view = await api['settings.get']({});
    expect(view).toMatchObject({ autoRecall: false, operator: { autoRecallOff: true, pins: {} } });
    // A user's attempt is kept as their own choice but is not in force while the operator says no …
    expect((await api['settings.set']({ autoRecall: true })).autoRecall).toBe(false);
    expect((await api.suggest(ask)).reason).toBe('disabled');
    expect(JSON.parse(fs.readFileSync(settingsPath, 'utf8')).autoRecall).toBe(true);
    // … and the tools are unaffected.
    expect((await api.recall_conversations({ query: SHARED_TERM })).hits.length).toBe(2);
    // Lifted: the user's own setting is back.
    fs.rmSync(operatorFile);
    expect((await api['settings.get']({})).autoRecall).toBe(true);
    expect((await api.suggest(ask)).suggestions.length).toBeGreaterThan(0);
  });

  it('reports its pins beside the user\'s; a user pin still wins for that one parameter', async () => {
    const { api } = await setup({ pins: { maxHits: 1 } }, { pins: { maxHits: 4, tokenBudget: 900 } });
    const view = await api['settings.get']({});
    expect(view.pins).toEqual({ maxHits: 1 });
    expect(view.operator).toEqual({ autoRecallOff: false, pins: { maxHits: 4, tokenBudget: 900 } });
    expect((await api.suggest({ ...ask, strategy: 'salient' })).suggestions.length).toBeLessThanOrEqual(1);
  });
});
