// A full disk (issue 7 §5): a clear error (a StoreError's message, never a stack trace), nothing
// already indexed lost, a failed rebuild that keeps the old index, a daemon that keeps running, and
// indexing that completes once there is room again. The tmpfs cases need root; SQLite's
// max_page_count gives the same error on any machine. (Read-only, corrupt, missing: damaged-files.)
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createIndexer } from '../../src/main/ingest/scan.js';
import { ADAPTERS } from '../../src/main/ingest/sources.js';
import { openDb, StoreError } from '../../src/main/store/db.js';
import { connectRpc } from '../../src/main/client/socket-client.js';
import { assertIndexIntact } from '../helpers/fuzz-files.js';
import { start } from './bundle.js';
import { childEnv, singlePass, snapshot, sourcesUnder, writeGenerated } from './crash-harness.js';
import { canMount, cliRun, current, diskFor, expectClearError, expectEqualTo, mountTmpfs, sleep, tooBig, umount, useCli } from './damaged-helpers.js';

const { cli, world } = useCli();

describe('a full disk', () => {
  it.runIf(canMount)('index: a clear error, nothing lost, a failed --rebuild keeps the old index, and space back means done', async () => {
    const t = world(5100);
    const mnt = path.join(t.dir, 'mnt');
    expect(mountTmpfs(mnt, diskFor(t))).toBe(true);
    try {
      const db = path.join(mnt, 'index.sqlite');
      expect((await cliRun(cli(), t, ['index'], { db })).code).toBe(0);
      const before = current(t, db);
      writeGenerated(path.join(sourcesUnder(t.home).find((s) => s.kind === 'jsonl')!.root, 'big.jsonl'), tooBig(t), 51);

      expectClearError(await cliRun(cli(), t, ['index'], { db }), /disk holding the index .* is full/);
      expectEqualTo(current(t, db), before); // the failed batch rolled back; everything before it is there
      expectClearError(await cliRun(cli(), t, ['index', '--rebuild'], { db }), /is full/);
      expectEqualTo(current(t, db), before); // the old index, not half a new one
      expect(fs.existsSync(`${db}.rebuild`)).toBe(false);

      execFileSync('mount', ['-o', 'remount,size=64m', mnt]);
      expect((await cliRun(cli(), t, ['index'], { db })).code).toBe(0);
      expectEqualTo(current(t, db), singlePass(t.dir));
    } finally {
      umount(mnt);
    }
  }, 90_000);

  it.runIf(canMount)('the daemon keeps running and answering when its disk fills up, and says why', async () => {
    const t = world(5200);
    const mnt = path.join(t.dir, 'mnt');
    expect(mountTmpfs(mnt, diskFor(t))).toBe(true);
    const socket = path.join(t.dir, 'agent.sock');
    const log = path.join(t.dir, 'daemon.log');
    const importRoot = sourcesUnder(t.home).find((s) => s.kind === 'jsonl')!.root;
    fs.mkdirSync(importRoot, { recursive: true }); // watched from the start (a folder made later waits for the 30 s rescan)
    const daemon = start([...cli().argv, 'serve', '--db', path.join(mnt, 'index.sqlite'), '--socket', socket, '--log', log], { env: childEnv(t.home) });
    try {
      let client = null;
      for (let i = 0; i < 200 && !client; i++) {
        client = await connectRpc(socket, { timeoutMs: 10_000 }).catch(() => null);
        if (!client) await sleep(100);
      }
      expect(client).not.toBeNull();
      for (let i = 0; i < 100 && !((await client!.call('status', {})).lastIndexedAt); i++) await sleep(100);
      writeGenerated(path.join(importRoot, 'big.jsonl'), tooBig(t), 52);
      // The watcher picks the file up within a moment; give it time to hit the full disk.
      for (let i = 0; i < 100 && !/full/.test(fs.existsSync(log) ? fs.readFileSync(log, 'utf8') : ''); i++) await sleep(100);
      expect(daemon.child.exitCode).toBeNull();
      const status = await client!.call('status', {});
      expect(status.conversations).toBeGreaterThan(0);
      expect(fs.readFileSync(log, 'utf8')).toMatch(/disk holding the index .* is full/);
      client!.close();
    } finally {
      daemon.child.kill('SIGKILL');
      await daemon.exited;
      umount(mnt);
    }
  }, 60_000);

  it('any machine: SQLITE_FULL (max_page_count) is a StoreError, rolls back only its batch, and indexing resumes', () => {
    const t = world(5300);
    const db = openDb(t.db);
    try {
      const indexer = createIndexer(db, ADAPTERS);
      indexer.scan(t.sources);
      const before = snapshot(db, t.dir);
      writeGenerated(path.join(t.sources.find((s) => s.kind === 'jsonl')!.root, 'big.jsonl'), 1 << 20, 53);
      const pages = db.pragma('page_count', { simple: true }) as number;
      db.pragma(`max_page_count = ${pages + 8}`);
      let thrown: unknown;
      try {
        indexer.scan(t.sources);
      } catch (err) {
        thrown = err;
      }
      expect(thrown).toBeInstanceOf(StoreError);
      expect((thrown as StoreError).kind).toBe('full');
      assertIndexIntact(db);
      expectEqualTo(snapshot(db, t.dir), before);
      db.pragma('max_page_count = 1073741823');
      indexer.scan(t.sources);
      expectEqualTo(snapshot(db, t.dir), singlePass(t.dir));
    } finally {
      db.close();
    }
  });
});
