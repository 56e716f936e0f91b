// A read-only or corrupt index file and a missing source folder (issue 7 §5): a clear error
// (never a stack trace), nothing already indexed lost, and `throughline index --rebuild`
// rebuilding everything from the agents' files.
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, start } from './bundle.js';
import { childEnv, singlePass, sourcesUnder, writeGenerated, type Trial } from './crash-harness.js';
import { cliRun, current, expectClearError, expectEqualTo, isRoot, NOBODY, useCli } from './damaged-helpers.js';

const { cli, world } = useCli();

/** Random bytes over `fraction` of the file's pages after the first (the header stays readable). */
function damagePages(file: string, fraction: number, seed: number): void {
  const size = fs.statSync(file).size;
  const pageSize = 4096;
  const pages = Math.floor(size / pageSize);
  const fd = fs.openSync(file, 'r+');
  let x = seed;
  for (let p = 1; p < pages; p++) {
    x = (x * 1103515245 + 12345) % 2 ** 31;
    if (x / 2 ** 31 < fraction) fs.writeSync(fd, crypto.randomBytes(pageSize), 0, pageSize, p * pageSize);
  }
  fs.closeSync(fd);
}

/** Whether every folder from / down to `dir` lets other users through. */
function reachableByOthers(dir: string): boolean {
  for (let d = dir; ; d = path.dirname(d)) {
    if ((fs.statSync(d).mode & 0o001) === 0) return false;
    if (path.dirname(d) === d) return true;
  }
}

/** The kind whose folder holds the most session files in this world, and that folder. */
function busiestSource(t: Trial) {
  const count = (root: string) => (fs.existsSync(root) ? fs.readdirSync(root, { recursive: true }).filter((f) => String(f).endsWith('.jsonl')).length : 0);
  return sourcesUnder(t.home).sort((a, b) => count(b.root) - count(a.root))[0]!;
}

describe('a read-only index file', () => {
  it('index says so and changes nothing, reads still work, and once writable it catches up', async (ctx) => {
    // As root the index must belong to another user, who then has to be able to reach the project's
    // code: a checkout inside a private (0700) folder cannot be run by them, so there is nothing to test.
    if (isRoot && !reachableByOthers(ROOT)) ctx.skip();
    const t = world(5400);
    expect((await cliRun(cli(), t, ['index'])).code).toBe(0);
    const before = current(t);
    writeGenerated(path.join(sourcesUnder(t.home).find((s) => s.kind === 'jsonl')!.root, 'later.jsonl'), 200 << 10, 54);
    // Root writes any file, so as root the index belongs to another user who runs Throughline.
    const uid = isRoot ? NOBODY : undefined;
    if (isRoot) execFileSync('chown', ['-R', `${NOBODY}:${NOBODY}`, t.dir]);
    fs.chmodSync(t.dir, 0o755);
    fs.chmodSync(t.db, 0o444);

    expectClearError(await cliRun(cli(), t, ['index'], { uid }), /index at .* is read-only .*permissions of the file, of its -wal and -shm files/);
    const stats = await cliRun(cli(), t, ['stats', '--json'], { uid });
    expect(stats.code, stats.stderr).toBe(0);
    const counts = JSON.parse(stats.stdout) as { conversations: number; subagents: number };
    expect(counts.conversations + counts.subagents).toBe(before.conversations.length);
    const search = await cliRun(cli(), t, ['search', '--json', '--', 'commit offset'], { uid });
    expect(search.code, search.stderr).toBe(0);

    // What the message asks for: SQLite created the -wal and -shm files with the index's own mode.
    for (const f of fs.readdirSync(t.dir).filter((n) => n.startsWith('index.sqlite'))) fs.chmodSync(path.join(t.dir, f), 0o644);
    const again = await cliRun(cli(), t, ['index'], { uid });
    expect(again.code, again.stderr).toBe(0);
    expectEqualTo(current(t), singlePass(t.dir));
  }, 60_000);
});

describe('a corrupt index file', () => {
  it('not a database at all: a clear error naming --rebuild, which recovers everything (through bin/throughline.mjs)', async () => {
    const t = world(5500);
    expect((await cliRun(cli(), t, ['index'])).code).toBe(0);
    const fd = fs.openSync(t.db, 'r+');
    fs.writeSync(fd, crypto.randomBytes(8192), 0, 8192, 0);
    fs.closeSync(fd);
    expectClearError(await cliRun(cli(), t, ['index']), /index at .* is damaged .*index --rebuild/);
    expectClearError(await cliRun(cli(), t, ['stats']), /is damaged/);
    // The real entry point, once: what a person types.
    const rebuilt = await start([path.join(ROOT, 'bin', 'throughline.mjs'), 'index', '--rebuild', '--db', t.db], { env: childEnv(t.home) }).exited;
    expect(rebuilt.code, rebuilt.stderr).toBe(0);
    expectEqualTo(current(t), singlePass(t.dir));
    expect(fs.readdirSync(t.dir).filter((f) => f.includes('.rebuild'))).toEqual([]);
  }, 60_000);

  it('damaged pages inside: indexing into them is a clear error, never a stack trace; --rebuild recovers', async () => {
    const t = world(5600);
    expect((await cliRun(cli(), t, ['index'])).code).toBe(0);
    damagePages(t.db, 0.5, 56);
    // New lines in every file, so the scan writes into the damaged b-trees.
    for (const s of sourcesUnder(t.home)) {
      if (fs.existsSync(s.root)) writeGenerated(path.join(s.root, s.kind === 'jsonl' ? 'more.jsonl' : 'rollout-more.jsonl'), 64 << 10, 57);
    }
    const e = await cliRun(cli(), t, ['index']);
    expect(e.stderr).not.toMatch(/\n\s+at |SqliteError|TypeError/);
    if (e.code !== 0) expectClearError(e, /is damaged .*index --rebuild/);
    expect((await cliRun(cli(), t, ['index', '--rebuild'])).code).toBe(0);
    expectEqualTo(current(t), singlePass(t.dir));
  }, 60_000);
});

describe('a missing source folder', () => {
  it('a --source folder that does not exist: a clear message and exit 1, the other sources still indexed', async () => {
    const t = world(5800);
    const real = sourcesUnder(t.home).filter((s) => fs.existsSync(s.root));
    const args = ['index', ...real.flatMap((s) => ['--source', `${s.kind}=${s.root}`]), '--source', `codex=${path.join(t.dir, 'no-such-folder')}`];
    const e = await cliRun(cli(), t, args);
    expectClearError(e, /no-such-folder does not exist; nothing was indexed from it/);
    expectEqualTo(current(t), singlePass(t.dir));
  }, 60_000);

  it('a folder that disappeared keeps its conversations (marked missing); a rebuild refuses to drop them unless told to', async () => {
    const t = world(5700);
    expect((await cliRun(cli(), t, ['index'])).code).toBe(0);
    const before = current(t);
    const gone = busiestSource(t);
    fs.rmSync(gone.root, { recursive: true, force: true });
    const e = await cliRun(cli(), t, ['index']);
    expect(e.code, e.stderr).toBe(0);
    expect(e.stdout).toMatch(/\d+ session files? (is|are) gone; their conversations are kept/);
    const after = current(t);
    expect(after.conversations).toEqual(before.conversations);
    expect(after.entries).toEqual(before.entries);
    const refused = await cliRun(cli(), t, ['index', '--rebuild']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/holds \d+ conversation\(s\) whose session files are gone .*--drop-missing/);
    expect(current(t)).toEqual(after);
    const rebuilt = await cliRun(cli(), t, ['index', '--rebuild', '--drop-missing']);
    expect(rebuilt.code).toBe(0);
    expect(rebuilt.stderr).toMatch(/dropped \d+ conversation\(s\) whose session files are gone/);
  }, 60_000);
});
