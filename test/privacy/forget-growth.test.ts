// Issue 11 §1: a forgotten conversation, file or workspace never comes back — not when its file
// grows (the adapters send the workspace once, at the top), not with a copy of its file, not by
// --rebuild — until the person removes the exclusion. Real session files of each agent in a fake HOME.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDb } from '../../src/main/store/db.js';
import { claudeSession, codexSession, fakeHome, importFile, piSession, type AgentFile, type FakeHome } from './home.js';

const homes: FakeHome[] = [];
afterEach(() => {
  for (const h of homes.splice(0)) fs.rmSync(h.dir, { recursive: true, force: true });
});
const newHome = () => {
  const h = fakeHome();
  homes.push(h);
  return h;
};

const AGENTS: [string, (h: FakeHome) => AgentFile][] = [
  ['an import file', (h) => importFile(h)],
  ['pi', piSession],
  ['Claude Code (the new line carries the forgotten cwd)', claudeSession],
  ['Codex', codexSession],
];

async function index(home: FakeHome, ...extra: string[]): Promise<void> {
  const r = await home.cli(['index', '--json', ...extra]);
  expect(r.code, r.out).toBe(0);
}

describe.each(AGENTS)('%s', (_name, make) => {
  it('forgotten by workspace, it stays out when its file grows, and after --rebuild', async () => {
    const home = newHome();
    const agent = make(home);
    await index(home);
    const before = openDb(home.db, { readonly: true });
    expect(before.prepare('SELECT count(*) FROM conversations WHERE path = ?').pluck().get(agent.file)).toBeGreaterThan(0);
    before.close();
    const forgot = await home.cli(['forget', '--json', agent.workspace]);
    expect(forgot.code, forgot.out).toBe(0);
    expect(JSON.parse(forgot.out).removed.conversations.length).toBeGreaterThan(0);

    agent.append('zyxforgottenword arrives after the forget');
    await index(home);
    expect(await home.search('zyxforgottenword')).toEqual([]);
    await index(home, '--rebuild');
    expect(await home.search('zyxforgottenword')).toEqual([]);
    const db = openDb(home.db, { readonly: true });
    expect(db.prepare('SELECT count(*) FROM conversations WHERE workspace IS NULL OR workspace = ?').pluck().get(agent.workspace)).toBe(0);
    db.close();
  });

  it('forgotten by its file or its id, a copy of the file does not bring it back', async () => {
    const home = newHome();
    const agent = make(home);
    await index(home);
    const db = openDb(home.db, { readonly: true });
    const sessionId = db.prepare('SELECT session_id FROM conversations WHERE path = ? AND parent_id IS NULL').pluck().get(agent.file) as string;
    db.close();
    expect((await home.cli(['forget', sessionId])).code).toBe(0);
    agent.append('zyxcopiedword in the original');
    // A backup or sync copy of the same session, beside it.
    fs.copyFileSync(agent.file, agent.file.replace(/\.jsonl$/, '.copy.jsonl').replace('/rollout-', '/rollout-copy-'));
    await index(home);
    expect(await home.search('zyxcopiedword')).toEqual([]);
  });
});

describe('removing the exclusion', () => {
  it('lets the conversation be indexed again, all of it', async () => {
    const home = newHome();
    const agent = importFile(home);
    await index(home);
    expect((await home.cli(['forget', agent.workspace])).code).toBe(0);
    agent.append('zyxlaterword written while forgotten');
    await index(home);
    expect(await home.search('zyxlaterword')).toEqual([]);
    const removed = await home.cli(['exclude', '--remove', agent.workspace]);
    expect(removed.code, removed.out).toBe(0);
    await index(home);
    expect(await home.search('zyxlaterword')).toHaveLength(1);
    expect(await home.search('first message secret work')).toHaveLength(1);
  });
});

describe('an exclusion added by hand in settings.json', () => {
  it('removes what it covers at the next index run, and keeps the rest', async () => {
    const home = newHome();
    const secret = importFile(home, 'hand-secret', '/secret/by-hand');
    const open = importFile(home, 'hand-open', '/open/work');
    await index(home);
    fs.mkdirSync(path.dirname(home.settings), { recursive: true });
    fs.writeFileSync(home.settings, JSON.stringify({ exclusions: ['/secret/**'] }));
    secret.append('zyxhandword');
    open.append('zyxopenword');
    await index(home);
    expect(await home.search('zyxhandword')).toEqual([]);
    expect(await home.search('first message secret work')).toHaveLength(1);
    expect(await home.search('zyxopenword')).toHaveLength(1);
  });
});
