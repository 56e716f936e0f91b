// Pure helpers for the pi adapter: they turn pi's JSON shapes into text and numbers.
// Session files are untrusted input, so every field is checked before use.

// The format-independent helpers are shared with the other adapters.
import { argSummary, isObject, parseTs, RESULT_MAX, str, SUMMARY_MAX, TITLE_MAX, truncate, type Json } from './text.js';
export { argSummary, isObject, parseTs, RESULT_MAX, str, SUMMARY_MAX, TITLE_MAX, truncate, type Json };

/** A short preview: first `max` chars, no trailing marker (titles and summaries are shown inline). */
export function preview(text: string, max: number): string {
  const t = text.trim();
  return t.length <= max ? t : `${t.slice(0, max - 1).trimEnd()}…`;
}


/**
 * Text of user, toolResult and custom content: either a string or text/image blocks.
 * Images carry base64 data we never store; "[image]" keeps their place in the transcript.
 */
export function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  const parts: string[] = [];
  for (const block of content) {
    if (!isObject(block)) continue;
    if (block.type === 'text' && typeof block.text === 'string') parts.push(block.text);
    else if (block.type === 'image') parts.push('[image]');
  }
  return parts.join('\n');
}

/**
 * A title from a user message: its first non-empty line, like pi's own session list. A bare slash
 * command ("/mode") names no topic, so it gives no title and the next user message is tried.
 */
export function titleFromText(text: string): string | undefined {
  if (/^\/[\w:-]+$/.test(text.trim())) return undefined;
  const line = text
    .split('\n')
    .map((s) => s.trim())
    .find((s) => s.length > 0 && s !== '[image]');
  return line === undefined ? undefined : preview(line, TITLE_MAX);
}

/**
 * pi names session files `<timestamp>_<sessionId>.jsonl` (the timestamp has no underscore), so a
 * parentSession/branchedFrom path gives the parent's session id, which is its conversation key.
 */
export function sessionIdFromPath(path: string): string | undefined {
  const m = /_([^_/\\]+)\.jsonl$/.exec(path);
  return m?.[1];
}

/** `$ command` then the (truncated) output, with the outcome when it is not a plain success. */
export function bashText(msg: Json): string {
  const command = str(msg.command) ?? '';
  const output = str(msg.output) ?? '';
  let text = `$ ${command}\n${truncate(output, RESULT_MAX)}`;
  if (msg.cancelled === true) text += '\n(cancelled)';
  else if (typeof msg.exitCode === 'number' && msg.exitCode !== 0) text += `\n(exit code ${msg.exitCode})`;
  return text;
}

export function bashStatus(msg: Json): string | undefined {
  if (msg.cancelled === true) return 'cancelled';
  if (typeof msg.exitCode !== 'number') return undefined;
  return msg.exitCode === 0 ? 'ok' : 'error';
}
