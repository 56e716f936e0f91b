// Pure helpers for the Codex CLI adapter: they read Codex's rollout shapes (declared in
// codex-shapes.ts: response items, tool outputs) and injected context, and never touch parser state.
import type { CodexBlock, CodexOutput, CodexResponseItem } from './codex-shapes.js';
import { argSummary, baseName, isObject, RESULT_MAX, truncate } from './text.js';

type Call = Extract<CodexResponseItem, { type: 'call' }>;

/** Tool-call arguments are a transcript aid, never indexed: a short summary is enough. */
export const CALL_TEXT_MAX = 500;

// Codex sends the model context it assembled itself as user (or developer) messages: AGENTS.md,
// the environment, permissions, skills, plugins, collaboration mode, aborted-turn markers. None of
// it was typed by the user, so it is not user text and is not stored (it repeats on every turn).
const INJECTED_TAGS = new RegExp(
  '^<(environment_context|user_instructions|permissions instructions|collaboration_mode|skills_instructions|' +
    'plugins_instructions|apps_instructions|user_shell_command|turn_aborted|subagent_notification|INSTRUCTIONS)\\b',
);
const AGENTS_MD = /^# AGENTS\.md instructions\b/;
// Any whole text that is one XML element with a snake_case or spaced name is the same kind of
// wrapper (real prompts practically never look like this); it catches tags added after this was written.
const WRAPPED = /^<([a-z]+(?:[_ ][a-z]+)+)>[\s\S]*<\/\1>$/;

export function isInjected(text: string): boolean {
  const t = text.trim();
  return INJECTED_TAGS.test(t) || AGENTS_MD.test(t) || WRAPPED.test(t);
}

/** The user's own text of a message: input_text blocks that are not injected context, and images. */
export function userParts(content: CodexBlock[]): { text: string; images: number } {
  const texts: string[] = [];
  let images = 0;
  for (const block of content) {
    const text = block.text;
    if ((block.type === 'input_text' || block.type === 'text') && text !== undefined && !isInjected(text)) texts.push(text);
    else if (block.type === 'input_image' || block.type === 'image') images++;
  }
  return { text: texts.join('\n'), images };
}

/** Text of an assistant message: its output_text (and refusal) blocks. */
export function assistantText(content: CodexBlock[]): string {
  const parts: string[] = [];
  for (const block of content) {
    const text = block.text ?? block.refusal;
    if (text !== undefined && block.type !== 'input_text') parts.push(text);
  }
  return parts.join('\n');
}

/** Reasoning: its summaries and raw text when Codex kept them; encrypted-only reasoning is a marker. */
export function reasoningText(item: Extract<CodexResponseItem, { type: 'reasoning' }>): string | undefined {
  if (item.texts.length > 0) return item.texts.join('\n\n');
  return item.encrypted ? '[reasoning]' : undefined;
}

/**
 * Codex Desktop sends files the user attached ahead of the request, under fixed headings; the
 * request itself is what says what the conversation is about.
 */
export function requestText(text: string): string {
  const m = /^## My request for Codex:[^\n]*\n/m.exec(text);
  return m ? text.slice(m.index + m[0].length) : text;
}

export interface CallInfo {
  callId?: string;
  name: string;
  text: string;
  /** 'pending' when an output is expected, else the outcome the item itself reports. */
  status: string;
}

/** function_call, custom_tool_call, local_shell_call, web_search_call and other `*_call` items. */
export function callInfo(p: Call): CallInfo {
  const callId = p.callId;
  const name = p.name ?? p.itemType.replace(/_call$/, '');
  const namespace = p.namespace;
  const fullName = namespace ? (namespace.endsWith('_') ? `${namespace}${name}` : `${namespace}.${name}`) : name;
  return { callId, name: fullName, text: callArgs(p), status: callId ? 'pending' : itemStatus(p.status) };
}

/** Arguments are the tool's own JSON (any shape): argSummary picks what says most. */
function callArgs(p: Call): string {
  if (typeof p.arguments === 'string') {
    try {
      return argSummary(JSON.parse(p.arguments) as unknown, CALL_TEXT_MAX);
    } catch {
      return truncate(p.arguments, CALL_TEXT_MAX);
    }
  }
  if (typeof p.input === 'string') return truncate(p.input, CALL_TEXT_MAX); // custom tools, e.g. apply_patch
  return argSummary(p.arguments ?? p.action ?? p.input, CALL_TEXT_MAX);
}

/** A call item's own status (web search has no output item): completed → ok. */
function itemStatus(status: unknown): string {
  if (status === undefined || status === 'completed') return 'ok';
  if (status === 'failed' || status === 'incomplete') return 'error';
  return String(status);
}

/** A tool output's text and outcome, across the shapes Codex has written over time. */
export function outputInfo(output: CodexOutput): { text: string; status: 'ok' | 'error' } {
  if (output.form === 'blocks') {
    const text = output.blocks.map((b) => (b ? (b.text ?? (b.type === 'input_image' ? '[image]' : '')) : '')).join('\n');
    return { text: truncate(text, RESULT_MAX), status: 'ok' };
  }
  if (output.form === 'object') {
    const text = output.content ?? JSON.stringify(output.raw);
    return { text: truncate(text, RESULT_MAX), status: output.failed ? 'error' : 'ok' };
  }
  const raw = output.text;
  const wrapped = parseWrapped(raw);
  if (wrapped) return { text: truncate(wrapped.output, RESULT_MAX), status: wrapped.exitCode ? 'error' : 'ok' };
  // Newer shells: a header ("Chunk ID", "Wall time", "Process exited with code N", "Output:").
  const exit = /^Process exited with code (\d+)$/m.exec(raw.slice(0, 500));
  return { text: truncate(raw, RESULT_MAX), status: exit && exit[1] !== '0' ? 'error' : 'ok' };
}

/** Older shells: `{"output": "...", "metadata": {"exit_code": N}}` as a JSON string. */
function parseWrapped(raw: string): { output: string; exitCode: number } | undefined {
  if (!raw.startsWith('{')) return undefined;
  try {
    const v: unknown = JSON.parse(raw);
    if (!isObject(v) || typeof v.output !== 'string') return undefined;
    const exit = isObject(v.metadata) && typeof v.metadata.exit_code === 'number' ? v.metadata.exit_code : 0;
    return { output: v.output, exitCode: exit };
  } catch {
    return undefined;
  }
}

/** `rollout-<timestamp>-<uuid>.jsonl`: the session id at the end of the name. */
export function sessionIdFromPath(path: string): string | undefined {
  const m = /([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.jsonl$/i.exec(baseName(path));
  return m?.[1];
}
