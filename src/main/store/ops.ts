// The changes the store applies to the index: what a conversation is and what its entries are, as
// the ingest pipeline (from an agent's files) and the api (appends) hand them to the writer.
// Declared here, beside the writer that applies them, so the store depends on nothing above it.
import type { EntryKind, Role } from '../../shared/types.js';

/** One entry as an adapter (or an append) produces it. Re-emitting the same (conv, seq) replaces the entry (upsert). */
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

/** An entry that the agent names with an id of its own: the store finds it by that id, not by seq. */
export type SourcedRecord = Omit<EntryRecord, 'seq' | 'sourceId'> & { sourceId: string };

export type IngestOp =
  | { op: 'conversation'; conv: string; meta: ConversationMeta }
  | { op: 'entry'; conv: string; entry: EntryRecord }
  /** The active leaf of a tree session moved: entries not on the path root→leaf are off-path. */
  | { op: 'leaf'; conv: string; sourceId: string }
  /**
   * An entry keyed by its source id: replaced where it is when the conversation has it, else appended
   * after the conversation's last entry. For agents that rewrite what they wrote (a whole-file JSON,
   * a message updated in place) or spread a conversation over many files: the same record read
   * twice, from any file, is one entry.
   */
  | { op: 'record'; conv: string; entry: SourcedRecord }
  /**
   * The entry with this source id is no longer in the agent's file (a rewritten document dropped it,
   * a rewind took it back); with `parts`, also the entries `<sourceId>#…` recorded with it.
   */
  | { op: 'drop'; conv: string; sourceId: string; parts?: boolean }
  /**
   * An entry pushed live (ingest.append): numbered after the conversation's last entry as the batch is
   * applied, inside its write transaction, so two appends to one conversation never take the same seq.
   */
  | { op: 'append'; conv: string; entry: Omit<EntryRecord, 'seq'> };
