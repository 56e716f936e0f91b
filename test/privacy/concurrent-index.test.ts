// Issue 11 §9: three `throughline index` runs started together; one died with a raw "UNIQUE
// constraint failed: source_files.path". A large file's row was read and then inserted in a
// transaction of its own, and another process inserted it in between. Here that other process is
// real and holds its insert uncommitted at exactly that moment, so the race happens every time.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { openDb } from '../../src/main/store/db.js';
import { createWriter } from '../../src/main/store/writer.js';
import { ROOT } from '../reliability/bundle.js';
import { tempDir } from '../server/helpers.js';

let dir: string;
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

/** Another process: inserts `file`'s row, says so, and commits only after `holdMs`. */
const OTHER_INDEXER = `
const Database = require(${JSON.stringify(path.join(ROOT, 'node_modules', 'better-sqlite3'))});
const [db, file, holdMs] = process.argv.slice(1);
const conn = new Database(db);
conn.pragma('busy_timeout = 5000');
conn.exec('BEGIN IMMEDIATE');
conn.prepare("INSERT INTO source_files (path, kind) VALUES (?, 'jsonl')").run(file);
console.log('inserted');
setTimeout(() => { conn.exec('COMMIT'); conn.close(); }, Number(holdMs));
`;

it('a file row inserted by another process between our read and our insert is taken, not an error', async () => {
  dir = tempDir('tl-race-');
  const dbPath = path.join(dir, 'index.sqlite');
  const file = path.join(dir, 'session.jsonl');
  const db = openDb(dbPath);
  try {
    const writer = createWriter(db);
    const other = spawn(process.execPath, ['-e', OTHER_INDEXER, dbPath, file, '300'], { stdio: ['ignore', 'pipe', 'inherit'] });
    await new Promise<void>((resolve) => other.stdout!.once('data', () => resolve()));
    // Our read sees no row (theirs is not committed); our insert waits for their lock, then meets their row.
    const row = writer.ensureFile(file, 'jsonl');
    await new Promise((resolve) => other.once('exit', resolve));
    expect(row.path).toBe(file);
    expect(db.prepare('SELECT count(*) FROM source_files WHERE path = ?').pluck().get(file)).toBe(1);
  } finally {
    db.close();
  }
});
