// The conversation browser's listing: filters, sort by recency, paging, and the total.
import type { Conversation, SourceKind } from '../../shared/types.js';
import type { WorkspaceItem } from '../../shared/api.js';
import type { ReadableDb } from './db.js';
import { CONVERSATION_COLUMNS, toConversation, type ConversationRow } from './read.js';

export interface ListFilter {
  workspace?: string;
  source?: SourceKind;
  since?: number;
  until?: number;
  subagents?: boolean;
  /** Restrict to these conversation ids (search results), keeping their order. */
  ids?: number[];
  /** Only these workspaces (a scoped agent token). */
  allowedWorkspaces?: string[];
}

function where(filter: ListFilter): { sql: string; params: Record<string, unknown> } {
  const parts: string[] = [];
  const params: Record<string, unknown> = {};
  if (filter.workspace) {
    parts.push('c.workspace = @workspace');
    params.workspace = filter.workspace;
  }
  if (filter.source) {
    parts.push('c.source = @source');
    params.source = filter.source;
  }
  if (filter.since !== undefined) {
    parts.push('c.updated_at >= @since');
    params.since = filter.since;
  }
  if (filter.until !== undefined) {
    parts.push('c.updated_at <= @until');
    params.until = filter.until;
  }
  if (!filter.subagents) parts.push('c.is_subagent = 0');
  if (filter.ids) parts.push(`c.id IN (SELECT value FROM json_each(@ids))`), (params.ids = JSON.stringify(filter.ids));
  if (filter.allowedWorkspaces) {
    parts.push('c.workspace IN (SELECT value FROM json_each(@allowed))');
    params.allowed = JSON.stringify(filter.allowedWorkspaces);
  }
  return { sql: parts.length ? `WHERE ${parts.join(' AND ')}` : '', params };
}

export function listConversations(db: ReadableDb, filter: ListFilter, offset: number, limit: number): { total: number; items: Conversation[] } {
  const w = where(filter);
  const total = db.prepare(`SELECT count(*) FROM conversations c ${w.sql}`).pluck().get(w.params) as number;
  const rows = db
    .prepare(`SELECT ${CONVERSATION_COLUMNS} FROM conversations c ${w.sql} ORDER BY c.updated_at DESC, c.id DESC LIMIT @limit OFFSET @offset`)
    .all({ ...w.params, limit, offset }) as ConversationRow[];
  let items = rows.map(toConversation);
  if (filter.ids) {
    const order = new Map(filter.ids.map((id, i) => [id, i]));
    items = items.sort((a, b) => order.get(a.id)! - order.get(b.id)!);
  }
  return { total, items };
}

/** The workspaces of top-level conversations, most recently active first. */
export function workspaces(db: ReadableDb, limit: number): WorkspaceItem[] {
  return db
    .prepare(
      `SELECT workspace, count(*) AS conversations, max(updated_at) AS updatedAt FROM conversations
       WHERE workspace IS NOT NULL AND parent_id IS NULL GROUP BY workspace ORDER BY updatedAt DESC, workspace LIMIT ?`,
    )
    .all(limit) as WorkspaceItem[];
}

const PREVIEW_CHARS = 400;

/**
 * A line to show under a title that has no summary: the conversation's first assistant reply (cut
 * short). pi names a session after a few words, so without it a row would be a title and a gap.
 */
export function firstReplies(db: ReadableDb, ids: number[]): Map<number, string> {
  const stmt = db
    .prepare(`SELECT substr(text, 1, ${PREVIEW_CHARS}) FROM entries WHERE conversation_id = ? AND role = 'assistant' AND kind = 'message' AND text != '' ORDER BY seq LIMIT 1`)
    .pluck();
  const out = new Map<number, string>();
  for (const id of ids) {
    const text = stmt.get(id) as string | undefined;
    if (text) out.set(id, text);
  }
  return out;
}
