// OpenCode adapter. OpenCode keeps its data under `$XDG_DATA_HOME/opencode` (~/.local/share/opencode):
// since 1.x in one SQLite database, `opencode.db` (OPENCODE_DB names another, absolute or relative to
// that folder), with tables session, message and part, each row's JSON in `data`; before that as one
// JSON file per object in `storage/`: `session/<project>/<session>.json`, `message/<session>/<message>.json`,
// `part/<message>/<part>.json`. A conversation spans many of these files: each is read on its own
// when it changes (incremental by part), its entries keyed by the part id. The database is read from
// where the last read left off (rows updated since), its -wal file standing for it.
import fs from 'node:fs';
import path from 'node:path';
import { LineError, type DocumentAdapter, type DocumentReader, type IngestOp } from '../types.js';
import { readRegularFile, readText } from '../regular-file.js';
import { readOpencodeDb } from './opencode-db.js';
import { messageInfo, partOps, sessionOps } from './opencode-parts.js';
import { isPartFolder, messageFolder, messageTime, orderPartFolders, readMessageFile, type MessageTime } from './opencode-order.js';
import { toMessage, toPart, toSession, type OcMessage } from './opencode-shapes.js';
import { baseName, dirName, isObject, nonEmpty, type Json } from './text.js';

const FILE_MAX = 64 << 20;

function readJson(fd: number, size: number): Json {
  if (size > FILE_MAX) throw new LineError(`opencode: ${size} bytes is more than a storage file holds`);
  let value: unknown;
  try {
    value = JSON.parse(readText(fd, size));
  } catch (err) {
    throw new LineError(`opencode: not valid JSON: ${(err as Error).message}`, 1);
  }
  if (!isObject(value)) throw new LineError('opencode: not a JSON object', 1);
  return value;
}

/** A message file read by path (a part's message), or undefined when it cannot be read. */
type StorageKind = 'session' | 'message' | 'part';

/** Where the last separator (either) before `end` is in `file`, or -1. */
function sepBefore(file: string, end: number): number {
  return end <= 0 ? -1 : Math.max(file.lastIndexOf('/', end - 1), file.lastIndexOf('\\', end - 1));
}

/**
 * `…/storage/<kind>/<dir>/<id>.json` → its kind and the storage folder. Found from the separators
 * rather than by taking folder names off one by one: a scan asks it for every storage file it walks
 * (~34,000 in the 10k benchmark corpus).
 */
function storagePath(file: string): { kind: StorageKind; storage: string } | undefined {
  const dir = sepBefore(file, file.length);
  const kindEnd = sepBefore(file, dir);
  if (kindEnd < 0) return undefined;
  const storageEnd = sepBefore(file, kindEnd);
  const kind = file.slice(storageEnd + 1, kindEnd);
  if (kind !== 'session' && kind !== 'message' && kind !== 'part') return undefined;
  if (storageEnd < 0 || file.slice(sepBefore(file, storageEnd) + 1, storageEnd) !== 'storage') return undefined;
  return { kind, storage: file.slice(0, storageEnd) };
}

/**
 * One storage file. Its entries are keyed by OpenCode's ids; a message file yields none and keeps its
 * message's id and time as its state, which orders the part folders at the next scans (opencode-order.ts).
 */
class StorageFileReader implements DocumentReader {
  private time: MessageTime | null = null;

  constructor(private readonly file: string) {}

  state(): unknown {
    return this.time;
  }

  read(fd: number, size: number): IngestOp[] {
    const where = storagePath(this.file);
    if (!where) return [];
    const obj = readJson(fd, size);
    if (where.kind === 'session') return sessionOps(toSession(obj));
    if (where.kind === 'message') {
      this.time = messageTime(toMessage(obj), this.file);
      return [];
    }
    // A part: its message (a sibling file) says who wrote it.
    const part = toPart(obj);
    const messageId = part.messageID ?? baseName(dirName(this.file));
    const sessionId = part.sessionID ?? this.sessionOf(where.storage, messageId);
    if (!sessionId) throw new LineError(`opencode: part ${baseName(this.file)} names no session, and no message ${messageId} was found`, 1);
    const message = readMessageFile(path.join(where.storage, 'message', sessionId, `${messageId}.json`), FILE_MAX) ?? findMessage(where.storage, sessionId, messageId);
    const info = message ? messageInfo(message) : undefined;
    // A part read before its message was written: its role is not known yet, so it waits for the next change.
    if (!info) throw new LineError(`opencode: the message of part ${baseName(this.file)} (${messageId}) cannot be read`, 1);
    // A session OpenCode has not named yet ("New session - …") takes its first prompt as its title.
    const first = info.role === 'user' && part.type === 'text' && firstUserMessage(where.storage, sessionId) === messageId;
    return partOps(sessionId, part, info, first);
  }

  private storage(messages: string): string {
    return dirName(messages);
  }

  /** Early storage parts carry no sessionID: the session is the folder that holds their message. */
  private sessionOf(storage: string, messageId: string): string | undefined {
    const messages = path.join(storage, 'message');
    let sessions: string[];
    try {
      sessions = fs.readdirSync(messages);
    } catch {
      return undefined;
    }
    return (
      sessions.find((s) => fs.existsSync(path.join(messages, s, `${messageId}.json`))) ??
      sessions.find((s) => findMessage(this.storage(messages), s, messageId) !== undefined)
    );
  }
}

/**
 * The id of the session's first user message: its message files in the order of their names, which
 * is the order of time (OpenCode's ids ascend), the first whose role is user. Usually the first file.
 */
function firstUserMessage(storage: string, sessionId: string): string | undefined {
  const dir = path.join(storage, 'message', sessionId);
  let names: string[];
  try {
    names = fs.readdirSync(dir).filter((n) => n.endsWith('.json')).sort();
  } catch {
    return undefined;
  }
  for (const name of names) {
    const message = readMessageFile(path.join(dir, name), FILE_MAX);
    if (message?.role === 'user') return nonEmpty(message.id) ?? name.slice(0, -'.json'.length);
  }
  return undefined;
}

/** A message whose file is not named by its id (copied or older storage): looked for among its session's. */
function findMessage(storage: string, sessionId: string, messageId: string): OcMessage | undefined {
  const dir = path.join(storage, 'message', sessionId);
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return undefined;
  }
  for (const name of names) {
    const message = readMessageFile(path.join(dir, name), FILE_MAX);
    if (message?.id === messageId) return message;
  }
  return undefined;
}

function dataHome(env: NodeJS.ProcessEnv, home: string): string {
  const xdg = env.XDG_DATA_HOME;
  return path.join(xdg && path.isAbsolute(xdg) ? xdg : path.join(home, '.local', 'share'), 'opencode');
}

const isDatabase = (file: string) => /^opencode(-[A-Za-z0-9._-]+)?\.db$/.test(baseName(file));

export const opencodeAdapter: DocumentAdapter = {
  kind: 'opencode',
  sharesConversations: true,
  defaultRoots(env, home) {
    const data = dataHome(env, home);
    const override = env.OPENCODE_DB?.trim();
    const db = override && override !== ':memory:' ? path.resolve(data, override) : path.join(data, 'opencode.db');
    return [path.join(data, 'storage'), db];
  },
  // A database's name ends in .db: a .json file is none.
  isSessionFile: (file) => (file.endsWith('.json') ? storagePath(file) !== undefined : isDatabase(file)),
  orderFolder: (dir, names, stored) => (isPartFolder(dir) ? orderPartFolders(dir, names, stored) : names),
  orderStatesFolder: (dir) => (isPartFolder(dir) ? messageFolder(dirName(dir)) : undefined),
  // A message's parts are written while it streams, into part/<message>/.
  briefFolders: isPartFolder,
  sessionFileOf(file) {
    // Writes land in the -wal file first: a change there is a change of the database.
    const db = file.replace(/-(wal|shm)$/, '');
    if (db !== file) return isDatabase(db) ? db : undefined;
    return opencodeAdapter.isSessionFile(file) ? file : undefined;
  },
  stamp(file, st) {
    if (!isDatabase(file)) return st;
    try {
      const wal = fs.statSync(`${file}-wal`);
      return { size: st.size + wal.size, mtimeMs: Math.max(st.mtimeMs, wal.mtimeMs) };
    } catch {
      return st;
    }
  },
  createReader: (file, state) => (isDatabase(file) ? readOpencodeDb(file, state) : new StorageFileReader(file)),
};
