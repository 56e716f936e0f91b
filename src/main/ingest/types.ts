// The contract between the adapters (one per agent format) and the ingest pipeline.
// An adapter turns the lines of one session file into ops. It never touches the database:
// the pipeline applies the ops in one transaction per batch and commits the byte offset with them.
import type { EntryKind, Role, SourceKind } from '../../shared/types.js';

/** One entry as an adapter produces it. Re-emitting the same (conv, seq) replaces the entry (upsert). */
export interface EntryRecord {
  seq: number;
  sourceId?: string;
  parentSourceId?: string;
  role: Role;
  author?: string;
  kind: EntryKind;
  text: string;
  /** Whether `text` goes into the full-text index: true only for real user and assistant text. */
  indexed: boolean;
  toolName?: string;
  toolStatus?: string;
  ts?: number; // ms since epoch
  /** For compaction entries: the source id of the first entry kept in context. */
  firstKeptSourceId?: string;
}

/** Conversation metadata; fields left undefined keep their stored value. */
export interface ConversationMeta {
  sessionId?: string;
  workspace?: string;
  title?: string;
  /** Higher wins: a title from a lower rank never replaces one from a higher rank. */
  titleRank?: number;
  summary?: string;
  createdAt?: number;
  updatedAt?: number;
  /** Key of the parent conversation (sub-agents, forks). */
  parentKey?: string;
  isSubagent?: boolean;
}

export type IngestOp =
  | { op: 'conversation'; conv: string; meta: ConversationMeta }
  | { op: 'entry'; conv: string; entry: EntryRecord }
  /** The active leaf of a tree session moved: entries not on the path root→leaf are off-path. */
  | { op: 'leaf'; conv: string; sourceId: string };

/** A malformed line: skipped, counted and recorded with file and line. */
export class LineError extends Error {
  constructor(message: string) {
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
}

export interface Adapter {
  kind: SourceKind;
  /** Default roots to scan under `home`, honouring the agent's own env override. */
  defaultRoots(env: NodeJS.ProcessEnv, home: string): string[];
  /** Whether a path under a root is a session file of this agent. */
  isSessionFile(path: string): boolean;
  /**
   * A parser for one file. `state` is what a previous parser of the same file returned from
   * state() at the committed offset, or undefined when parsing from the start.
   */
  createParser(path: string, state: unknown): LineParser;
}
