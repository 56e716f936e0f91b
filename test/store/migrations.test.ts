import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { openDb, SCHEMA_VERSION, StoreError, defaultDbPath } from '../../src/main/store/db.js';
import { MIGRATIONS } from '../../src/main/store/schema.js';

const dirs: string[] = [];
function tmp(): string {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'tl-store-'));
  dirs.push(d);
  return d;
}
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

describe('store migrations', () => {
  it('creates a WAL database at the latest schema version with the tables DESIGN.md names', () => {
    const file = path.join(tmp(), 'nested', 'index.sqlite');
    const db = openDb(file);
    expect(db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    const names = (db.prepare("SELECT name FROM sqlite_master WHERE type IN ('table')").pluck().all() as string[]).sort();
    for (const t of ['activity', 'conversations', 'entries', 'ingest_errors', 'source_files', 'entries_fts', 'conversations_fts', 'conversation_terms']) {
      expect(names).toContain(t);
    }
    db.close();
  });

  it('is idempotent: reopening does not re-run migrations or lose rows', () => {
    const file = path.join(tmp(), 'index.sqlite');
    const db = openDb(file);
    db.prepare("INSERT INTO source_files (path, kind) VALUES ('/x.jsonl', 'pi')").run();
    db.close();
    const again = openDb(file);
    expect(again.prepare('SELECT count(*) FROM source_files').pluck().get()).toBe(1);
    again.close();
  });

  it('migrates a version-1 database forward, keeping its rows', () => {
    const file = path.join(tmp(), 'index.sqlite');
    const raw = new Database(file);
    raw.exec(MIGRATIONS[0]!);
    raw.pragma('user_version = 1');
    raw.prepare("INSERT INTO source_files (path, kind) VALUES ('/kept.jsonl', 'codex')").run();
    raw.close();
    const db = openDb(file);
    expect(db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    expect(db.prepare("SELECT count(*) FROM sqlite_master WHERE name = 'activity'").pluck().get()).toBe(1);
    expect(db.prepare('SELECT path FROM source_files').pluck().all()).toEqual(['/kept.jsonl']);
    db.close();
  });

  it('refuses a database from a newer schema with a clear error, leaving it untouched', () => {
    const file = path.join(tmp(), 'index.sqlite');
    const raw = new Database(file);
    raw.pragma(`user_version = ${SCHEMA_VERSION + 5}`);
    raw.close();
    const before = fs.readFileSync(file);
    let error: unknown;
    try {
      openDb(file);
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(StoreError);
    expect((error as StoreError).kind).toBe('newer-schema');
    expect((error as Error).message).toMatch(new RegExp(`schema version ${SCHEMA_VERSION + 5}.*newer`));
    expect(fs.readFileSync(file).equals(before)).toBe(true);
  });

  it('reports a damaged file as corrupt, naming the rebuild command', () => {
    const file = path.join(tmp(), 'index.sqlite');
    fs.writeFileSync(file, 'this is not a database, just text that is long enough to look like a header'.repeat(100));
    expect(() => openDb(file)).toThrow(/index --rebuild/);
  });

  it('finds the index under XDG_DATA_HOME unless THROUGHLINE_DB overrides it', () => {
    expect(defaultDbPath({ XDG_DATA_HOME: '/data', HOME: '/home/u' })).toBe('/data/throughline/index.sqlite');
    expect(defaultDbPath({ HOME: '/home/u' })).toBe('/home/u/.local/share/throughline/index.sqlite');
    expect(defaultDbPath({ THROUGHLINE_DB: '/x.db', XDG_DATA_HOME: '/data' })).toBe('/x.db');
  });
});
