// The live watcher on real folders and real file-system events: appends, new files, and new folders
// (a new project; Codex's folder for a new day) with files written into them at once.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ADAPTERS } from '../../src/main/ingest/sources.js';
import { createCore, type Core } from '../../src/main/api/core.js';
import { RESCAN_SPACING, watchSources, type Watcher } from '../../src/main/ingest/watch.js';
import { FIXTURES, useTmp } from '../helpers/tmp.js';

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

describe("OpenCode's folder per message", () => {
  // The storage layout of OpenCode before its database: part/<message>/<part>.json.
  function storage(): string {
    const root = path.join(tmp(), 'storage');
    fs.cpSync(path.join(FIXTURES, 'opencode/agent-sessions-storage-v2'), root, { recursive: true });
    return root;
  }
  function startOpencode(root: string, briefQuietMs?: number) {
    const seen = new Set<string>();
    watcher = watchSources([{ kind: 'opencode', root }], ADAPTERS, { onFile: (_kind, file) => seen.add(path.relative(root, file)), onRescan: () => {}, debounceMs: 20, perFolder: true, briefQuietMs });
    return seen;
  }

  it('is not watched when it was there already; one that appears is, with the parts written into it', async () => {
    const root = storage();
    const seen = startOpencode(root);
    await watcher!.settled();
    // storage, message, part, session, migration?, and each session's and project's folder: none of part/'s six.
    const all = (dir: string): string[] => fs.readdirSync(dir, { withFileTypes: true }).filter((d) => d.isDirectory()).flatMap((d) => [path.join(dir, d.name), ...all(path.join(dir, d.name))]);
    const folders = [root, ...all(root)];
    const perMessage = folders.filter((dir) => path.basename(path.dirname(dir)) === 'part');
    expect(perMessage).toHaveLength(6);
    expect(watcher!.folders()).toBe(folders.length - perMessage.length);

    // A new message streams: its folder appears, then its parts.
    const parts = path.join(root, 'part', 'm_new');
    fs.mkdirSync(parts);
    fs.writeFileSync(path.join(parts, '001.json'), '{"id":"p1","type":"text","text":"first"}');
    expect(await until(() => seen.has('part/m_new/001.json'))).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 50));
    fs.writeFileSync(path.join(parts, '002.json'), '{"id":"p2","type":"text","text":"second"}');
    expect(await until(() => seen.has('part/m_new/002.json'))).toBe(true);
    expect(watcher!.folders()).toBe(folders.length - perMessage.length + 1);
  });

  it('stops being watched once it has been quiet a while (the periodic scan reads it then)', async () => {
    const root = storage();
    const seen = startOpencode(root, 400);
    await watcher!.settled();
    const before = watcher!.folders();
    const parts = path.join(root, 'part', 'm_new');
    fs.mkdirSync(parts);
    fs.writeFileSync(path.join(parts, '001.json'), '{"id":"p1","type":"text","text":"first"}');
    expect(await until(() => seen.has('part/m_new/001.json'))).toBe(true);
    expect(watcher!.folders()).toBe(before + 1);
    expect(await until(() => watcher!.folders() === before)).toBe(true);
  });
});

describe("OpenCode's folder per message, in the daemon's core", () => {
  let core: Core | undefined;
  afterEach(() => core?.close());

  it('indexes a new message whose parts are written after the watcher started, live', async () => {
    const dir = tmp();
    const root = path.join(dir, 'storage');
    fs.cpSync(path.join(FIXTURES, 'opencode/agent-sessions-storage-v2'), root, { recursive: true });
    core = createCore({ dbPath: path.join(dir, 'index.sqlite'), settingsPath: path.join(dir, 'settings.json'), env: { HOME: dir }, sources: [{ kind: 'opencode', root }] });
    await core.watch();
    const texts = () => (core!.db.prepare("SELECT text FROM entries WHERE text LIKE '%zebrafinch%'").pluck().all() as string[]).sort();
    expect(texts()).toEqual([]);

    // OpenCode writes the message, then its folder of parts and each part as it streams.
    const message = { id: 'm_user_new', sessionID: 's_stage0_small', role: 'user', time: { created: 1730000009000 }, agent: 'opencode', model: { providerID: 'openai', modelID: 'gpt-4o-mini' } };
    fs.writeFileSync(path.join(root, 'message', 's_stage0_small', 'msg_0003.json'), JSON.stringify(message));
    const parts = path.join(root, 'part', 'm_user_new');
    fs.mkdirSync(parts);
    const part = (id: string, text: string) => JSON.stringify({ id, sessionID: 's_stage0_small', messageID: 'm_user_new', type: 'text', text, time: { start: 1730000009000 } });
    fs.writeFileSync(path.join(parts, '001.json'), part('p_new_1', 'where is the zebrafinch config'));
    const end = Date.now() + 5000;
    while (texts().length < 1 && Date.now() < end) await new Promise((resolve) => setTimeout(resolve, 25));
    expect(texts()).toEqual(['where is the zebrafinch config']);
    fs.writeFileSync(path.join(parts, '002.json'), part('p_new_2', 'and the zebrafinch tests'));
    while (texts().length < 2 && Date.now() < end + 5000) await new Promise((resolve) => setTimeout(resolve, 25));
    expect(texts()).toEqual(['and the zebrafinch tests', 'where is the zebrafinch config']);
  });
});

describe('setting the watches', () => {
  it('walks a large tree a slice at a time, the event loop free between slices', async () => {
    const root = tmp();
    for (let i = 0; i < 3000; i++) fs.mkdirSync(path.join(root, String(i % 30), String(i)), { recursive: true });
    let turns = 0;
    const counting = setInterval(() => turns++, 0);
    start(root, true);
    const right = watcher!.folders();
    await watcher!.settled();
    clearInterval(counting);
    // Not all at once: the walk went on after watchSources returned, and timers ran meanwhile.
    expect(right).toBeLessThan(3031);
    expect(watcher!.folders()).toBe(3031);
    expect(turns).toBeGreaterThan(0);
  });
});

describe('the periodic scan', () => {
  it('comes later when scans take long: a scan takes at most 1/RESCAN_SPACING of the time', async () => {
    const scans: { start: number; end: number }[] = [];
    watcher = watchSources([], ADAPTERS, {
      onFile: () => {},
      // Each scan takes 25 ms (more on a busy machine), so the next comes its length × RESCAN_SPACING
      // after it ends, not 5 ms after. Measured from the scans' own times: a timer late under load
      // (CI shares 2 cores) makes a scan longer and the gap longer with it, never shorter.
      onRescan: () =>
        new Promise((resolve) => {
          const scan = { start: performance.now(), end: Number.NaN };
          scans.push(scan);
          setTimeout(() => resolve((scan.end = performance.now())), 25);
        }),
      rescanMs: 5,
    });
    const until = performance.now() + 20_000;
    while (scans.length < 2 && performance.now() < until) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(scans.length).toBe(2);
    const [first, second] = scans as [{ start: number; end: number }, { start: number; end: number }];
    const length = first.end - first.start;
    expect(length).toBeGreaterThanOrEqual(20);
    // setTimeout may fire a millisecond early by performance.now(): a little slack below the bound.
    expect(second.start - first.end).toBeGreaterThanOrEqual(length * RESCAN_SPACING - 5);
  }, 30_000);
});
