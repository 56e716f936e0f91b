// pi's session file lines as Throughline reads them, declared once (after pi-mono's SessionEntry and
// AgentMessage in packages/coding-agent/src/core/session-manager.ts and messages.ts), with the parse
// step that makes one from untrusted JSON. A field of the wrong type reads as absent; an entry type,
// message role or content block not listed here is `other` (or left out) and yields nothing.
import { isObject, parseTs, str, type Json } from './text.js';

/** Content blocks (pi-ai's TextContent, ImageContent, ThinkingContent, ToolCall) that say something. */
export type PiBlock =
  | { type: 'text'; text: string }
  | { type: 'image' }
  | { type: 'thinking'; thinking: string }
  | { type: 'toolCall'; id?: string; name?: string; arguments: unknown };

/** A message's content: pi writes a string or blocks; anything else reads as no blocks. */
export type PiContent = string | PiBlock[];

export type PiMessage = { timestamp?: number } & (
  | { role: 'user'; content: PiContent }
  | { role: 'assistant'; content: PiContent; model?: string; stopReason?: string; errorMessage?: string }
  | { role: 'toolResult'; content: PiContent; toolName?: string; toolCallId?: string; isError: boolean }
  | { role: 'bashExecution'; command?: string; output?: string; cancelled: boolean; exitCode?: number }
  /** An extension's message; `hookMessage` is its v2 name (pi's v2→v3 migration renames it). */
  | { role: 'custom' | 'hookMessage'; customType?: string; content: PiContent }
  /** pi refuses to append these as messages, but its types allow them. */
  | { role: 'compactionSummary' | 'branchSummary'; summary?: string }
  | { role: 'other' }
);

interface PiEntryBase {
  /** v2/v3 entries form a tree by id and parentId; v1 entries have neither. */
  id?: string;
  parentId?: string;
  timestamp?: number;
}

export type PiEntry = PiEntryBase &
  (
    | { type: 'session'; version?: number; cwd?: string; parentSession?: string; branchedFrom?: string }
    /** `message` is absent when the line's is not an object. */
    | { type: 'message'; message?: PiMessage }
    | { type: 'custom_message'; customType?: string; content: PiContent }
    | { type: 'compaction'; summary?: string; firstKeptEntryId?: string; firstKeptEntryIndex?: number }
    | { type: 'branch_summary'; summary?: string }
    | { type: 'session_info'; name?: string }
    /** Moves the active leaf (forward compatibility: pi's leaf is otherwise the newest entry). */
    | { type: 'leaf'; targetId?: string }
    /** model_change, thinking_level_change, label, custom, active_tools_change and types added later. */
    | { type: 'other'; rawType: string }
  );

const num = (v: unknown): number | undefined => (typeof v === 'number' ? v : undefined);

function toBlock(b: unknown): PiBlock | undefined {
  if (!isObject(b)) return undefined;
  switch (b.type) {
    case 'text':
      return typeof b.text === 'string' ? { type: 'text', text: b.text } : undefined;
    case 'image':
      return { type: 'image' };
    case 'thinking':
      return typeof b.thinking === 'string' ? { type: 'thinking', thinking: b.thinking } : undefined;
    case 'toolCall':
      return { type: 'toolCall', id: str(b.id), name: str(b.name), arguments: b.arguments };
    default:
      return undefined;
  }
}

function toContent(v: unknown): PiContent {
  if (typeof v === 'string') return v;
  if (!Array.isArray(v)) return [];
  const blocks: PiBlock[] = [];
  for (const b of v) {
    const block = toBlock(b);
    if (block) blocks.push(block);
  }
  return blocks;
}

function toMessage(m: Json): PiMessage {
  const timestamp = parseTs(m.timestamp);
  switch (m.role) {
    case 'user':
      return { timestamp, role: 'user', content: toContent(m.content) };
    case 'assistant':
      return { timestamp, role: 'assistant', content: toContent(m.content), model: str(m.model), stopReason: str(m.stopReason), errorMessage: str(m.errorMessage) };
    case 'toolResult':
      return { timestamp, role: 'toolResult', content: toContent(m.content), toolName: str(m.toolName), toolCallId: str(m.toolCallId), isError: m.isError === true };
    case 'bashExecution':
      return { timestamp, role: 'bashExecution', command: str(m.command), output: str(m.output), cancelled: m.cancelled === true, exitCode: num(m.exitCode) };
    case 'custom':
    case 'hookMessage':
      return { timestamp, role: m.role, customType: str(m.customType), content: toContent(m.content) };
    case 'compactionSummary':
    case 'branchSummary':
      return { timestamp, role: m.role, summary: str(m.summary) };
    default:
      return { timestamp, role: 'other' };
  }
}

/** An entry from one parsed line, or undefined when the line has no string `type`. */
export function toPiEntry(o: Json): PiEntry | undefined {
  if (typeof o.type !== 'string') return undefined;
  const base: PiEntryBase = { id: str(o.id), parentId: str(o.parentId), timestamp: parseTs(o.timestamp) };
  switch (o.type) {
    case 'session':
      return { ...base, type: 'session', version: num(o.version), cwd: str(o.cwd), parentSession: str(o.parentSession), branchedFrom: str(o.branchedFrom) };
    case 'message':
      return { ...base, type: 'message', message: isObject(o.message) ? toMessage(o.message) : undefined };
    case 'custom_message':
      return { ...base, type: 'custom_message', customType: str(o.customType), content: toContent(o.content) };
    case 'compaction':
      return { ...base, type: 'compaction', summary: str(o.summary), firstKeptEntryId: str(o.firstKeptEntryId), firstKeptEntryIndex: num(o.firstKeptEntryIndex) };
    case 'branch_summary':
      return { ...base, type: 'branch_summary', summary: str(o.summary) };
    case 'session_info':
      return { ...base, type: 'session_info', name: str(o.name) };
    case 'leaf':
      return { ...base, type: 'leaf', targetId: str(o.targetId) };
    default:
      return { ...base, type: 'other', rawType: o.type };
  }
}

/** The type the line gave, for messages about it. */
export function piTypeName(entry: PiEntry): string {
  return entry.type === 'other' ? entry.rawType : entry.type;
}
