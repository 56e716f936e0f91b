// Maps one pi session entry to the records it yields, without ids, seqs or parents: the parser
// places them in the tree (pi.ts). Pure: no parser state is read or written here.
import type { EntryRecord } from '../types.js';
import { argSummary, bashStatus, bashText, contentText, RESULT_MAX, truncate } from './pi-content.js';
import type { PiContent, PiEntry, PiMessage } from './pi-shapes.js';

/** A record before placement. `callId` links a tool_call to the toolResult that settles it. */
export type Draft = Omit<EntryRecord, 'seq' | 'sourceId' | 'parentSourceId'> & { callId?: string };

export interface EntryResult {
  drafts: Draft[];
  /** Text of a user message (title candidate). */
  userText?: string;
  /** session_info name (the user-chosen title). */
  name?: string;
  /** A compaction or branch summary (conversation preview). */
  summary?: string;
  /** toolResult: the call it answers and the status to give that call. */
  settles?: { callId: string; status: string };
  /** compaction: the first kept entry as a raw pi id (v2/v3) or file-entry index (v1). */
  firstKept?: { id: string } | { index: number };
}

const NONE: EntryResult = { drafts: [] };

export function entryResult(entry: PiEntry): EntryResult {
  const ts = entry.timestamp;
  switch (entry.type) {
    case 'message':
      return entry.message ? messageResult(entry.message, ts ?? entry.message.timestamp) : NONE;
    case 'custom_message':
      return { drafts: [customDraft(entry.customType, entry.content, ts)] };
    case 'compaction':
      return compactionResult(entry, ts);
    case 'branch_summary':
      return summaryResult('branch_summary', entry.summary ?? '', ts);
    case 'session_info': {
      const name = entry.name?.trim();
      return name ? { drafts: [], name } : NONE;
    }
    default:
      // session (a later header), leaf, and the types with nothing to show in a transcript.
      return NONE;
  }
}

function messageResult(msg: PiMessage, ts: number | undefined): EntryResult {
  switch (msg.role) {
    case 'user': {
      const text = contentText(msg.content);
      return { drafts: [{ role: 'user', kind: 'message', text, indexed: true, ts }], userText: text };
    }
    case 'assistant':
      return { drafts: assistantDrafts(msg, ts) };
    case 'toolResult':
      return toolResult(msg, ts);
    case 'bashExecution':
      return { drafts: [{ role: 'tool', kind: 'bash', text: bashText(msg), indexed: false, toolStatus: bashStatus(msg), ts }] };
    case 'custom':
    case 'hookMessage':
      return { drafts: [customDraft(msg.customType, msg.content, ts)] };
    case 'compactionSummary':
      return summaryResult('compaction', msg.summary ?? '', ts);
    case 'branchSummary':
      return summaryResult('branch_summary', msg.summary ?? '', ts);
    default:
      return NONE;
  }
}

/**
 * One assistant message becomes: its thinking (one record), its text (one record), then one record
 * per tool call, in that order: pi's models emit blocks in that order, and readers want the
 * reasoning before the answer.
 */
function assistantDrafts(msg: Extract<PiMessage, { role: 'assistant' }>, ts: number | undefined): Draft[] {
  const blocks = typeof msg.content === 'string' ? [{ type: 'text' as const, text: msg.content }] : msg.content;
  const author = msg.model;
  const thinking: string[] = [];
  const text: string[] = [];
  const calls: Draft[] = [];
  for (const b of blocks) {
    if (b.type === 'text' && b.text.trim()) text.push(b.text);
    else if (b.type === 'thinking' && b.thinking.trim()) thinking.push(b.thinking);
    else if (b.type === 'toolCall') calls.push(toolCallDraft(b, author, ts));
  }
  const drafts: Draft[] = [];
  if (thinking.length) {
    drafts.push({ role: 'assistant', author, kind: 'thinking', text: thinking.join('\n\n'), indexed: false, ts });
  }
  if (text.length) {
    drafts.push({ role: 'assistant', author, kind: 'message', text: text.join('\n\n'), indexed: true, ts });
  }
  drafts.push(...calls);
  if (drafts.length === 0) {
    // An aborted or failed turn has no content; keep a marker so the transcript shows it happened.
    const stop = msg.stopReason;
    const error = msg.errorMessage;
    if (error || (stop && stop !== 'stop' && stop !== 'toolUse')) {
      const text = error ? `[${stop ?? 'error'}] ${error}` : `[${stop}]`;
      drafts.push({ role: 'assistant', author, kind: 'message', text, indexed: false, ts });
    }
  }
  return drafts;
}

function toolCallDraft(block: Extract<PiContent[number], { type: 'toolCall' }>, author: string | undefined, ts: number | undefined): Draft {
  return {
    role: 'tool',
    author,
    kind: 'tool_call',
    text: argSummary(block.arguments),
    indexed: false,
    toolName: block.name,
    toolStatus: 'pending',
    ts,
    callId: block.id,
  };
}

function toolResult(msg: Extract<PiMessage, { role: 'toolResult' }>, ts: number | undefined): EntryResult {
  const status = msg.isError ? 'error' : 'ok';
  const draft: Draft = {
    role: 'tool',
    kind: 'tool_result',
    text: truncate(contentText(msg.content), RESULT_MAX),
    indexed: false,
    toolName: msg.toolName,
    toolStatus: status,
    ts,
  };
  const callId = msg.toolCallId;
  return { drafts: [draft], settles: callId ? { callId, status } : undefined };
}

/** The customType of a handoff written by Throughline's pi extension (its HANDOFF_TYPE). */
export const PI_HANDOFF_TYPE = 'throughline-handoff';

/**
 * Extension messages (custom_message entries, `custom` role messages). pi sends them to the model
 * as user messages, so role 'user'; but an extension wrote them, not the person, so they are not
 * indexed (the contract keeps the index to real user/assistant text) even when pi displays them.
 */
function customDraft(type: string | undefined, content: PiContent, ts: number | undefined): Draft {
  return {
    role: 'user',
    author: type,
    // Throughline's pi extension stores a history_handoff as this message, and from it on pi's model
    // sees nothing earlier (resources/pi-extension/throughline.ts): a reset boundary.
    kind: type === PI_HANDOFF_TYPE ? 'reset' : 'custom',
    text: truncate(contentText(content), RESULT_MAX),
    indexed: false,
    ts,
  };
}

function compactionResult(entry: Extract<PiEntry, { type: 'compaction' }>, ts: number | undefined): EntryResult {
  const result = summaryResult('compaction', entry.summary ?? '', ts);
  if (entry.firstKeptEntryId) result.firstKept = { id: entry.firstKeptEntryId };
  else if (entry.firstKeptEntryIndex !== undefined) result.firstKept = { index: entry.firstKeptEntryIndex };
  return result;
}

function summaryResult(kind: 'compaction' | 'branch_summary', summary: string, ts: number | undefined): EntryResult {
  return {
    drafts: [{ role: 'system', kind, text: summary, indexed: false, ts }],
    summary: summary.trim() ? summary : undefined,
  };
}
