// A cold index parses its new files on a worker thread while the scan's thread writes (issue 16,
// parse-ahead.ts): the index built must be the one a scan parsing everything itself builds, a
// malformed line is still skipped and reported with its file and line, a file another writer
// indexed meanwhile is not written twice, and the worker dies with the scan.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ParseAhead, parseWorkerEntry } from '../../src/main/ingest/parse-ahead.js';
import { createIndexer, type Source } from '../../src/main/ingest/scan.js';
import { ADAPTERS } from '../../src/main/ingest/sources.js';
import { openDb, type Db } from '../../src/main/store/db.js';
import { FIXTURES, useTmp } from '../helpers/tmp.js';

const tmp = useTmp('tl-parse-ahead-');
/** Each test indexes a few hundred fixture files two or three times: seconds at load 10. */
const SLOW_MACHINE_MS = 120_000;
const COPIES = 4;

/**
 * The fixtures of several agents, each copied COPIES times under its root (the same records in
 * other files: a copy gets conversations of its own), and a Claude Code session with a broken line.
 */
function corpus(): { sources: Source[]; broken: string } {
  const dir = tmp();
  const roots: Record<string, { kind: Source['kind']; from: string }> = {
    claude: { kind: 'claude-code', from: 'claude-code' },
    claudeLarge: { kind: 'claude-code', from: 'large/claude-code' },
    codex: { kind: 'codex', from: 'codex' },
    pi: { kind: 'pi', from: 'pi' },
    opencode: { kind: 'opencode', from: 'opencode/agent-sessions-storage-v2' },
  };
  const sources: Source[] = [];
  for (const [name, { kind, from }] of Object.entries(roots)) {
    const root = path.join(dir, name);
    for (let c = 0; c < COPIES; c++) fs.cpSync(path.join(FIXTURES, from), kind === 'opencode' ? root : path.join(root, `copy-${c}`), { recursive: true });
    sources.push({ kind, root });
  }
  const lines = fs.readFileSync(path.join(FIXTURES, 'claude-code/episodic-short-conversation.jsonl'), 'utf8').split('\n');
  lines.splice(2, 0, '{"type":"user","message": not json');
  const broken = path.join(dir, 'claude', 'copy-0', 'broken-4c2ddfdc.jsonl');
  fs.writeFileSync(broken, lines.join('\n'));
  return { sources, broken };
}

/** Every row the index holds that a scan writes, but the times of the run. */
function contents(db: Db): Record<string, unknown[]> {
  const rows = (sql: string) => db.prepare(sql).raw().all();
  return {
    files: rows('SELECT id, path, kind, size, mtime_ms, inode, committed_offset, committed_line, parser_state, status, error FROM source_files ORDER BY id'),
    conversations: rows('SELECT * FROM conversations ORDER BY id'),
    entries: rows('SELECT * FROM entries ORDER BY id'),
    errors: rows('SELECT path, line, reason FROM ingest_errors ORDER BY id'),
    titles: rows('SELECT rowid, * FROM conversations_fts ORDER BY rowid'),
    terms: rows('SELECT * FROM conversation_terms_vocab ORDER BY term'),
    matches: rows("SELECT rowid FROM entries_fts WHERE entries_fts MATCH 'test OR error OR file' ORDER BY rowid"),
  };
}

/** The threads of this process now (the parse worker is one more while it runs). */
const threads = () => fs.readdirSync('/proc/self/task').length;

async function threadsBackTo(count: number): Promise<number> {
  for (let i = 0; i < 100 && threads() > count; i++) await new Promise((resolve) => setTimeout(resolve, 50));
  return threads();
}

describe('parsing ahead on a worker', () => {
  it('builds the index a scan parsing on its own thread builds, malformed lines reported with file and line', { timeout: SLOW_MACHINE_MS }, async () => {
    const { sources, broken } = corpus();
    const dir = tmp();
    const serialDb = openDb(path.join(dir, 'serial.sqlite'));
    const serial = createIndexer(serialDb, ADAPTERS).scan(sources);
    const before = threads();
    let most = before;
    const aheadDb = openDb(path.join(dir, 'ahead.sqlite'));
    const ahead = createIndexer(aheadDb, ADAPTERS, { parseAhead: true }).scan(sources, { onProgress: () => (most = Math.max(most, threads())) });
    // The worker ran during the scan, and is gone after it.
    expect(most).toBeGreaterThan(before);
    expect(await threadsBackTo(before)).toBe(before);

    expect(ahead.parsedFiles).toBe(serial.parsedFiles);
    expect(ahead.parsedFiles).toBeGreaterThan(80);
    expect(ahead.entries).toBe(serial.entries);
    expect(ahead.bytes).toBe(serial.bytes);
    expect(ahead.errors).toEqual(serial.errors);
    expect(ahead.errors).toContainEqual({ path: broken, line: 3, reason: expect.stringMatching(/JSON|json/) });
    expect(contents(aheadDb)).toEqual(contents(serialDb));

    // scanAsync, the daemon's and `throughline index`'s scan, the same.
    const asyncDb = openDb(path.join(dir, 'async.sqlite'));
    const viaAsync = await createIndexer(asyncDb, ADAPTERS, { parseAhead: true }).scanAsync(sources);
    expect(viaAsync.errors).toEqual(serial.errors);
    expect(contents(asyncDb)).toEqual(contents(serialDb));
    expect(await threadsBackTo(before)).toBe(before);
    for (const db of [serialDb, aheadDb, asyncDb]) db.close();
  });

  it('reads a file another writer indexed while it was parsed ahead from that writer\'s row, not again from its start', { timeout: SLOW_MACHINE_MS }, async () => {
    const { sources, broken } = corpus();
    const dir = tmp();
    const db = openDb(path.join(dir, 'index.sqlite'));
    // A second writer on the same index, as the watcher (or another process) is during a scan's yields.
    const other = createIndexer(openDb(path.join(dir, 'index.sqlite')), ADAPTERS);
    const claudeFiles = fs.readdirSync(sources[0]!.root, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.jsonl'));
    const last = path.join(sources[0]!.root, claudeFiles.sort().at(-1)!);
    const lines = fs.readFileSync(last, 'utf8').trimEnd().split('\n');
    const before = threads();
    let step = 0;
    const stats = await createIndexer(db, ADAPTERS, { parseAhead: true }).scanAsync(sources, {
      onProgress: () => {
        // Once the worker thread is there, it is given time to load; the next step sends it the
        // source's files (this one among them); then the other writer indexes this file, and the
        // agent appends to it, before the scan comes to it.
        if (step === 0 && threads() > before) {
          step = 1;
          Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 2_000);
        } else if (step === 1) {
          step = 2;
          other.indexFile('claude-code', last);
          const userLine = lines.find((l) => l.includes('"type":"user"') && l.includes('"text":"'))!;
          fs.appendFileSync(last, `${userLine.replace(/"uuid":"[^"]+"/, '"uuid":"0a1b2c3d-0000-4000-8000-000000000001"').replace('"text":"', '"text":"zebrafinch ')}\n`);
        }
      },
    });
    expect(step).toBe(2);
    expect(stats.errors.map((e) => e.path)).toEqual([broken]);
    // Its entries once, as in an index of the file alone.
    const alone = openDb(path.join(dir, 'alone.sqlite'));
    createIndexer(alone, ADAPTERS).indexFile('claude-code', last);
    const count = (d: Db) =>
      d.prepare('SELECT count(*) FROM entries e JOIN conversations c ON c.id = e.conversation_id JOIN source_files f ON f.id = c.file_id WHERE f.path = ?').pluck().get(last) as number;
    expect(count(db)).toBe(count(alone));
    // The appended line read once, after what the other writer committed.
    const appended = (d: Db) => d.prepare("SELECT count(*) FROM entries_fts WHERE entries_fts MATCH 'zebrafinch'").pluck().get();
    expect(appended(alone)).toBe(1);
    expect(appended(db)).toBe(1);
    expect(count(db)).toBeGreaterThan(lines.length / 2);
    for (const d of [db, alone]) d.close();
  });

  it('sends nothing to a worker that cannot start, and gives up one that stops', async () => {
    const dir = tmp();
    const files = Array.from({ length: 20 }, (_, i) => {
      const file = path.join(dir, `${i}.jsonl`);
      fs.writeFileSync(file, '{}\n');
      return { kind: 'claude-code' as const, file };
    });
    const send = (ahead: ParseAhead) => ahead.fill(files, 0, () => true, (item) => ({ st: fs.statSync(item.file), whole: false }));

    const failing = path.join(dir, 'fails.mjs');
    fs.writeFileSync(failing, "throw new Error('worker cannot start');\n");
    const never = new ParseAhead(failing);
    send(never);
    await new Promise((resolve) => setTimeout(resolve, 500));
    send(never);
    // The scan parses every file itself.
    expect(never.jobFor(files[0]!.file)).toBeUndefined();
    never.close();

    // Says it started, then stops at its first job: a scan waiting synchronously cannot see it exit
    // (the event needs the loop it blocks), so it is given up once silent for stallMs.
    const stopping = path.join(dir, 'stops.mjs');
    fs.writeFileSync(
      stopping,
      [
        "import { workerData } from 'node:worker_threads';",
        'const { port, signal } = workerData;',
        "port.on('message', () => process.exit(1));",
        "port.postMessage('ready');",
        'Atomics.add(signal, 0, 1);',
        'Atomics.notify(signal, 0);',
      ].join('\n'),
    );
    const ahead = new ParseAhead(stopping, 1_500);
    send(ahead);
    for (let i = 0; i < 100 && !ahead.jobFor(files[0]!.file); i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      send(ahead);
    }
    const job = ahead.jobFor(files[0]!.file);
    expect(job).toBeDefined();
    expect(ahead.reply(job!, 0)).toBeNull();
    expect(ahead.jobFor(files[1]!.file)).toBeUndefined();
    ahead.close();
  });

  it('finds its worker script from the sources', () => {
    expect(parseWorkerEntry()).toMatch(/parse-worker-boot\.mjs$/);
    expect(fs.existsSync(parseWorkerEntry()!)).toBe(true);
  });
});
