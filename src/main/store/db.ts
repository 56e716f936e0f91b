// Opening the index: location, pragmas, and migrations.
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { MIGRATIONS } from './schema.js';
import { BUSY_TIMEOUT_MS } from './write-lock.js';
import { KindError } from '../../shared/errors.js';

/** The SQLite connection itself, unbranded: only this file holds one. */
type Connection = Database.Database;

// Brands (after Signal Desktop's ReadableDB/WritableDB): a handle says what its holder may do, and
// the type checker holds every caller to it. Only openDb and requireWritable make them; a readable
// handle is not a writable one, so a function that writes (createWriter, appendHandoff, forget…)
// cannot be given a handle opened read-only, nor one passed down to a reader.
declare const READABLE: unique symbol;
declare const WRITABLE: unique symbol;
/** An open index that may be read: what reads and searches take. */
export type ReadableDb = Connection & { readonly [READABLE]: true };
/** An open index that may be written too: what every write takes. */
export type WritableDb = ReadableDb & { readonly [WRITABLE]: true };
/** The handle most code holds: an index opened writable. */
export type Db = WritableDb;

export class StoreError extends KindError<'newer-schema' | 'corrupt' | 'readonly' | 'missing' | 'io' | 'full' | 'busy'> {}

export const SCHEMA_VERSION = MIGRATIONS.length;

export { defaultDbPath } from '../paths-light.js';

export interface OpenOptions {
  readonly?: boolean;
  /** Where the better-sqlite3 native module lives; the Electron build keeps its own. */
  nativeBinding?: string;
  /** SQLite's page cache for this connection, KiB (default 32 MB; the daemon's reader threads keep less). */
  cacheKiB?: number;
}

const BUSY_RETRY_MS = 5000;

function retryWhileBusy<T>(fn: () => T): T {
  const until = Date.now() + BUSY_RETRY_MS;
  for (;;) {
    try {
      return fn();
    } catch (err) {
      const code = (err as { code?: string }).code;
      if (!code?.startsWith('SQLITE_BUSY') || Date.now() > until) throw err;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 10 + Math.random() * 20);
    }
  }
}

/**
 * The index holds people's conversations: only they may read it. SQLite creates a new file (and its
 * -wal and -shm, which take the main file's mode) as 0644 under the usual umask, so the file is
 * created 0600 first; an index left readable by an older version is closed to others. Throughline's
 * own data folder is 0700; a folder the person chose for --db is theirs to set.
 */
function keepPrivate(file: string): void {
  const dir = path.dirname(file);
  if (!fs.existsSync(dir)) fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  else if (path.basename(dir) === 'throughline') tighten(dir, 0o700);
  try {
    fs.closeSync(fs.openSync(file, fs.constants.O_CREAT | fs.constants.O_EXCL | fs.constants.O_WRONLY, 0o600));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  for (const suffix of ['', '-wal', '-shm']) tighten(file + suffix, 0o700);
}

/** Takes group and other permissions away (keeping the owner's); files of another user are left as they are. */
function tighten(target: string, keep: number): void {
  try {
    const st = fs.statSync(target);
    if (st.mode & 0o077 && (typeof process.getuid !== 'function' || st.uid === process.getuid())) fs.chmodSync(target, st.mode & keep);
  } catch {
    // not there (no -wal yet), or not ours to change
  }
}

/** Opened read-only: a readable handle. Opened writable: a writable one. Either, when the caller's flag decides. */
export function openDb(file: string, options: OpenOptions & { readonly: true }): ReadableDb;
export function openDb(file: string, options?: OpenOptions & { readonly?: false }): WritableDb;
export function openDb(file: string, options?: OpenOptions): ReadableDb;
export function openDb(file: string, options: OpenOptions = {}): ReadableDb {
  if (options.readonly && !fs.existsSync(file)) {
    throw new StoreError('missing', `No index at ${file}. Run \`throughline index\` first.`);
  }
  // (An in-memory or temporary database has no file to protect.)
  if (!options.readonly && file !== ':memory:' && file !== '') {
    try {
      keepPrivate(file);
    } catch (err) {
      throw storeErrorFrom(err, file) ?? new StoreError('io', `Cannot create the index at ${file}: ${(err as Error).message}`);
    }
  }
  let db: Connection;
  try {
    db = new Database(file, { readonly: options.readonly ?? false, nativeBinding: options.nativeBinding });
  } catch (err) {
    throw new StoreError('io', `Cannot open the index at ${file}: ${(err as Error).message}`);
  }
  try {
    // Readers never block the writer and vice versa; a busy writer makes others wait, not fail.
    db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    // Refuse a newer schema before anything (even the WAL switch) touches the file.
    checkVersion(db, file);
    if (!options.readonly) {
      // Switching a new file to WAL needs it to itself for a moment, and SQLite does not run the
      // busy handler for that: when several processes create the index at once, retry instead.
      retryWhileBusy(() => db.pragma('journal_mode = WAL'));
      db.pragma('synchronous = NORMAL');
    }
    db.pragma('foreign_keys = ON');
    db.pragma(`cache_size = -${Math.max(1000, Math.round(options.cacheKiB ?? 32_000))}`);
    // Savepoint journals in memory, not temp files: a scan commits many files per transaction, each
    // in its own savepoint, and writing their journals to disk cost ~10% of a cold index (BENCHMARKS.md).
    db.pragma('temp_store = MEMORY');
    migrate(db, file, options.readonly ?? false);
  } catch (err) {
    db.close();
    const store = storeErrorFrom(err, file);
    if (store) throw store;
    const message = (err as Error).message;
    if (/not a database|malformed/i.test(message)) {
      throw new StoreError('corrupt', `The index at ${file} is damaged (${message}). Rebuild it with \`throughline index --rebuild\`.`);
    }
    throw new StoreError('io', `Cannot use the index at ${file}: ${message}`);
  }
  return db as ReadableDb;
}

/** Empties the connection's page cache (its pages stay in the OS's file cache; later reads fetch them from there). */
export function releasePageCache(db: ReadableDb): void {
  if (db.open) db.pragma('shrink_memory');
}

/** The handle as a writable one, if the connection was opened writable; else a StoreError a person can act on. */
export function requireWritable(db: ReadableDb): WritableDb {
  if (db.readonly) throw new StoreError('readonly', `The index at ${db.name} was opened read-only; this needs it writable.`);
  return db as WritableDb;
}

/**
 * The SQLite failures that are about the index or its disk rather than the data being written,
 * as a StoreError a person can act on; null for anything else. Used wherever the index is written,
 * so a full disk or a read-only file reads as such instead of as a stack trace.
 */
export function storeErrorFrom(err: unknown, file: string): StoreError | null {
  if (err instanceof StoreError) return err;
  const code = (err as { code?: unknown } | null)?.code;
  if (typeof code !== 'string' || !code.startsWith('SQLITE_')) return null;
  const message = (err as Error).message;
  const base = code.replace(/^(SQLITE_[A-Z]+).*$/, '$1');
  switch (base) {
    case 'SQLITE_FULL':
      return new StoreError('full', `The disk holding the index at ${file} is full (${message}). Free some space and run \`throughline index\` again; what was indexed before is kept.`);
    case 'SQLITE_READONLY':
      return new StoreError('readonly', `The index at ${file} is read-only (${message}). Check the permissions of the file, of its -wal and -shm files and of its folder, or pass another --db.`);
    case 'SQLITE_CORRUPT':
    case 'SQLITE_NOTADB':
      return new StoreError('corrupt', `The index at ${file} is damaged (${message}). Rebuild it with \`throughline index --rebuild\`; the agents' files are the truth.`);
    case 'SQLITE_BUSY':
    case 'SQLITE_LOCKED':
      return new StoreError('busy', `The index at ${file} is busy with another Throughline process (${message}). Try again in a moment.`);
    case 'SQLITE_IOERR':
    case 'SQLITE_CANTOPEN':
    case 'SQLITE_PROTOCOL':
    case 'SQLITE_NOLFS':
      return new StoreError('io', `Cannot write the index at ${file}: ${message}`);
    default:
      return null;
  }
}

function checkVersion(db: Connection, file: string): void {
  const current = db.pragma('user_version', { simple: true }) as number;
  if (current > SCHEMA_VERSION) {
    throw new StoreError(
      'newer-schema',
      `The index at ${file} has schema version ${current}, newer than this Throughline understands (${SCHEMA_VERSION}). ` +
        'Update Throughline, or point --db at another file.',
    );
  }
}

function migrate(db: Connection, file: string, readonly: boolean): void {
  const current = db.pragma('user_version', { simple: true }) as number;
  if (current === SCHEMA_VERSION) return;
  if (readonly) {
    throw new StoreError('readonly', `The index at ${file} needs migrating to version ${SCHEMA_VERSION}; open it writable once.`);
  }
  // All pending migrations and the version bump commit together or not at all. The version is read
  // again under the write lock: another process (the app, the daemon, a CLI run starting at the same
  // moment) may have migrated while this one waited for it, and running v1 twice fails.
  db.transaction(() => {
    checkVersion(db, file);
    const now = db.pragma('user_version', { simple: true }) as number;
    for (let v = now; v < SCHEMA_VERSION; v++) db.exec(MIGRATIONS[v]!);
    db.pragma(`user_version = ${SCHEMA_VERSION}`);
  }).immediate();
}
