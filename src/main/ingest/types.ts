// The contract between the adapters (one per agent format) and the ingest pipeline.
// An adapter turns the lines of one session file into ops. It never touches the database:
// the pipeline applies the ops in one transaction per batch and commits the byte offset with them.
import type { SourceKind } from '../../shared/types.js';
import type { IngestOp } from '../store/ops.js';

// The ops are the store's (store/ops.ts); adapters take them from here, with the rest of their contract.
export type { ConversationMeta, EntryRecord, IngestOp, SourcedRecord } from '../store/ops.js';

/** A malformed line: skipped, counted and recorded with file and line. */
export class LineError extends Error {
  constructor(
    message: string,
    /** The line within the file, when the parser knows it better than the pipeline (a whole document). */
    readonly line?: number,
  ) {
    super(message);
    this.name = 'LineError';
  }
}

export interface LineParser {
  /**
   * Parse one complete line (without its newline). `lineNo` is 1-based within the file.
   * Throw LineError for a malformed line; the pipeline records it and goes on.
   */
  line(text: string, lineNo: number): IngestOp[];
  /** JSON-serialisable state, stored with the committed offset so parsing can resume there. */
  state(): unknown;
  /**
   * Ops for what the lines so far leave open, called after each batch: an entry whose end only later
   * lines will show (the last turn of a Markdown transcript) is stored as it stands, and the same
   * entry, grown, in a later batch replaces it. The lines' state is not moved on (what it notes, such
   * as a title given, is stored with the batch). `atEnd`: the batch ends where the file ended when
   * the scan looked.
   */
  unfinished?(atEnd: boolean): IngestOp[];
}

/**
 * A reader of a source that is not appended line by line: a JSON document the agent rewrites whole,
 * one small file of many that make a conversation, a database. It is read whole whenever its stamp
 * (size, mtime, inode) changed, and says what it holds with `record` ops, so reading it again yields
 * the same entries rather than new ones.
 */
export interface DocumentReader {
  /**
   * Ops for the source as it is now. `fd` is the source file opened read-only, `size` its size at
   * stat time. Throw LineError (with its line when known) when the document is malformed: nothing of
   * it is applied, the problem is recorded, and it is read again once it changes.
   */
  read(fd: number, size: number): IngestOp[];
  /** JSON-serialisable state kept with the source for the next read (e.g. what it held, to drop what went). */
  state(): unknown;
}

/** The states stored for the indexed files under a folder, by path: what each one's reader's state() last returned. */
export type StoredStates = (folder: string) => ReadonlyMap<string, unknown>;

interface AdapterBase {
  kind: SourceKind;
  /** Default roots to scan under `home`, honouring the agent's own env override. */
  defaultRoots(env: NodeJS.ProcessEnv, home: string): string[];
  /** Whether a path under a root is a session file of this agent. */
  isSessionFile(path: string): boolean;
  /**
   * A folder of a root not to walk into (the agent never writes there: dependencies, caches, VCS data).
   */
  skipFolder?(name: string): boolean;
  /**
   * Each folder in `dir` is one the agent writes into only for a short while (OpenCode's part/, a
   * folder per message, tens of thousands of them): watched when it appears, not when it was there
   * already (see ingest/watch.ts).
   */
  briefFolders?(dir: string): boolean;
  /**
   * The order to read a folder's entries in (given in name order), when the agent's names do not
   * follow time: entries spread over many files are appended in the order their files are read.
   * `stored` gives what the readers of files already indexed kept (their state), so that the order
   * can be had without reading those files again at every scan.
   */
  orderFolder?(dir: string, names: string[], stored: StoredStates): string[];
  /**
   * The folder whose stored states orderFolder(dir) reads, when that is many (OpenCode's message files
   * for its part folder): a scan reads them ahead a page at a time, yielding between pages.
   */
  orderStatesFolder?(dir: string): string | undefined;
  /**
   * The agent's files lie here and there in trees that are not the agent's (Aider writes into each
   * repository): a folder root is walked at each scan but not watched folder by folder; the files
   * found are given to the watcher one by one (see core.ts).
   */
  sparse?: boolean;
  /**
   * The session file that a changed path stands for, for the watcher: a database's `-wal` file stands
   * for the database. Defaults to the path itself when it is a session file.
   */
  sessionFileOf?(path: string): string | undefined;
  /**
   * One conversation is written from several files (OpenCode's storage: a session file, message and
   * part files). Otherwise a conversation belongs to the file that first wrote it, and another file
   * with the same id (a backup, a copy) gets one of its own (see store/writer-place.ts ownKey).
   */
  sharesConversations?: boolean;
}

export interface LineAdapter extends AdapterBase {
  /**
   * A parser for one file. `state` is what a previous parser of the same file returned from
   * state() at the committed offset, or undefined when parsing from the start.
   */
  createParser(path: string, state: unknown): LineParser;
  createReader?: undefined;
}

export interface DocumentAdapter extends AdapterBase {
  /** A reader for one source; `state` as its previous reader left it, or undefined. */
  createReader(path: string, state: unknown): DocumentReader;
  /**
   * The size and mtime that tell whether the source changed, when the file's own stat does not
   * (a SQLite database whose writes sit in its -wal file). Defaults to the file's stat.
   */
  stamp?(path: string, st: { size: number; mtimeMs: number }): { size: number; mtimeMs: number };
  /**
   * For an agent that writes both kinds (Gemini CLI: whole-file `.json`, then appended `.jsonl`):
   * whether this path is read whole; the others are read line by line with createParser.
   */
  readsWhole?(path: string): boolean;
  createParser?(path: string, state: unknown): LineParser;
}

export type Adapter = LineAdapter | DocumentAdapter;
