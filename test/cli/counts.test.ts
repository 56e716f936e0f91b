// One count everywhere: `index --json` (after the run), `stats --json`, the status method (the UI's
// badge) and the conversation list's total (the UI's header) report the same conversations and
// entries, on the repository's fixtures, sub-agent conversations included. A re-run says what is
// unchanged; a grown file is one updated conversation with its new entries.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createCore } from '../../src/main/api/core.js';
import { openDb } from '../../src/main/store/db.js';
import { FIXTURES, useTmp } from '../helpers/tmp.js';
import { cli } from './helpers.js';

const tmp = useTmp('tl-counts-');

describe('one count everywhere', () => {
  it('index, stats, status and the list agree; a re-run and a grown file say what changed', async () => {
    const home = tmp();
    const db = path.join(home, 'index.sqlite');
    const sources = path.join(home, 'sources');
    for (const kind of ['pi', 'claude-code', 'codex']) fs.cpSync(path.join(FIXTURES, kind), path.join(sources, kind), { recursive: true });
    const args = ['pi', 'claude-code', 'codex'].flatMap((kind) => ['--source', `${kind}=${path.join(sources, kind)}`]);

    const first = JSON.parse((await cli(home, ['index', '--db', db, '--json', ...args])).out);
    const stats = JSON.parse((await cli(home, ['stats', '--db', db, '--json'])).out);
    expect(first.subagents).toBeGreaterThan(0); // the case that made the counts differ
    for (const key of ['conversations', 'subagents', 'entries', 'files'] as const) expect(stats[key], key).toBe(first[key]);
    expect(first.changed.conversations).toEqual({ new: first.conversations, updated: 0, removed: 0 });
    expect(first.changed.entries).toBe(first.entries);

    // The entries counted are the entries stored.
    const h = openDb(db, { readonly: true });
    expect(h.prepare('SELECT count(*) FROM entries').pluck().get()).toBe(first.entries);
    h.close();

    const core = createCore({ dbPath: db, settingsPath: path.join(home, 'settings.json'), sources: [] });
    try {
      const status = await core.api.status({});
      expect([status.conversations, status.subagents, status.entries]).toEqual([first.conversations, first.subagents, first.entries]);
      expect((await core.api['conversations.list']({})).total).toBe(first.conversations);
      expect((await core.api['conversations.list']({ subagents: true })).total).toBe(first.conversations + first.subagents);
    } finally {
      core.close();
    }

    const again = await cli(home, ['index', '--db', db, ...args]);
    expect(again.out).toBe(
      `Nothing new: ${first.files} session files unchanged. The index holds ${first.conversations} conversations (and ${first.subagents} sub-agent conversations), ${first.entries} entries.\n`,
    );

    // A session grows by one exchange: one conversation updated, two entries more.
    const grown = path.join(sources, 'pi', 'agent-sessions-pi-small-v3.jsonl');
    const last = JSON.parse(fs.readFileSync(grown, 'utf8').trim().split('\n').at(-1)!) as { id: string; timestamp: string };
    const line = (id: string, parentId: string, role: string, text: string) =>
      JSON.stringify({ type: 'message', id, parentId, timestamp: last.timestamp, message: { role, content: [{ type: 'text', text }], timestamp: Date.parse(last.timestamp) } });
    fs.appendFileSync(grown, `${line('grow-1', last.id, 'user', 'one more question')}\n${line('grow-2', 'grow-1', 'assistant', 'one more answer')}\n`);
    const third = JSON.parse((await cli(home, ['index', '--db', db, '--json', ...args])).out);
    expect(third.changed).toEqual({ files: 1, conversations: { new: 0, updated: 1, removed: 0 }, entries: 2 });
    expect(third.entries).toBe(first.entries + 2);
    expect(third.conversations).toBe(first.conversations);
  });
});
