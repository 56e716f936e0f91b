// A scan reads the index's rows of the files it walks a chunk at a time (issue 16, memory): a re-scan
// of many files never holds every file's row at once, and still tells the files that disappeared.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CHUNK_FILES } from '../../src/main/ingest/discover.js';
import { createIndexer, type ScanProgress } from '../../src/main/ingest/scan.js';
import { ADAPTERS } from '../../src/main/ingest/sources.js';
import { openDb, type Db } from '../../src/main/store/db.js';
import { onRowsReturned } from '../helpers/rows-returned.js';
import { FIXTURES, useTmp } from '../helpers/tmp.js';

const tmp = useTmp('tl-scan-chunks-');
const TURN = fs.readFileSync(path.join(FIXTURES, 'large/claude-code/incremental-simple/turn-1.jsonl'));
const FOLDERS = 11;
const PER_FOLDER = 100;
const FILES = FOLDERS * PER_FOLDER; // more than two chunks
/** Each test indexes 1,100 files and scans them again: ~6 s at load 10, over 30 s at load 13 (CI shares 2 cores). */
const SLOW_MACHINE_MS = 120_000;

/** The most rows any one statement answered at once on this connection, and the rows in all. */
function watchRows(db: Db): { most: number; all: number } {
  const seen = { most: 0, all: 0 };
  onRowsReturned(db, (rows) => {
    seen.most = Math.max(seen.most, rows.length);
    seen.all += rows.length;
  });
  return seen;
}

function setup() {
  const dir = tmp();
  const root = path.join(dir, 'projects');
  const folders = Array.from({ length: FOLDERS }, (_, f) => path.join(root, `-tmp-project-${f}`));
  for (const [f, folder] of folders.entries()) {
    fs.mkdirSync(folder, { recursive: true });
    for (let i = 0; i < PER_FOLDER; i++) fs.writeFileSync(path.join(folder, `${String(f).padStart(2, '0')}${String(i).padStart(6, '0')}-aaaa-bbbb-cccc-dddddddddddd.jsonl`), TURN);
  }
  const db = openDb(path.join(dir, 'index.sqlite'));
  const rows = watchRows(db);
  const indexer = createIndexer(db, ADAPTERS);
  const progress: ScanProgress[] = [];
  const scan = () => {
    progress.length = 0;
    return indexer.scan([{ kind: 'claude-code', root }], { onProgress: (p) => progress.push(p) });
  };
  const count = (sql: string) => db.prepare(sql).pluck().get() as number;
  return { root, folders, db, rows, scan, progress, count };
}

describe('a scan in chunks', () => {
  it('reads at most a chunk of rows at once on a re-scan of many files, and parses nothing unchanged', () => {
    const s = setup();
    expect(s.scan().parsedFiles).toBe(FILES);
    // A first index counts the files before it starts, so its progress has a true total.
    expect(s.progress[0]!.filesTotal).toBe(FILES);
    s.rows.most = 0;
    s.rows.all = 0;
    const again = s.scan();
    expect(again.files).toBe(FILES);
    expect(again.parsedFiles).toBe(0);
    expect(again.missing).toBe(0);
    expect(s.rows.all).toBeGreaterThanOrEqual(FILES); // every file's row was read…
    expect(s.rows.most).toBeLessThanOrEqual(CHUNK_FILES); // …never all of them at once
    expect(s.progress.every((p) => p.filesTotal === FILES)).toBe(true);
    expect(s.progress.at(-1)!.filesDone).toBe(FILES);
    s.db.close();
  }, SLOW_MACHINE_MS);

  it('marks missing the files and the folder that disappeared, in any chunk, and reads a returned file again', () => {
    const s = setup();
    s.scan();
    const entries = s.count('SELECT count(*) FROM entries');
    const gone = [fs.readdirSync(s.folders[0]!)[5]!, fs.readdirSync(s.folders[7]!)[99]!].map((name, k) => path.join(s.folders[k === 0 ? 0 : 7]!, name));
    const kept = fs.readFileSync(gone[0]!);
    for (const file of gone) fs.rmSync(file);
    fs.rmSync(s.folders[4]!, { recursive: true });
    s.rows.most = 0;
    const stats = s.scan();
    expect(stats.missing).toBe(2 + PER_FOLDER);
    expect(s.rows.most).toBeLessThanOrEqual(CHUNK_FILES);
    const missing = s.db.prepare("SELECT path FROM source_files WHERE status = 'missing' ORDER BY path").pluck().all() as string[];
    expect(missing.filter((p) => p.startsWith(s.folders[4]! + path.sep))).toHaveLength(PER_FOLDER);
    expect(missing.filter((p) => !p.startsWith(s.folders[4]! + path.sep)).sort()).toEqual([...gone].sort());
    expect(s.count('SELECT count(*) FROM entries')).toBe(entries); // their conversations are kept
    // Nothing further disappeared: the next scan marks none; a file put back is read again.
    expect(s.scan().missing).toBe(0);
    fs.writeFileSync(gone[0]!, kept);
    const back = s.scan();
    expect(back.missing).toBe(0);
    expect(back.parsedFiles).toBe(1);
    expect(s.count("SELECT count(*) FROM source_files WHERE status = 'missing'")).toBe(1 + PER_FOLDER);
    s.db.close();
  }, SLOW_MACHINE_MS);

  it('marks missing a file no longer named like a session and one inside a folder now a link', () => {
    const s = setup();
    s.scan();
    const renamed = path.join(s.folders[2]!, fs.readdirSync(s.folders[2]!)[0]!);
    fs.renameSync(renamed, `${renamed}.bak`);
    // The folder replaced by a link to a copy of itself: the walk does not follow folder links.
    const copy = `${s.folders[9]!}-copy`;
    fs.renameSync(s.folders[9]!, copy);
    fs.symlinkSync(copy, s.folders[9]!);
    const stats = s.scan();
    expect(stats.missing).toBe(1 + PER_FOLDER);
    s.db.close();
  }, SLOW_MACHINE_MS);
});
