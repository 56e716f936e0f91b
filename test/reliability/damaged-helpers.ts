// Shared by the damaged-environment tests: worlds with every file written, the bundled CLI run as
// a user would (optionally as another uid), and what a "clear error" and "nothing lost" mean.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';
import { openDb } from '../../src/main/store/db.js';
import { assertIndexIntact } from '../helpers/fuzz-files.js';
import { bundle, start, type Exited, type Runnable } from './bundle.js';
import { childEnv, describeDiff, makeTrial, snapshot, type Snapshot, type Trial } from './crash-harness.js';

export const isRoot = process.getuid?.() === 0;
export const NOBODY = 65534;
export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Registers the bundled CLI and the worlds' cleanup for the calling test file. */
export function useCli(): { cli: () => Runnable; world: (seed: number) => Trial } {
  let cli: Runnable | null = null;
  const made: string[] = [];
  beforeAll(async () => {
    cli = await bundle('test/reliability/cli-entry.ts');
  });
  afterAll(() => {
    cli?.dispose();
    for (const d of made) fs.rmSync(d, { recursive: true, force: true });
  });
  return {
    cli: () => cli!,
    /** A trial world whose files are all written (no writer needed here). */
    world(seed) {
      const t = makeTrial(seed);
      for (const w of t.writes) fs.appendFileSync(w.file, Buffer.from(w.data, 'base64'));
      made.push(t.dir);
      return t;
    },
  };
}

export function cliRun(cli: Runnable, t: Trial, args: string[], opts: { uid?: number; db?: string } = {}): Promise<Exited> {
  const ids = opts.uid !== undefined ? { uid: opts.uid, gid: opts.uid } : {};
  // --db right after the command: anything after a `--` would be read as the query.
  return start([...cli.argv, args[0]!, '--db', opts.db ?? t.db, ...args.slice(1)], { env: childEnv(t.home), ...ids }).exited;
}

/** A clear error: the message, exit code 1, and no stack trace. */
export function expectClearError(e: Exited, message: RegExp): void {
  expect(e.code, e.stderr).toBe(1);
  expect(e.stderr).toMatch(message);
  expect(e.stderr).not.toMatch(/\n\s+at |SqliteError|TypeError/);
}

/** The index as it is, after SQLite's and FTS5's integrity checks. */
export function current(t: Trial, db = t.db): Snapshot {
  const h = openDb(db);
  try {
    assertIndexIntact(h);
    return snapshot(h, t.dir);
  } finally {
    h.close();
  }
}

export function expectEqualTo(got: Snapshot, want: Snapshot): void {
  if (JSON.stringify(got) !== JSON.stringify(want)) throw new Error(describeDiff(got, want));
}

/** Bytes of all session files of a world: what sizes its index (roughly twice that). */
function sourceBytes(t: Trial): number {
  return fs.readdirSync(t.home, { recursive: true, withFileTypes: true }).reduce((n, d) => (d.isFile() ? n + fs.statSync(path.join(d.parentPath, d.name)).size : n), 0);
}

/** A disk size with room for the world's index and a little more… */
export const diskFor = (t: Trial) => `${Math.ceil((3 * sourceBytes(t) + (768 << 10)) / 1024)}k`;
/** …but not for a new session file of this many bytes. */
export const tooBig = (t: Trial) => 3 * sourceBytes(t) + (2 << 20);

/** A tmpfs of `size` at `dir` (root only); false when this machine cannot mount one. */
export function mountTmpfs(dir: string, size: string): boolean {
  if (!isRoot) return false;
  try {
    fs.mkdirSync(dir, { recursive: true });
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', dir], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

export const umount = (dir: string) => execFileSync('umount', ['-l', dir], { stdio: 'ignore' });

export const canMount = (() => {
  const probe = fs.mkdtempSync(path.join(os.tmpdir(), 'tl-mnt-'));
  const ok = mountTmpfs(probe, '64k');
  if (ok) umount(probe);
  fs.rmSync(probe, { recursive: true, force: true });
  return ok;
})();
