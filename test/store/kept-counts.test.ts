// The counts status and `stats` show are kept by the index itself (migration 11's triggers), so a
// status right after a write reads a few rows instead of scanning conversations and source_files
// (70-170 ms at 10k, after every append and every file a re-scan commits, on the daemon's event
// loop). Real fixture sessions copied to a temporary folder, real writes of every kind: after each
// the kept counts must equal a count over the tables.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../../src/main/api/core.js';
import { openDb, type ReadableDb } from '../../src/main/store/db.js';
import { MIGRATIONS } from '../../src/main/store/schema.js';
import { keptCounts } from '../../src/main/store/stats.js';
import { FIXTURES, tempDir } from '../server/helpers.js';

/** The counts as status made them before migration 11: scans of the tables. */
function recount(db: ReadableDb) {
  const c = db
    .prepare('SELECT coalesce(sum(is_subagent = 0), 0) AS conversations, coalesce(sum(is_subagent <> 0), 0) AS subagents, coalesce(sum(entry_count), 0) AS entries FROM conversations')
    .get() as { conversations: number; subagents: number; entries: number };
  const f = db.prepare("SELECT count(*) AS files, coalesce(sum(status = 'missing'), 0) AS missing FROM source_files").get() as { files: number; missing: number };
  const bySource: Record<string, number> = {};
  for (const r of db.prepare('SELECT source, count(*) AS n FROM conversations WHERE is_subagent = 0 GROUP BY source').all() as { source: string; n: number }[]) bySource[r.source] = r.n;
  return {
    counts: { ...c, files: f.files, missingFiles: f.missing },
    bySource,
    errors: db.prepare('SELECT count(*) FROM ingest_errors').pluck().get() as number,
    lastIndexedAt: (db.prepare('SELECT max(indexed_at) FROM source_files').pluck().get() as number | null) ?? null,
  };
}

function expectKept(db: ReadableDb) {
  const { fileRows: _, ...kept } = keptCounts(db);
  expect(kept).toEqual(recount(db));
}

let core: Core | null = null;
let dir = '';
afterEach(() => {
  core?.close();
  core = null;
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

/** The fixtures' Claude Code (with a sub-agent layout) and pi sessions, copied so they can be changed. */
function copiedSources() {
  dir = tempDir();
  const claude = path.join(dir, 'claude');
  const pi = path.join(dir, 'pi');
  fs.cpSync(path.join(FIXTURES, 'claude-code'), claude, { recursive: true });
  fs.cpSync(path.join(FIXTURES, 'pi'), pi, { recursive: true });
  const settingsPath = path.join(dir, 'settings.json');
  fs.writeFileSync(settingsPath, '{}');
  return {
    claude,
    pi,
    options: { dbPath: path.join(dir, 'index.sqlite'), settingsPath, sources: [{ kind: 'claude-code' as const, root: claude }, { kind: 'pi' as const, root: pi }] },
  };
}

describe('the counts the index keeps', () => {
  it('equal a count over the tables after every kind of write', async () => {
    const { claude, pi, options } = copiedSources();
    core = createCore(options);
    expectKept(core.db);
    await core.scan();
    const first = keptCounts(core.db);
    expect(first.counts.subagents).toBeGreaterThan(0);
    expectKept(core.db);

    // An agent's push, then more entries for it.
    const pushed = await core.api['ingest.append']({ conversation: { id: 'kept-1', workspace: '/work/kept', title: 'kept' }, entries: [{ role: 'user', text: 'one' }] });
    await core.api['ingest.append']({ conversation: { id: 'kept-1', workspace: '/work/kept' }, entries: [{ role: 'assistant', text: 'two' }, { role: 'user', text: 'three' }] });
    expect(keptCounts(core.db).counts.entries).toBe(first.counts.entries + 3);
    expectKept(core.db);

    const pushedRows = keptCounts(core.db).fileRows;
    // A malformed line (an ingest error), a new session file, a file gone (missing), a file rewritten shorter (read again from its start).
    const piFile = path.join(pi, fs.readdirSync(pi).find((f) => f.endsWith('.jsonl'))!);
    fs.appendFileSync(piFile, '{"type": "message", this is not json\n');
    fs.copyFileSync(piFile, path.join(pi, 'a-copy.jsonl'));
    const claudeFiles = fs.readdirSync(claude).filter((f) => f.endsWith('.jsonl'));
    fs.rmSync(path.join(claude, claudeFiles[0]!));
    const shorter = path.join(claude, claudeFiles[1]!);
    fs.writeFileSync(shorter, fs.readFileSync(shorter, 'utf8').split('\n').slice(0, 2).join('\n') + '\n');
    await core.scan();
    const after = keptCounts(core.db);
    expect(after.errors).toBeGreaterThan(0);
    expect(after.counts.missingFiles).toBe(1);
    expect(after.fileRows).toBe(pushedRows + 1);
    expectKept(core.db);

    // An exclusion forgets what it covers: rows deleted.
    await core.api['exclusions.add']({ pattern: '/work/kept' });
    expect(keptCounts(core.db).counts.conversations).toBe(after.counts.conversations - 1);
    expectKept(core.db);
    expect(pushed.conversation).toBeGreaterThan(0);

    // Another connection's writes of what the writer never does: a source renamed, a sub-agent
    // made a conversation, a file's row and its errors deleted.
    const other = openDb(options.dbPath);
    other.prepare("UPDATE conversations SET source = 'renamed' WHERE id = (SELECT min(id) FROM conversations WHERE is_subagent = 0)").run();
    other.prepare('UPDATE conversations SET is_subagent = 0 WHERE id = (SELECT min(id) FROM conversations WHERE is_subagent <> 0)').run();
    other.prepare('DELETE FROM ingest_errors').run();
    other.prepare('DELETE FROM source_files WHERE id = (SELECT max(id) FROM source_files)').run();
    other.close();
    expect(keptCounts(core.db).bySource.renamed).toBe(1);
    expectKept(core.db);
  });

  it('are filled from the tables when an index from before them is opened', async () => {
    const { options } = copiedSources();
    core = createCore(options);
    await core.scan();
    const kept = keptCounts(core.db);
    core.close();
    core = null;
    // Back to the version before the counts: no table of them, no triggers.
    const old = openDb(options.dbPath);
    for (const name of old.prepare<[], string>("SELECT name FROM sqlite_master WHERE type = 'trigger' AND sql LIKE '%index_counts%'").pluck().all()) old.exec(`DROP TRIGGER ${name}`);
    old.exec('DROP TABLE index_counts');
    old.pragma(`user_version = ${MIGRATIONS.findIndex((m) => m.includes('CREATE TABLE index_counts'))}`);
    old.close();
    const db = openDb(options.dbPath);
    try {
      expect(keptCounts(db)).toEqual(kept);
      expect(kept.counts.conversations).toBeGreaterThan(0);
      expectKept(db);
    } finally {
      db.close();
    }
  });

  it('are what status answers, with the folders counted again only when a file was added', async () => {
    const { claude, options } = copiedSources();
    core = createCore(options);
    await core.scan();
    const before = await core.api.status({});
    expect(before).toMatchObject(recount(core.db).counts);
    // Status reads the kept rows, not the tables: a figure written there by another connection is
    // what it answers (the old code scanned the tables after every write and would answer 9 conversations fewer).
    const other = openDb(options.dbPath);
    other.prepare("UPDATE index_counts SET value = value + 9 WHERE name = 'conversations:pi'").run();
    other.close();
    expect((await core.api.status({})).conversations).toBe(before.conversations + 9);

    const claudeFolder = () => before.folders.find((f) => f.path === claude)!;
    const folderFiles = async () => (await core!.api.status({})).folders.find((f) => f.path === claude)!.files;
    expect(await folderFiles()).toBe(claudeFolder().files);
    fs.copyFileSync(path.join(FIXTURES, 'claude-code', 'episodic-short-conversation.jsonl'), path.join(claude, 'another.jsonl'));
    await core.scan();
    expect(await folderFiles()).toBe(claudeFolder().files + 1);
  });
});
