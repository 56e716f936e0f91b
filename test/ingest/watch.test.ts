// The live watcher on real folders and real file-system events: appends, new files, and new folders
// (a new project; Codex's folder for a new day) with files written into them at once.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ADAPTERS } from '../../src/main/ingest/sources.js';
import { watchSources, type Watcher } from '../../src/main/ingest/watch.js';
import { useTmp } from '../helpers/tmp.js';

const tmp = useTmp('tl-watch-');
let watcher: Watcher | undefined;
afterEach(() => watcher?.close());

function start(root: string, perFolder: boolean) {
  const seen = new Set<string>();
  let rescans = 0;
  watcher = watchSources([{ kind: 'codex', root }], ADAPTERS, {
    onFile: (_kind, file) => seen.add(path.relative(root, file)),
    onRescan: () => void rescans++,
    debounceMs: 20,
    perFolder,
  });
  return { seen, rescans: () => rescans };
}

const until = async (ok: () => boolean, ms = 3000) => {
  const end = Date.now() + ms;
  while (!ok() && Date.now() < end) await new Promise((resolve) => setTimeout(resolve, 10));
  return ok();
};

for (const perFolder of [true, false]) {
  describe(perFolder ? 'watching each folder' : 'watching recursively', () => {
    it('reports appends, new files, and files in folders created after it started', async () => {
      const root = tmp();
      const day = path.join(root, '2026', '11', '29');
      fs.mkdirSync(day, { recursive: true });
      const existing = path.join(day, 'rollout-2026-11-29T10-00-00-a.jsonl');
      fs.writeFileSync(existing, '{}\n');
      const w = start(root, perFolder);
      // Nothing is reported for files that only existed.
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(w.seen.size).toBe(0);

      fs.appendFileSync(existing, '{}\n');
      expect(await until(() => w.seen.has(path.relative(root, existing)))).toBe(true);

      // A new day: its folders and the session file appear together, as Codex writes them.
      const next = path.join(root, '2026', '11', '30');
      fs.mkdirSync(next, { recursive: true });
      const fresh = path.join(next, 'rollout-2026-11-30T09-00-00-b.jsonl');
      fs.writeFileSync(fresh, '{}\n');
      expect(await until(() => w.seen.has(path.relative(root, fresh)))).toBe(true);
      // …and later appends to it too.
      w.seen.clear();
      fs.appendFileSync(fresh, '{}\n');
      expect(await until(() => w.seen.has(path.relative(root, fresh)))).toBe(true);

      // Not a session file: not reported.
      fs.writeFileSync(path.join(next, 'notes.txt'), 'x');
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect([...w.seen].some((f) => f.endsWith('notes.txt'))).toBe(false);
    });

    it('watches a folder again after it was removed and made anew', async () => {
      const root = tmp();
      const project = path.join(root, '2026', '12', '01');
      fs.mkdirSync(project, { recursive: true });
      const w = start(root, perFolder);
      fs.rmSync(path.join(root, '2026', '12'), { recursive: true });
      await new Promise((resolve) => setTimeout(resolve, 100));
      fs.mkdirSync(project, { recursive: true });
      await new Promise((resolve) => setTimeout(resolve, 100));
      const file = path.join(project, 'rollout-2026-12-01T08-00-00-c.jsonl');
      fs.writeFileSync(file, '{}\n');
      expect(await until(() => w.seen.has(path.relative(root, file)))).toBe(true);
    });
  });
}
