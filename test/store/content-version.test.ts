// status counts the index again only after something was written (store/content-version.ts): its
// scans took 50-250 ms at 10k on the daemon's event loop, on every call, while agents' calls write
// nothing but the activity log. Real index from the fixtures, real writes on this connection and
// from another one.
import fs from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../../src/main/api/core.js';
import { memoByContent } from '../../src/main/store/content-version.js';
import { openDb } from '../../src/main/store/db.js';
import { indexCounts } from '../../src/main/store/stats.js';
import { buildIndex, WS_A } from '../server/helpers.js';

let core: Core | null = null;
let dir = '';
afterEach(() => {
  core?.close();
  core = null;
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe('counts kept while the index is unchanged', () => {
  it('are not counted again after reads and activity notes, and are after a write here or elsewhere', async () => {
    const index = await buildIndex();
    dir = index.dir;
    core = createCore({ dbPath: index.dbPath, settingsPath: index.settingsPath, sources: [] });
    // Reads on a reader thread, as the daemon answers them. (Answered on this connection, recall's
    // temporary table of stems counts as a change: status would count again, as it did before.)
    await core.startReaders(1)!.ready();
    const memo = memoByContent(core.db, () => indexCounts(core!.db));
    const first = memo.get();
    // Calls that read, and the activity notes the socket writes for each of them: nothing to count.
    for (let i = 0; i < 3; i++) {
      await core.api.recall_conversations({ query: 'migration', workspace: 'all' });
      core.activity().record('test', 'recall_conversations', '{}', [index.a], 10);
    }
    for (let i = 0; i < 200; i++) core.activity().record('test', 'status', '{}', [], 10); // past a prune of old notes
    expect(memo.get()).toEqual(first);
    expect(memo.computed()).toBe(1);

    // A write through this connection: counted again, and the new conversation is in the counts.
    await core.api['ingest.append']({ conversation: { id: 'conv-new', workspace: WS_A, title: 'new' }, entries: [{ role: 'user', text: 'a new one' }] });
    expect(memo.get().conversations).toBe(first.conversations + 1);
    expect(memo.computed()).toBe(2);
    memo.get();
    expect(memo.computed()).toBe(2);

    // A commit by another connection (another process indexing, a CLI forget).
    const other = openDb(index.dbPath);
    other.prepare('UPDATE conversations SET entry_count = entry_count + 5 WHERE id = ?').run(index.a);
    other.close();
    expect(memo.get().entries).toBe(first.entries + 1 + 5);
    expect(memo.computed()).toBe(3);
  });

  it('status answers the same counts as a fresh count, after writes and notes', async () => {
    const index = await buildIndex();
    dir = index.dir;
    core = createCore({ dbPath: index.dbPath, settingsPath: index.settingsPath, sources: [] });
    const before = await core.api.status({});
    core.activity().record('test', 'status', '{}', [], 10);
    expect(await core.api.status({})).toMatchObject({ conversations: before.conversations, entries: before.entries });
    await core.api['ingest.append']({ conversation: { id: 'conv-more', workspace: WS_A, title: 'more' }, entries: [{ role: 'user', text: 'one' }, { role: 'assistant', text: 'two' }] });
    const after = await core.api.status({});
    expect(after).toMatchObject(indexCounts(core.db));
    expect(after.conversations).toBe(before.conversations + 1);
    expect(after.entries).toBe(before.entries + 2);
  });
});
