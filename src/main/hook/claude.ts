// `throughline hook claude`: Claude Code runs this on UserPromptSubmit (and SessionStart after a
// compaction) with the hook JSON on stdin. It prints
//   {"hookSpecificOutput":{"hookEventName":"UserPromptSubmit","additionalContext":"<pointer block>"}}
// or nothing. By default the pointer block belongs before a session's first message only (the
// transcript holds no earlier user prompt); with auto-recall on every message it is asked for on
// each prompt, and the daemon leaves out what this session was already given. A later prompt in
// the default mode costs one early-stopping read of the transcript head and nothing else. The hook
// never fails the user's prompt: every error ends in exit 0, no output, and a line in the hook log.
//
// This module is on the hook's fast path: Node built-ins and the small hook modules only.
import type { SuggestParams } from '../../shared/api.js';
import { noOtherPrompt, transcriptAt } from './read-head.js';
import { parseHookInput, type HookInput } from './hook-input.js';
import { readRecallSwitches } from './recall-settings.js';
import { DEFAULT_BUDGET_MS, hookSuggest, resolvePaths, type HookOptions } from './suggest.js';

export type { HookOptions } from './suggest.js';

/** Claude Code's UserPromptSubmit and SessionStart input (the fields read; checked in hook-input.ts). */
export type ClaudeHookInput = HookInput;

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
export async function isFirstPrompt(transcriptPath: string | null | undefined, prompt: string): Promise<boolean> {
  if (!transcriptPath) return true;
  const transcript = transcriptAt(transcriptPath);
  if (transcript.kind === 'absent') return true;
  // A FIFO or device would block the read: not a transcript Claude Code wrote, so not a first prompt either.
  if (transcript.kind === 'special') return false;
  return noOtherPrompt(transcriptPath, HEAD_LIMIT, '"user"', (entry) => {
    const text = typeof entry === 'object' && entry !== null ? promptText(entry as Record<string, unknown>) : null;
    return text !== null && text.trim() !== prompt.trim();
  });
}

/** The line that lets the model name its own conversation to the history tools. */
export function ownConversationNote(sessionId: string): string {
  return `This conversation is Throughline conversation "${sessionId}"; pass it as "conversation" to history_search and history_read (and to recall_conversations, which then leaves it out).`;
}

/** What a turn-start hook knows of the prompt it is called for (Claude Code's, Codex's and Gemini CLI's field names). */
export interface PromptInput {
  prompt: string;
  cwd?: string | null;
  session_id?: string | null;
  transcript_path?: string | null;
}

/**
 * The context a turn-start hook adds for a prompt: the pointer block and the line naming the
 * session, or '' for nothing. Default mode: only a first prompt asks. Every-message mode asks the
 * daemon each time (it remembers what this session was given); without a daemon nothing remembers,
 * so only a first prompt is answered from the index.
 */
export async function promptContext(
  input: PromptInput,
  client: string,
  options: HookOptions,
  deadline: number,
  isFirst: () => boolean | Promise<boolean>,
): Promise<string> {
  const switches = readRecallSwitches(resolvePaths(options).settingsPath);
  if (!switches.autoRecall) return '';
  let first: boolean | undefined;
  if (!switches.every) {
    if (!(await isFirst())) return '';
    first = true;
  }
  const params: SuggestParams = {
    text: input.prompt.slice(0, 20_000),
    workspace: input.cwd || undefined,
    conversation: input.session_id || input.transcript_path || undefined,
    ...(first ? { first } : {}),
  };
  const result = await hookSuggest(params, client, options, deadline, async () => first ?? (await isFirst()));
  if (!result?.block.trim()) return '';
  const note = input.session_id ? `\n${ownConversationNote(input.session_id)}` : '';
  return result.block.trimEnd() + note;
}

/** The hook answer Claude Code (and Codex, which reads the same) adds to the model's context. */
export function hookJson(event: 'UserPromptSubmit' | 'SessionStart', context: string): string {
  return JSON.stringify({ hookSpecificOutput: { hookEventName: event, additionalContext: context } }) + '\n';
}

/** Computes what the hook prints for one hook input ('' for nothing). Throws on failure; the caller swallows. */
export async function claudeHookOutput(input: ClaudeHookInput, options: HookOptions = {}, deadline = Date.now() + (options.budgetMs ?? DEFAULT_BUDGET_MS)): Promise<string> {
  const event = input.hook_event_name;
  if (event === 'SessionStart') {
    // After a compaction the model has only a summary: remind it where the rest is.
    if (input.source !== 'compact' || !input.session_id) return '';
    return hookJson(
      'SessionStart',
      'Throughline: earlier details of this conversation are no longer in your context but still stored. ' +
        'If you need one, search with history_search, then read only what you need with history_read (mode "tail" for what came right before the compaction) — do not guess from the summary. ' +
        ownConversationNote(input.session_id),
    );
  }
  if (event !== 'UserPromptSubmit' || !input.prompt?.trim()) return '';
  const prompt = input.prompt;
  const context = await promptContext({ ...input, prompt }, 'claude-code', options, deadline, () => isFirstPrompt(input.transcript_path, prompt));
  return context ? hookJson('UserPromptSubmit', context) : '';
}

/** Parses stdin and runs the hook within its time budget; resolves to the text to print, never rejects. */
export function runClaudeHook(stdin: string, options: HookOptions, log: (message: string) => void): Promise<string> {
  return runHookOn(stdin, options, log, 'hook', claudeHookOutput);
}

/** Checks the hook JSON on stdin (`what` names it in the log) and runs `output` on it within the time budget. */
export async function runHookOn(
  stdin: string,
  options: HookOptions,
  log: (message: string) => void,
  what: string,
  output: (input: HookInput, options: HookOptions, deadline: number) => Promise<string>,
): Promise<string> {
  const parsed = parseHookInput(stdin);
  if (!parsed.ok) {
    log(`${what} input refused: ${parsed.reason}`);
    return '';
  }
  const input = parsed.input;
  return withinBudget(options.budgetMs ?? DEFAULT_BUDGET_MS, input.hook_event_name, log, (deadline) => output(input, options, deadline));
}

/** Runs `fn` and resolves to its output, or to '' once the budget is spent or on any failure. */
export async function withinBudget(budgetMs: number, what: string | undefined, log: (message: string) => void, fn: (deadline: number) => Promise<string>): Promise<string> {
  const deadline = Date.now() + budgetMs;
  let timer: NodeJS.Timeout | undefined;
  const giveUp = new Promise<string>((resolve) => {
    timer = setTimeout(() => {
      log(`hook gave up after ${budgetMs} ms (${what ?? 'unknown event'})`);
      resolve('');
    }, budgetMs);
  });
  try {
    return await Promise.race([
      fn(deadline).catch((err: Error) => {
        log(`hook failed (${what ?? 'unknown event'}): ${err.message}`);
        return '';
      }),
      giveUp,
    ]);
  } finally {
    clearTimeout(timer);
  }
}
