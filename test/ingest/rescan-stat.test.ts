// A scan stats each session file once (issue 16, re-scan of an unchanged 10k ≤ 1 s): the stat that
// decides whether a file is indexed alone or in a group is the one indexFile compares with its row.
// Counted on the real fs.statSync, which keeps working.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createIndexer } from '../../src/main/ingest/scan.js';
import { ADAPTERS } from '../../src/main/ingest/sources.js';
import { openDb } from '../../src/main/store/db.js';
import { FIXTURES, useTmp } from '../helpers/tmp.js';

const tmp = useTmp('tl-rescan-stat-');
const TURN = fs.readFileSync(path.join(FIXTURES, 'large/claude-code/incremental-simple/turn-1.jsonl'));
const FILES = 150;

afterEach(() => {
  vi.restoreAllMocks();
});

/** How many times each session file (`.jsonl`) is stat-ed from now on. */
function statsPerFile(): () => number[] {
  const stat = vi.spyOn(fs, 'statSync');
  return () => {
    const per = new Map<string, number>();
    for (const [p] of stat.mock.calls) if (String(p).endsWith('.jsonl')) per.set(String(p), (per.get(String(p)) ?? 0) + 1);
    return [...per.values()];
  };
}

describe('a scan stats each file once', () => {
  it('on the first index and on an unchanged re-scan', () => {
    const dir = tmp();
    const root = path.join(dir, 'projects');
    for (let f = 0; f < 3; f++) {
      const folder = path.join(root, `-tmp-project-${f}`);
      fs.mkdirSync(folder, { recursive: true });
      for (let i = 0; i < FILES / 3; i++) fs.writeFileSync(path.join(folder, `${f}${String(i).padStart(7, '0')}-aaaa-bbbb-cccc-dddddddddddd.jsonl`), TURN);
    }
    const db = openDb(path.join(dir, 'index.sqlite'));
    const indexer = createIndexer(db, ADAPTERS);
    const sources = [{ kind: 'claude-code' as const, root }];

    let counts = statsPerFile();
    expect(indexer.scan(sources).parsedFiles).toBe(FILES);
    expect(counts().length).toBe(FILES);
    expect(Math.max(...counts())).toBe(1);
    vi.restoreAllMocks();

    counts = statsPerFile();
    const again = indexer.scan(sources);
    expect(again.parsedFiles).toBe(0);
    expect(again.files).toBe(FILES);
    expect(counts().length).toBe(FILES);
    expect(Math.max(...counts())).toBe(1);

    // A file that grew is still seen as grown (the stat handed on is the file's own).
    const grown = path.join(root, '-tmp-project-1', `1${String(5).padStart(7, '0')}-aaaa-bbbb-cccc-dddddddddddd.jsonl`);
    fs.appendFileSync(grown, TURN);
    expect(indexer.scan(sources).parsedFiles).toBe(1);
    db.close();
  });
});
