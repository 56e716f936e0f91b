// What OpenCode's sessions, messages and parts say, whether they come from its JSON files or its
// SQLite database (the same objects: the database keeps each one's JSON in a `data` column). Their
// shapes are declared in opencode-shapes.ts.
import type { ConversationMeta, IngestOp, SourcedRecord } from '../types.js';
import type { OcMessage, OcPart, OcSession, OcToolState } from './opencode-shapes.js';
import { argSummary, nonEmpty, preview, RESULT_MAX, SUMMARY_MAX, titleFromText, TITLE_MAX, truncate } from './text.js';

const CALL_TEXT_MAX = 500;

/** The session object: identity, title, directory, times, parent (a sub-agent's task session). */
export function sessionOps(session: OcSession): IngestOp[] {
  const id = session.id;
  if (!id) return [];
  const meta: ConversationMeta = { sessionId: id };
  const title = session.title?.trim();
  // OpenCode names a new session "New session - <date>" until it generates a title.
  if (title && !/^(New session|Child session) - /.test(title)) Object.assign(meta, { title: preview(title, TITLE_MAX), titleRank: 2 });
  if (session.directory) meta.workspace = session.directory;
  const { created, updated } = session.time;
  if (created !== undefined) meta.createdAt = created;
  if (updated !== undefined) meta.updatedAt = updated;
  const parent = session.parentID;
  if (parent) Object.assign(meta, { parentKey: parent, isSubagent: true });
  return [{ op: 'conversation', conv: id, meta }];
}

export interface MessageInfo {
  role: 'user' | 'assistant';
  /** An assistant message written by a compaction: the summary of what came before. */
  summary: boolean;
  created?: number;
  model?: string;
}

export function messageInfo(message: OcMessage): MessageInfo | undefined {
  const { role, summary, model } = message;
  return role ? { role, summary, created: message.time.created, model } : undefined;
}

/**
 * One part as records, keyed by the part id: text (the user's or the assistant's), reasoning, a tool
 * call with its result, a compaction marker (the boundary: what follows it is in context), files.
 * Step markers, snapshots and patches are bookkeeping and yield nothing.
 */
export function partOps(conv: string, part: OcPart, message: MessageInfo, titleWanted: boolean): IngestOp[] {
  const id = part.id;
  if (!id) return [];
  const ts = part.time.start ?? part.time.end ?? message.created;
  const author = message.model;
  const out: IngestOp[] = [];
  const record = (entry: Omit<SourcedRecord, 'ts'>) => out.push({ op: 'record', conv, entry: { ts, ...entry } });
  switch (part.type) {
    case 'text': {
      const text = part.text;
      if (!text.trim()) break;
      if (message.summary) {
        // The summary a compaction wrote: the boundary's text, and the conversation's preview.
        record({ sourceId: id, role: 'system', kind: 'compaction', text, indexed: false, firstKeptSourceId: id });
        out.push({ op: 'conversation', conv, meta: { summary: preview(text, SUMMARY_MAX) } });
        break;
      }
      // Synthetic text is what OpenCode added itself (file contents, "continue" prompts), not typed.
      const own = !part.synthetic && !part.ignored;
      record({ sourceId: id, role: message.role, kind: own ? 'message' : 'custom', text, indexed: own, author: message.role === 'assistant' ? author : undefined });
      if (own && message.role === 'user' && titleWanted) {
        const title = titleFromText(text);
        if (title) out.push({ op: 'conversation', conv, meta: { title, titleRank: 1 } });
      }
      break;
    }
    case 'reasoning': {
      const text = part.text;
      if (text) record({ sourceId: id, role: 'assistant', kind: 'thinking', text, indexed: false, author });
      break;
    }
    case 'tool': {
      const state = part.state;
      const status = toolStatus(state.status);
      const name = part.tool ?? 'tool';
      record({ sourceId: id, role: 'tool', kind: 'tool_call', text: argSummary(state.input, CALL_TEXT_MAX), indexed: false, toolName: name, toolStatus: status });
      const result = toolResult(state);
      if (result !== undefined) record({ sourceId: `${id}#result`, role: 'tool', kind: 'tool_result', text: result, indexed: false, toolName: name, toolStatus: status });
      break;
    }
    case 'compaction':
      // The user turn that asked for a compaction; the summary follows it. Nothing before is in context.
      record({ sourceId: id, role: 'system', kind: 'compaction', text: '[context compacted]', indexed: false, firstKeptSourceId: id });
      break;
    case 'file': {
      const name = part.filename ?? part.url ?? 'file';
      record({ sourceId: id, role: message.role, kind: 'custom', text: `[file: ${name}]`, indexed: false });
      break;
    }
    case 'subtask':
    case 'agent': {
      const text = part.description ?? part.prompt ?? nonEmpty(part.name);
      if (text) record({ sourceId: id, role: 'system', kind: 'custom', text, indexed: false, author: part.agent ?? part.name });
      break;
    }
  }
  return out;
}

function toolStatus(status: unknown): string {
  if (status === 'completed' || status === 'success') return 'ok';
  if (status === 'error') return 'error';
  return typeof status === 'string' && status ? status : 'pending';
}

function toolResult(state: OcToolState): string | undefined {
  const output = state.output ?? state.error;
  if (output === undefined || output === null) return undefined;
  return truncate(typeof output === 'string' ? output : (JSON.stringify(output) ?? ''), RESULT_MAX);
}
