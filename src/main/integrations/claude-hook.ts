// `throughline hook claude`: Claude Code runs this on UserPromptSubmit (and SessionStart after a
// compaction) with the hook JSON on stdin. It prints
//   {"hookSpecificOutput":{"hookEventName":"UserPromptSubmit","additionalContext":"<pointer block>"}}
// or nothing. The pointer block belongs before the first message only, so it is injected on the
// first prompt of a session: the transcript holds no earlier user prompt. Later prompts cost one
// early-stopping read of the transcript head and nothing else. The hook never fails the user's
// prompt: every error ends in exit 0, no output, and a line in the hook log.
import fs from 'node:fs';
import readline from 'node:readline';
import { openBackend, type BackendOptions } from '../mcp/backend.js';

export interface ClaudeHookInput {
  session_id?: string;
  transcript_path?: string;
  cwd?: string;
  hook_event_name?: string;
  prompt?: string;
  source?: string;
}

export interface HookOptions extends Omit<BackendOptions, 'client'> {
  /** Gives up (printing nothing) after this long; Claude Code waits on the hook (default 4 s). */
  budgetMs?: number;
}

/** Stops reading a transcript after this much: a session that long is not at its first prompt. */
const HEAD_LIMIT = 8 * 1024 * 1024;

function promptText(entry: Record<string, unknown>): string | null {
  if (entry.type !== 'user' || entry.isMeta || entry.isCompactSummary || entry.isSidechain) return null;
  const message = entry.message as { role?: string; content?: unknown } | undefined;
  const content = message?.content;
  let text: string | null = null;
  if (typeof content === 'string') text = content;
  else if (Array.isArray(content)) {
    // A user entry made only of tool results is the agent's loop, not a prompt.
    const parts = content.filter((p): p is { type: 'text'; text: string } => (p as { type?: string }).type === 'text');
    if (parts.length) text = parts.map((p) => p.text).join('\n');
  }
  if (text === null) return null;
  // Slash-command plumbing that Claude Code stores as user entries.
  if (/^\s*<(command-name|command-message|local-command-stdout|local-command-caveat)>/.test(text)) return null;
  return text;
}

/** True when the transcript has no user prompt other than (possibly) the one being submitted. */
export async function isFirstPrompt(transcriptPath: string | undefined, prompt: string): Promise<boolean> {
  if (!transcriptPath || !fs.existsSync(transcriptPath)) return true;
  const stream = fs.createReadStream(transcriptPath, { encoding: 'utf8', end: HEAD_LIMIT });
  const lines = readline.createInterface({ input: stream, crlfDelay: Infinity });
  let bytes = 0;
  try {
    for await (const line of lines) {
      bytes += line.length + 1;
      if (!line.includes('"user"')) continue;
      let entry: Record<string, unknown>;
      try {
        entry = JSON.parse(line);
      } catch {
        continue;
      }
      const text = promptText(entry);
      if (text !== null && text.trim() !== prompt.trim()) return false;
    }
  } finally {
    lines.close();
    stream.destroy();
  }
  return bytes < HEAD_LIMIT;
}

/** The line that lets the model name its own conversation to the history tools. */
export function ownConversationNote(sessionId: string): string {
  return `This conversation is Throughline conversation "${sessionId}"; pass it as "conversation" to history_search and history_read.`;
}

function output(event: 'UserPromptSubmit' | 'SessionStart', context: string): string {
  return JSON.stringify({ hookSpecificOutput: { hookEventName: event, additionalContext: context } }) + '\n';
}

/** Computes what the hook prints for one hook input ('' for nothing). Throws on failure; the caller swallows. */
export async function claudeHookOutput(input: ClaudeHookInput, options: HookOptions = {}): Promise<string> {
  const event = input.hook_event_name;
  if (event === 'SessionStart') {
    // After a compaction the model has only a summary: remind it where the rest is.
    if (input.source !== 'compact' || !input.session_id) return '';
    return output(
      'SessionStart',
      'Throughline: earlier details of this conversation are no longer in your context but still stored. ' +
        'If you need one, search with history_search, then read only what you need with history_read (mode "tail" for what came right before the compaction) — do not guess from the summary. ' +
        ownConversationNote(input.session_id),
    );
  }
  if (event !== 'UserPromptSubmit' || !input.prompt?.trim()) return '';
  if (!(await isFirstPrompt(input.transcript_path, input.prompt))) return '';
  const backend = await openBackend({ ...options, client: 'claude-code' });
  try {
    const result = await backend.call('suggest', {
      text: input.prompt.slice(0, 20_000),
      workspace: input.cwd || undefined,
      conversation: input.session_id || input.transcript_path || undefined,
    });
    if (!result.block.trim()) return '';
    const note = input.session_id ? `\n${ownConversationNote(input.session_id)}` : '';
    return output('UserPromptSubmit', result.block.trimEnd() + note);
  } finally {
    backend.close();
  }
}

/** Parses stdin and runs the hook within its time budget; resolves to the text to print, never rejects. */
export async function runClaudeHook(stdin: string, options: HookOptions, log: (message: string) => void): Promise<string> {
  let input: ClaudeHookInput;
  try {
    const value: unknown = JSON.parse(stdin);
    if (typeof value !== 'object' || value === null) throw new Error('expected a JSON object');
    input = value as ClaudeHookInput;
  } catch (err) {
    log(`hook input is not JSON: ${(err as Error).message}`);
    return '';
  }
  const budget = options.budgetMs ?? 4000;
  let timer: NodeJS.Timeout | undefined;
  const giveUp = new Promise<string>((resolve) => {
    timer = setTimeout(() => {
      log(`hook gave up after ${budget} ms (${input.hook_event_name ?? 'unknown event'})`);
      resolve('');
    }, budget);
  });
  try {
    return await Promise.race([
      claudeHookOutput(input, options).catch((err: Error) => {
        log(`hook failed (${input.hook_event_name ?? 'unknown event'}): ${err.message}`);
        return '';
      }),
      giveUp,
    ]);
  } finally {
    clearTimeout(timer);
  }
}
