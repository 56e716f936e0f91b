// Codex CLI's rollout lines as Throughline reads them, declared once (after openai/codex
// codex-rs/protocol/src/protocol.rs RolloutItem and models.rs ResponseItem), with the parse step that
// makes one from untrusted JSON. A field of the wrong type reads as absent; a line, item or event
// not listed here is `skip` (or `other`) and yields nothing.
import { isAbsolutePath, isObject, nonEmpty, parseTs, str, type Json } from './text.js';

export interface CodexSessionMeta {
  id?: string;
  timestamp?: number;
  cwd?: string;
  /** source.subagent present: a spawned sub-agent; thread_spawn.parent_thread_id names its parent. */
  subagent: boolean;
  parentThread?: string;
}

/** A content block of a message: input_text, output_text, text, refusal, input_image, image… */
export interface CodexBlock {
  type?: string;
  text?: string;
  refusal?: string;
}

/** A tool output, across the shapes Codex has written over time. */
export type CodexOutput =
  | { form: 'blocks'; blocks: (CodexBlock | undefined)[] }
  | { form: 'object'; content?: string; failed: boolean; raw: Json }
  | { form: 'text'; text: string };

export type CodexResponseItem =
  | { type: 'message'; role?: string; content: CodexBlock[] }
  /** The non-empty texts of its summary and content items; encrypted: only encrypted_content. */
  | { type: 'reasoning'; texts: string[]; encrypted: boolean }
  /** function_call, custom_tool_call, local_shell_call, web_search_call and other `*_call` items. */
  | { type: 'call'; itemType: string; callId?: string; name?: string; namespace?: string; arguments: unknown; input: unknown; action: unknown; status: unknown }
  | { type: 'call_output'; callId?: string; output: CodexOutput }
  /** ghost_snapshot (undo checkpoints) and items added later. */
  | { type: 'other' };

export type CodexLine = { timestamp?: number } & (
  | { kind: 'session_meta'; meta: CodexSessionMeta }
  | { kind: 'turn_context'; cwd?: string }
  | { kind: 'response_item'; item: CodexResponseItem }
  | { kind: 'compacted'; message?: string }
  /** event_msg user_message: some rollouts record the user's text only there. */
  | { kind: 'user_message'; message: string; images: number }
  | { kind: 'task_started' }
  /** Other events (they mirror the response items), state markers, unknown lines. */
  | { kind: 'skip' }
);

const absolute = (v: unknown): string | undefined => (isAbsolutePath(v) ? v : undefined);
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

function toBlock(b: unknown): CodexBlock | undefined {
  return isObject(b) ? { type: str(b.type), text: str(b.text), refusal: str(b.refusal) } : undefined;
}

function toSessionMeta(p: Json): CodexSessionMeta {
  const source = p.source;
  const subagent = isObject(source) && source.subagent !== undefined;
  const sub = subagent ? source.subagent : undefined;
  const spawn = isObject(sub) && isObject(sub.thread_spawn) ? sub.thread_spawn : undefined;
  return { id: nonEmpty(p.id), timestamp: parseTs(p.timestamp), cwd: absolute(p.cwd), subagent, parentThread: spawn ? nonEmpty(spawn.parent_thread_id) : undefined };
}

export function toCodexOutput(output: unknown): CodexOutput {
  if (Array.isArray(output)) return { form: 'blocks', blocks: output.map(toBlock) };
  if (isObject(output)) return { form: 'object', content: str(output.content), failed: output.success === false, raw: output };
  return { form: 'text', text: str(output) ?? '' };
}

function toResponseItem(p: Json): CodexResponseItem {
  const type = str(p.type) ?? '';
  if (type === 'message') return { type: 'message', role: str(p.role), content: list(p.content).flatMap((b) => toBlock(b) ?? []) };
  if (type === 'reasoning') {
    const texts = [...list(p.summary), ...list(p.content)].flatMap((item) => (isObject(item) ? (nonEmpty(item.text) ?? []) : []));
    return { type: 'reasoning', texts, encrypted: nonEmpty(p.encrypted_content) !== undefined };
  }
  if (type.endsWith('_call_output')) return { type: 'call_output', callId: nonEmpty(p.call_id), output: toCodexOutput(p.output) };
  if (type.endsWith('_call')) {
    return { type: 'call', itemType: type, callId: nonEmpty(p.call_id), name: str(p.name), namespace: str(p.namespace), arguments: p.arguments, input: p.input, action: p.action, status: p.status };
  }
  return { type: 'other' };
}

const count = (v: unknown) => (Array.isArray(v) ? v.length : 0);

/** Rollouts since late 2025: `{timestamp, type, payload}`. */
function toItem(type: string, p: Json, timestamp: number | undefined): CodexLine {
  switch (type) {
    case 'session_meta':
      return { timestamp, kind: 'session_meta', meta: toSessionMeta(p) };
    case 'turn_context':
      return { timestamp, kind: 'turn_context', cwd: absolute(p.cwd) };
    case 'response_item':
      return { timestamp, kind: 'response_item', item: toResponseItem(p) };
    case 'compacted':
      return { timestamp, kind: 'compacted', message: nonEmpty(p.message) };
    case 'event_msg':
      if (p.type === 'user_message') return { timestamp, kind: 'user_message', message: str(p.message) ?? '', images: count(p.images) + count(p.local_images) };
      return { timestamp, kind: p.type === 'task_started' ? 'task_started' : 'skip' };
    default:
      return { timestamp, kind: 'skip' };
  }
}

/**
 * One line. Early rollouts (mid-2025) have a first line `{id, timestamp, instructions, git}`, then bare
 * response items without timestamps, and `{record_type: "state"}` markers.
 */
export function toCodexLine(obj: Json): CodexLine {
  const timestamp = parseTs(obj.timestamp);
  if (typeof obj.type === 'string' && isObject(obj.payload)) return toItem(obj.type, obj.payload, timestamp);
  if (obj.record_type !== undefined) return { kind: 'skip' };
  if (typeof obj.type === 'string') return { timestamp, kind: 'response_item', item: toResponseItem(obj) };
  if (nonEmpty(obj.id) && obj.timestamp !== undefined) return { timestamp, kind: 'session_meta', meta: toSessionMeta(obj) };
  return { kind: 'skip' };
}
