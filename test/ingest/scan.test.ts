import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createIndexer } from '../../src/main/ingest/scan.js';
import { ADAPTERS } from '../../src/main/ingest/sources.js';
import { openDb, type Db } from '../../src/main/store/db.js';
import { dumpIndex } from '../helpers/dump.js';
import { FIXTURES, useTmp } from '../helpers/tmp.js';

const tmp = useTmp('tl-scan-');
const INC = path.join(FIXTURES, 'large/claude-code/incremental-simple');
const SESSION = '0f5c6a43-7a7b-4b0e-9d5e-1c2b3a4d5e6f';

function setup() {
  const dir = tmp();
  const root = path.join(dir, 'projects');
  const project = path.join(root, '-tmp-project');
  fs.mkdirSync(project, { recursive: true });
  const db = openDb(path.join(dir, 'index.sqlite'));
  const indexer = createIndexer(db, ADAPTERS);
  const scan = () => indexer.scan([{ kind: 'claude-code', root }]);
  return { dir, root, project, db, scan, file: path.join(project, `${SESSION}.jsonl`) };
}

function singlePass(content: Buffer | string): ReturnType<typeof dumpIndex> {
  const s = setup();
  fs.writeFileSync(s.file, content);
  s.scan();
  const dump = dumpIndex(s.db);
  s.db.close();
  return dump;
}

function count(db: Db, sql: string): number {
  return db.prepare(sql).pluck().get() as number;
}

describe('incremental ingest', () => {
  it('reads a grown file from its committed offset and ends equal to a single pass (incremental-simple turn-1 → turn-2)', () => {
    const turn1 = fs.readFileSync(path.join(INC, 'turn-1.jsonl'));
    const turn2 = fs.readFileSync(path.join(INC, 'turn-2.jsonl'));
    expect(turn2.subarray(0, turn1.length).equals(turn1)).toBe(true); // turn-2 is turn-1 grown by appends
    const s = setup();
    fs.writeFileSync(s.file, turn1);
    const first = s.scan();
    expect(first.parsedFiles).toBe(1);
    expect(first.bytes).toBe(turn1.length);
    const afterTurn1 = count(s.db, 'SELECT count(*) FROM entries');
    expect(afterTurn1).toBeGreaterThan(0);
    fs.appendFileSync(s.file, turn2.subarray(turn1.length));
    const second = s.scan();
    expect(second.bytes).toBe(turn2.length - turn1.length); // only the new bytes were read
    expect(count(s.db, 'SELECT count(*) FROM entries')).toBeGreaterThan(afterTurn1);
    expect(dumpIndex(s.db)).toEqual(singlePass(turn2));
    s.db.close();
  });

  it('re-running over unchanged files parses nothing', () => {
    const s = setup();
    fs.writeFileSync(s.file, fs.readFileSync(path.join(INC, 'turn-2.jsonl')));
    s.scan();
    const before = dumpIndex(s.db);
    const again = s.scan();
    expect(again.files).toBe(1);
    expect(again.parsedFiles).toBe(0);
    expect(again.bytes).toBe(0);
    expect(again.entries).toBe(0);
    expect(dumpIndex(s.db)).toEqual(before);
    s.db.close();
  });

  it('grows a pi file line by line and ends equal to a single pass', () => {
    const lines = fs.readFileSync(path.join(FIXTURES, 'pi/pi-mono-large-session-v1-head27.jsonl'), 'utf8').split('\n').filter(Boolean);
    const dir = tmp();
    const root = path.join(dir, 'sessions', '--work--');
    fs.mkdirSync(root, { recursive: true });
    const file = path.join(root, '2025-11-20T23-33-50-805Z_d703a1a9-1b7b-4fb1-b512-c9738b1fe617.jsonl');
    const grown = openDb(path.join(dir, 'grown.sqlite'));
    const indexer = createIndexer(grown, ADAPTERS);
    for (const line of lines) {
      fs.appendFileSync(file, line + '\n');
      indexer.scan([{ kind: 'pi', root: path.join(dir, 'sessions') }]);
    }
    const once = openDb(path.join(dir, 'once.sqlite'));
    createIndexer(once, ADAPTERS).scan([{ kind: 'pi', root: path.join(dir, 'sessions') }]);
    expect(dumpIndex(grown).entries.length).toBeGreaterThan(10);
    expect(dumpIndex(grown)).toEqual(dumpIndex(once));
    grown.close();
    once.close();
  });

  it('waits for a partial last line until its newline arrives', () => {
    const lines = fs.readFileSync(path.join(INC, 'turn-1.jsonl'), 'utf8').split('\n').filter(Boolean);
    const s = setup();
    const head = lines.slice(0, -1).join('\n') + '\n';
    const last = lines.at(-1)!;
    fs.writeFileSync(s.file, head + last.slice(0, 40));
    s.scan();
    const offset = count(s.db, 'SELECT committed_offset FROM source_files');
    expect(offset).toBe(Buffer.byteLength(head));
    expect(count(s.db, 'SELECT count(*) FROM ingest_errors')).toBe(0); // half a line is not an error
    fs.appendFileSync(s.file, last.slice(40) + '\n');
    s.scan();
    expect(dumpIndex(s.db)).toEqual(singlePass(lines.join('\n') + '\n'));
    s.db.close();
  });

  it('re-indexes a truncated file and a replaced file without duplicates, keeping conversation ids', () => {
    const turn1 = fs.readFileSync(path.join(INC, 'turn-1.jsonl'));
    const turn2 = fs.readFileSync(path.join(INC, 'turn-2.jsonl'));
    const s = setup();
    fs.writeFileSync(s.file, turn2);
    s.scan();
    const id = count(s.db, 'SELECT id FROM conversations WHERE is_subagent = 0');
    // Truncated in place: smaller than the committed offset.
    fs.truncateSync(s.file, turn1.length);
    s.scan();
    expect(dumpIndex(s.db)).toEqual(singlePass(turn1));
    // Replaced by another file (new inode) of the same size class.
    const other = s.file + '.new';
    fs.writeFileSync(other, turn2);
    fs.renameSync(other, s.file);
    s.scan();
    expect(dumpIndex(s.db)).toEqual(singlePass(turn2));
    expect(count(s.db, 'SELECT id FROM conversations WHERE is_subagent = 0')).toBe(id);
    s.db.close();
  });

  it('skips, counts and records malformed lines with file and line, and indexes the rest', () => {
    const lines = fs.readFileSync(path.join(INC, 'turn-1.jsonl'), 'utf8').split('\n').filter(Boolean);
    const s = setup();
    const damaged = [...lines.slice(0, 3), '{"type": "user", broken', '[1,2,3]', 'not json at all', ...lines.slice(3)];
    fs.writeFileSync(s.file, damaged.join('\n') + '\n');
    const stats = s.scan();
    expect(stats.skippedLines).toBe(3);
    expect(stats.errors.map((e) => [e.path, e.line])).toEqual([
      [s.file, 4],
      [s.file, 5],
      [s.file, 6],
    ]);
    const recorded = s.db.prepare('SELECT path, line FROM ingest_errors ORDER BY line').all();
    expect(recorded).toEqual([
      { path: s.file, line: 4 },
      { path: s.file, line: 5 },
      { path: s.file, line: 6 },
    ]);
    expect(dumpIndex(s.db).entries).toEqual(singlePass(lines.join('\n') + '\n').entries);
    s.db.close();
  });

  it('keeps the conversations of a deleted session file, marked missing', () => {
    const s = setup();
    fs.writeFileSync(s.file, fs.readFileSync(path.join(INC, 'turn-1.jsonl')));
    s.scan();
    const entries = count(s.db, 'SELECT count(*) FROM entries');
    fs.rmSync(s.file);
    const stats = s.scan();
    expect(stats.missing).toBe(1);
    expect(count(s.db, "SELECT count(*) FROM source_files WHERE status = 'missing'")).toBe(1);
    expect(count(s.db, 'SELECT count(*) FROM entries')).toBe(entries);
    s.db.close();
  });

  it('reports an unreadable file and goes on with the others', () => {
    const s = setup();
    fs.writeFileSync(s.file, fs.readFileSync(path.join(INC, 'turn-1.jsonl')));
    fs.symlinkSync('/nonexistent/throughline-test.jsonl', path.join(s.project, 'aaaaaaaa-dead-link.jsonl'));
    const stats = s.scan();
    expect(stats.errors).toHaveLength(1);
    expect(stats.errors[0]!.path).toMatch(/dead-link\.jsonl$/);
    expect(stats.errors[0]!.reason).toMatch(/cannot stat/);
    expect(count(s.db, 'SELECT count(*) FROM entries')).toBeGreaterThan(0);
    s.db.close();
  });

  it('never changes a source file (hashes before and after indexing every fixture)', () => {
    const dir = tmp();
    const copy = path.join(dir, 'fixtures');
    fs.cpSync(FIXTURES, copy, { recursive: true });
    const hashes = () => {
      const out: Record<string, string> = {};
      for (const f of fs.readdirSync(copy, { recursive: true, withFileTypes: true })) {
        if (!f.isFile()) continue;
        const p = path.join(f.parentPath, f.name);
        out[p] = crypto.createHash('sha256').update(fs.readFileSync(p)).digest('hex') + fs.statSync(p).mtimeMs;
      }
      return out;
    };
    const before = hashes();
    const db = openDb(path.join(dir, 'index.sqlite'));
    const stats = createIndexer(db, ADAPTERS).scan([
      { kind: 'claude-code', root: path.join(copy, 'claude-code') },
      { kind: 'claude-code', root: path.join(copy, 'large/claude-code') },
      { kind: 'codex', root: path.join(copy, 'codex') },
      { kind: 'codex', root: path.join(copy, 'large/codex') },
      { kind: 'pi', root: path.join(copy, 'pi') },
      { kind: 'pi', root: path.join(copy, 'large/pi') },
    ]);
    expect(stats.entries).toBeGreaterThan(1000);
    expect(hashes()).toEqual(before);
    db.close();
  });
});
