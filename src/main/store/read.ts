// Plain reads of conversations and entries. Search and scoring queries live in search.ts.
import type { Conversation, Entry, EntryKind, Role, SourceKind } from '../../shared/types.js';
import type { ReadableDb } from './db.js';
import type { Reader } from './interface.js';

export interface ConversationRow {
  id: number;
  source: SourceKind;
  key: string;
  session_id: string;
  path: string;
  workspace: string | null;
  title: string;
  summary: string | null;
  derived_summary: string | null;
  created_at: number | null;
  updated_at: number | null;
  entry_count: number;
  parent_id: number | null;
  is_subagent: number;
  file_status: string | null;
}

export interface EntryRow {
  conversation_id: number;
  seq: number;
  source_id: string | null;
  parent_source_id: string | null;
  role: Role;
  author: string | null;
  kind: EntryKind;
  text: string;
  tool_name: string | null;
  tool_status: string | null;
  ts: number | null;
  off_path: number;
  first_kept_source_id: string | null;
}

export const CONVERSATION_COLUMNS = `c.id, c.source, c.key, c.session_id, c.path, c.workspace, c.title, c.summary, c.derived_summary, c.created_at,
  c.updated_at, c.entry_count, c.parent_id, c.is_subagent, (SELECT f.status FROM source_files f WHERE f.id = c.file_id) AS file_status`;

export function toConversation(r: ConversationRow): Conversation {
  return {
    id: r.id,
    source: r.source,
    sessionId: r.session_id,
    path: r.path,
    workspace: r.workspace,
    title: r.title || 'Untitled conversation',
    summary: r.summary,
    derivedSummary: r.derived_summary || null,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    entryCount: r.entry_count,
    parentId: r.parent_id,
    isSubagent: r.is_subagent === 1,
    missing: r.file_status === 'missing',
  };
}

export function toEntry(r: EntryRow): Entry {
  return {
    conversationId: r.conversation_id,
    seq: r.seq,
    sourceId: r.source_id,
    parentSourceId: r.parent_source_id,
    role: r.role,
    author: r.author,
    kind: r.kind,
    text: r.text,
    toolName: r.tool_name,
    toolStatus: r.tool_status,
    ts: r.ts,
    offPath: r.off_path === 1,
  };
}

export type { Reader } from './interface.js';

/** A conversation's sub-agents, oldest first: through conversations_parent (migration 9), not a scan. */
export const CHILDREN_SQL = `SELECT ${CONVERSATION_COLUMNS} FROM conversations c WHERE c.parent_id = ? ORDER BY c.created_at`;

export function createReader(db: ReadableDb): Reader {
  const byId = db.prepare<[number], ConversationRow>(`SELECT ${CONVERSATION_COLUMNS} FROM conversations c WHERE c.id = ?`);
  const bySession = db.prepare<[{ ref: string }], ConversationRow>(
    `SELECT ${CONVERSATION_COLUMNS} FROM conversations c WHERE c.session_id = @ref OR c.key = @ref ORDER BY c.is_subagent, c.id LIMIT 1`,
  );
  const byPath = db.prepare<[string], ConversationRow>(
    `SELECT ${CONVERSATION_COLUMNS} FROM conversations c WHERE c.path = ? ORDER BY c.is_subagent, c.id LIMIT 1`,
  );
  const children = db.prepare<[number], ConversationRow>(CHILDREN_SQL);
  const entryRange = db.prepare<[number, number, number, number], EntryRow>(
    'SELECT * FROM entries WHERE conversation_id = ? AND seq >= ? AND seq <= ? ORDER BY seq LIMIT ?',
  );
  const entriesBefore = db.prepare<[number, number, number], EntryRow>(
    'SELECT * FROM (SELECT * FROM entries WHERE conversation_id = ? AND seq < ? ORDER BY seq DESC LIMIT ?) ORDER BY seq',
  );
  const maxSeq = db.prepare<[number], { m: number | null }>('SELECT max(seq) AS m FROM entries WHERE conversation_id = ?');
  const latestReset = db.prepare<[number], { seq: number }>(
    `SELECT seq FROM entries WHERE conversation_id = ? AND kind = 'reset' AND off_path = 0 ORDER BY seq DESC LIMIT 1`,
  );
  const latestCompaction = db.prepare<[number], { seq: number; first_kept_source_id: string | null }>(
    `SELECT seq, first_kept_source_id FROM entries WHERE conversation_id = ? AND kind = 'compaction' AND off_path = 0 ORDER BY seq DESC LIMIT 1`,
  );
  const latestHandoff = db.prepare<[number], { seq: number }>(
    'SELECT before_seq AS seq FROM handoffs WHERE conversation_id = ? ORDER BY before_seq DESC, id DESC LIMIT 1',
  );
  const handoffRows = db.prepare<[number], { seq: number; text: string; at: number }>(
    'SELECT before_seq AS seq, text, at FROM handoffs WHERE conversation_id = ? ORDER BY before_seq, id',
  );
  const seqOfSource = db.prepare<[number, string], { seq: number | null }>(
    // One source line can yield several entries (thinking, text, tool call): the boundary is the first.
    'SELECT min(seq) AS seq FROM entries WHERE conversation_id = ? AND source_id = ?',
  );

  /** Resolves a numeric id, an agent session id, or a session file path. */
  function conversation(ref: string | number): Conversation | null {
    let row: ConversationRow | undefined;
    if (typeof ref === 'number' || /^\d+$/.test(ref)) row = byId.get(Number(ref));
    if (!row && typeof ref === 'string') row = bySession.get({ ref }) ?? byPath.get(ref);
    return row ? toConversation(row) : null;
  }

  /**
   * The current context boundary: entries before it are no longer in the agent's context.
   * A compaction keeps entries from its first kept entry on; a reset/handoff keeps nothing before itself.
   * The latest of these wins, and nothing moves it back: a compaction after a handoff whose first kept
   * entry precedes the handoff cannot bring back what the handoff dropped (pi's compaction does not know
   * about handoffs and may keep entries from before one).
   */
  function boundary(conversationId: number): number | null {
    const found: number[] = [];
    const handoff = latestHandoff.get(conversationId);
    if (handoff) found.push(handoff.seq);
    const reset = latestReset.get(conversationId);
    if (reset) found.push(reset.seq);
    const c = latestCompaction.get(conversationId);
    if (c) found.push(c.first_kept_source_id ? (seqOfSource.get(conversationId, c.first_kept_source_id)?.seq ?? c.seq) : c.seq);
    return found.length ? Math.max(...found) : null;
  }

  return {
    conversation,
    boundary,
    children: (id: number) => children.all(id).map(toConversation),
    entries: (id: number, from: number, to: number, limit = 10_000) => entryRange.all(id, from, to, limit).map(toEntry),
    entriesBefore: (id: number, before: number, limit: number) => entriesBefore.all(id, before, limit).map(toEntry),
    maxSeq: (id: number) => maxSeq.get(id)?.m ?? null,
    handoffs: (id: number) => handoffRows.all(id),
  };
}
