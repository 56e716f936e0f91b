// Pure helpers for the pi adapter: they turn pi's shapes (declared in pi-shapes.ts) into text.

// The format-independent helpers are shared with the other adapters.
import type { PiContent, PiMessage } from './pi-shapes.js';
import { argSummary, RESULT_MAX, SUMMARY_MAX, TITLE_MAX, truncate } from './text.js';
export { argSummary, RESULT_MAX, SUMMARY_MAX, TITLE_MAX, truncate };

type BashExecution = Extract<PiMessage, { role: 'bashExecution' }>;

/** A short preview: first `max` chars, no trailing marker (titles and summaries are shown inline). */
export function preview(text: string, max: number): string {
  const t = text.trim();
  return t.length <= max ? t : `${t.slice(0, max - 1).trimEnd()}…`;
}


/**
 * Text of user, toolResult and custom content: either a string or text/image blocks.
 * Images carry base64 data we never store; "[image]" keeps their place in the transcript.
 */
export function contentText(content: PiContent): string {
  if (typeof content === 'string') return content;
  const parts: string[] = [];
  for (const block of content) {
    if (block.type === 'text') parts.push(block.text);
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
export function bashText(msg: BashExecution): string {
  let text = `$ ${msg.command ?? ''}\n${truncate(msg.output ?? '', RESULT_MAX)}`;
  if (msg.cancelled) text += '\n(cancelled)';
  else if (msg.exitCode !== undefined && msg.exitCode !== 0) text += `\n(exit code ${msg.exitCode})`;
  return text;
}

export function bashStatus(msg: BashExecution): string | undefined {
  if (msg.cancelled) return 'cancelled';
  if (msg.exitCode === undefined) return undefined;
  return msg.exitCode === 0 ? 'ok' : 'error';
}
