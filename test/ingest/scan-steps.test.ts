// An unchanged re-scan hands the event loop back often (issue 16): the daemon answers agents between
// its steps. OpenCode's part folder holds a folder per message (7,600 at 10k, 35,800 at 50k), and
// listing it, reading the states its order comes from and ordering it were one step: 80-110 ms of CPU
// at 10k. Here the folder is listed a piece at a time and the states read a page at a time, a step each.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createIndexer } from '../../src/main/ingest/scan.js';
import { ADAPTERS } from '../../src/main/ingest/sources.js';
import { openDb, type Db } from '../../src/main/store/db.js';
import { onRowsReturned } from '../helpers/rows-returned.js';
import { useTmp } from '../helpers/tmp.js';

const tmp = useTmp('tl-scan-steps-');
const SESSIONS = 21;
const MESSAGES_EACH = 100; // 2,100 part folders: more than one piece of a listing (2,048)
/** Indexing 5,000 files first: ~10 s at load 10 (CI shares 2 cores). */
const SLOW_MACHINE_MS = 180_000;

afterEach(() => {
  vi.restoreAllMocks();
});

/** OpenCode's storage as it writes it (the shapes of test/fixtures/opencode/storage): a session, its messages, a text part each. */
function writeStorage(storage: string): void {
  const t0 = 1_737_979_200_000;
  for (let s = 0; s < SESSIONS; s++) {
    const ses = `ses_${String(s).padStart(4, '0')}`;
    const messages = Array.from({ length: MESSAGES_EACH }, (_, m) => `msg_${String(s).padStart(4, '0')}_${String(m).padStart(4, '0')}`);
    const put = (rel: string, value: unknown) => {
      fs.mkdirSync(path.dirname(path.join(storage, rel)), { recursive: true });
      fs.writeFileSync(path.join(storage, rel), JSON.stringify(value));
    };
    put(`session/project/${ses}.json`, { id: ses, version: '1.0.0', time: { created: t0 + s * 1e6, updated: t0 + s * 1e6 + 1e5 }, directory: `/work/p${s}` });
    messages.forEach((id, m) => {
      const role = m % 2 === 0 ? 'user' : 'assistant';
      put(`message/${ses}/${id}.json`, { id, sessionID: ses, role, time: { created: t0 + s * 1e6 + m * 1000 }, parts: [] });
      put(`part/${id}/prt_${id.slice(4)}.json`, { id: `prt_${id.slice(4)}`, sessionID: ses, messageID: id, type: 'text', text: `${role} turn ${m} of session ${s}` });
    });
  }
}

/** Counts, per turn of the event loop, the index rows statements returned and the folder entries listed. */
function perTurn(db: Db) {
  const turns: { rows: number; entries: number }[] = [{ rows: 0, entries: 0 }];
  const now = () => turns.at(-1)!;
  onRowsReturned(db, (rows) => {
    now().rows += rows.length;
  });
  const readdir = fs.readdirSync;
  vi.spyOn(fs, 'readdirSync').mockImplementation(((dir: fs.PathLike, options?: unknown) => {
    const names = readdir(dir, options as never) as unknown[];
    now().entries += names.length;
    return names;
  }) as typeof fs.readdirSync);
  const dirRead = fs.Dir.prototype.readSync;
  vi.spyOn(fs.Dir.prototype, 'readSync').mockImplementation(function (this: fs.Dir) {
    const entry = dirRead.call(this);
    if (entry) now().entries++;
    return entry;
  });
  let running = true;
  const tick = () => {
    turns.push({ rows: 0, entries: 0 });
    if (running) setImmediate(tick);
  };
  setImmediate(tick);
  return {
    turns,
    stop: () => {
      running = false;
    },
  };
}

describe('an unchanged re-scan, step by step', () => {
  it('lists a part folder of 2,100 messages a piece at a time and reads the states that order it a page at a time', async () => {
    const dir = tmp();
    const storage = path.join(dir, 'storage');
    writeStorage(storage);
    const db = openDb(path.join(dir, 'index.sqlite'));
    const sources = [{ kind: 'opencode' as const, root: storage }];
    expect(createIndexer(db, ADAPTERS).scan(sources).parsedFiles).toBe(SESSIONS * (1 + 2 * MESSAGES_EACH));

    const seen = perTurn(db);
    const indexer = createIndexer(db, ADAPTERS); // its statements prepared through the counting prepare
    // Every step finds its time slice used up: the scan yields wherever it may (the bounds then are in pieces and pages, not ms).
    let clock = performance.now();
    vi.spyOn(performance, 'now').mockImplementation(() => (clock += 10));
    const stats = await indexer.scanAsync(sources);
    seen.stop();
    expect(stats.files).toBe(SESSIONS * (1 + 2 * MESSAGES_EACH));
    expect(stats.parsedFiles).toBe(0);
    const most = (key: 'rows' | 'entries') => Math.max(...seen.turns.map((t) => t[key]));
    // One turn listed the whole part folder (2,100 entries) and read every message's state (2,100 rows) before.
    expect(most('entries')).toBeLessThanOrEqual(2048);
    expect(most('rows')).toBeLessThanOrEqual(1000);
    expect(seen.turns.reduce((n, t) => n + t.entries, 0)).toBeGreaterThanOrEqual(2 * MESSAGES_EACH * SESSIONS);
    db.close();
  }, SLOW_MACHINE_MS);
});
