// Domain types shared by the core, every transport and the renderer.
// Nothing here imports Node or Electron: the renderer compiles against this file too.

export const SOURCE_KINDS = ['pi', 'claude-code', 'codex', 'gemini', 'opencode', 'copilot', 'cursor', 'droid', 'aider', 'jsonl'] as const;
export type SourceKind = (typeof SOURCE_KINDS)[number];

export type Role = 'user' | 'assistant' | 'tool' | 'system';

/**
 * What an entry is. Only `message` entries of role user/assistant are indexed for search;
 * the rest are stored so transcripts and the history tools can show them.
 */
export type EntryKind =
  | 'message'
  | 'thinking'
  | 'tool_call'
  | 'tool_result'
  | 'compaction' // a compaction summary; boundary at its first kept entry
  | 'branch_summary'
  | 'reset' // a handoff or reset: nothing before it is in the agent's context
  | 'custom'
  | 'bash';

export interface Conversation {
  id: number;
  source: SourceKind;
  sessionId: string;
  path: string;
  workspace: string | null;
  title: string;
  /** The agent's own summary (a compaction's, a Claude Code summary record…), if it wrote one. */
  summary: string | null;
  /**
   * Throughline's extractive summary, derived at index time from the title, the first request and the
   * outcome (store/derived-summary.ts); what previews and the summary field use when `summary` is null.
   */
  derivedSummary: string | null;
  createdAt: number | null; // ms since epoch
  updatedAt: number | null;
  entryCount: number;
  parentId: number | null; // sub-agent or fork parent
  isSubagent: boolean;
  missing: boolean; // its source file is gone; the index keeps it
}

export interface Entry {
  conversationId: number;
  seq: number; // stable number within the conversation, used by the read tools
  sourceId: string | null;
  parentSourceId: string | null;
  role: Role;
  author: string | null;
  kind: EntryKind;
  text: string;
  toolName: string | null;
  toolStatus: string | null;
  ts: number | null;
  offPath: boolean; // on an abandoned branch of a tree session
}
