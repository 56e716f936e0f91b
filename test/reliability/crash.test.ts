// Crash safety (issue 7 §1): the indexer killed with SIGKILL at seeded random moments — while it
// starts and migrates, while it ingests, between scans — while an agent process keeps appending to
// the session files (whole lines, half lines, damaged lines). After every kill the index must pass
// SQLite's and FTS5's integrity checks and agree exactly with its committed offsets; after a final
// completing run it must equal a clean single pass over the final files: nothing duplicated,
// nothing missing, every recorded problem recorded once.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createIndexer } from '../../src/main/ingest/scan.js';
import { ADAPTERS } from '../../src/main/ingest/sources.js';
import { openDb } from '../../src/main/store/db.js';
import { bundle, ROOT, start, waitFor, type Runnable } from './bundle.js';
import { checkAfterCrash, describeDiff, makeTrial, rng, ROOTS, singlePass, snapshot, sourcesUnder, writeGenerated, type Trial } from './crash-harness.js';

export const TRIALS = 20;
const SEED = 20_250_700;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let child: Runnable;
const tally = { trials: 0, kills: 0, duringStartup: 0, duringFirstScan: 0, laterScans: 0, checks: 0, bytes: 0, garbageBytes: 0, entries: 0 };

beforeAll(async () => {
  child = await bundle('test/reliability/crash-child.ts');
});
afterAll(() => {
  child?.dispose();
  // The numbers docs/reliability.md reports.
  console.log(`crash trials: ${JSON.stringify(tally)}`);
});

const sourceArgs = (t: Trial) => t.sources.flatMap((s) => ['--source', `${s.kind}=${s.root}`]);

/** One indexer start, killed after `delayMs` (counted from "ready", or from spawn when `early`). */
async function killOnce(t: Trial, early: boolean, delayMs: number): Promise<void> {
  const run = start([...child.argv, '--db', t.db, ...sourceArgs(t), '--loop']);
  if (!early) await waitFor(run, 'ready');
  await sleep(delayMs);
  const before = run.output();
  run.child.kill('SIGKILL');
  const exit = await run.exited;
  // In --loop mode the indexer only stops when killed: any other exit is a failure of its own.
  if (exit.signal !== 'SIGKILL') throw new Error(`indexer exited by itself (${exit.code}): ${exit.stderr.slice(-2000)}`);
  tally.kills++;
  if (!before.includes('ready')) tally.duringStartup++;
  else if (!before.includes('scan ')) tally.duringFirstScan++;
  else tally.laterScans++; // during a later scan of the grown files, or between two
  if (fs.existsSync(t.db)) {
    checkAfterCrash(t);
    tally.checks++;
  }
}

describe('crash safety: SIGKILL while ingesting growing files', () => {
  for (let i = 0; i < TRIALS; i++) {
    const seed = SEED + i;
    it(`trial ${i + 1} (seed ${seed})`, async () => {
      const t = makeTrial(seed);
      const rand = rng(seed ^ 0x5eed);
      try {
        const plan = path.join(t.dir, 'plan.json');
        fs.writeFileSync(plan, JSON.stringify({ writes: t.writes }));
        const writer = start([path.join(ROOT, 'scripts', 'crash-writer.mjs'), plan]);
        const kills = 1 + Math.floor(rand() * 3);
        for (let k = 0; k < kills; k++) {
          const early = rand() < 0.15; // during start-up: module load, opening, migrations
          await killOnce(t, early, early ? 150 + rand() * 400 : rand() * 500);
        }
        const wrote = await writer.exited;
        expect(wrote.code, wrote.stderr).toBe(0);

        // The completing run: a restart like the others (opening rolls back what the last kill left
        // in the WAL), in this process to spare a process start per trial.
        const final = openDb(t.db);
        try {
          const stats = createIndexer(final, ADAPTERS).scan(t.sources);
          expect(stats.errors.filter((e) => e.line === null)).toEqual([]);
        } finally {
          final.close();
        }
        checkAfterCrash(t);

        const db = openDb(t.db);
        try {
          const got = snapshot(db, t.dir);
          const want = singlePass(t.dir);
          expect(want.entries.length).toBeGreaterThan(20);
          if (JSON.stringify(got) !== JSON.stringify(want)) throw new Error(`after the final run: ${describeDiff(got, want)}`);
          // Every committed offset reached the end of its file: nothing was left unread.
          for (const r of db.prepare('SELECT path, committed_offset AS o FROM source_files').all() as { path: string; o: number }[]) {
            expect(r.o).toBe(fs.statSync(r.path).size);
          }
          tally.entries += want.entries.length;
        } finally {
          db.close();
        }
        tally.trials++;
        tally.bytes += t.bytes.initial + t.bytes.appended + t.bytes.garbage;
        tally.garbageBytes += t.bytes.garbage;
      } finally {
        fs.rmSync(t.dir, { recursive: true, force: true });
      }
    }, 60_000);
  }
});

describe('crash safety: SIGKILL between the batches of one large file', () => {
  it('the next run reads the rest of the file and rebuilds its stale conversation_terms document', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tl-crash-large-'));
    const t = { dir, db: path.join(dir, 'index.sqlite') } as Trial;
    const file = path.join(dir, 'home', ROOTS.jsonl, 'large.jsonl');
    try {
      writeGenerated(file, 8 << 20, 7);
      const size = fs.statSync(file).size;
      openDb(t.db).close(); // created and migrated before the race starts
      const run = start([...child.argv, '--db', t.db, '--source', `jsonl=${path.dirname(file)}`]);
      await waitFor(run, 'ready');
      // Killed once some, not all, of the file's batches have committed.
      const watcher = openDb(t.db);
      const committed = watcher.prepare('SELECT coalesce(max(committed_offset), 0) FROM source_files').pluck();
      while ((committed.get() as number) === 0) await sleep(5);
      run.child.kill('SIGKILL');
      await run.exited;
      const at = committed.get() as number;
      const stale = watcher.prepare('SELECT count(*) FROM conversations WHERE terms_stale = 1').pluck();
      expect(at).toBeLessThan(size);
      expect(stale.get()).toBe(1); // left by the kill
      watcher.close();
      checkAfterCrash(t);

      const db = openDb(t.db);
      try {
        const stats = createIndexer(db, ADAPTERS).scan(sourcesUnder(path.join(dir, 'home')));
        expect(stats.bytes).toBe(size - at);
        expect(db.prepare('SELECT count(*) FROM conversations WHERE terms_stale = 1').pluck().get()).toBe(0);
        const got = snapshot(db, dir);
        const want = singlePass(dir);
        if (JSON.stringify(got) !== JSON.stringify(want)) throw new Error(`after the next run: ${describeDiff(got, want)}`);
      } finally {
        db.close();
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
