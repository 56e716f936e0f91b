// `throughline hook codex`: Codex (0.124 and later: hooks on by default) runs this on UserPromptSubmit
// with {session_id, turn_id, transcript_path, cwd, hook_event_name, model, permission_mode, prompt}
// on stdin and adds `hookSpecificOutput.additionalContext` to the turn — the same output as Claude
// Code's (codex-rs/hooks/src/events/user_prompt_submit.rs). Same decisions as the Claude Code hook:
// the pointer block before a session's first message (or on every message when so set), never
// failing the prompt, and the note that names this conversation, which Codex's MCP servers are not
// told otherwise.
//
// The transcript is the session's rollout file: every prompt the person typed is an
// `event_msg` of type `user_message` there (other role:user items are Codex's own context).
import { noOtherPrompt, transcriptAt } from './read-head.js';
import type { HookInput } from './hook-input.js';
import { DEFAULT_BUDGET_MS, type HookOptions } from './suggest.js';
import { hookJson, promptContext, runHookOn } from './claude.js';

/** Codex's UserPromptSubmit input (the fields read; checked in hook-input.ts). */
export type CodexHookInput = HookInput;

/** Stops reading a rollout after this much: a session that long is not at its first prompt. */
const HEAD_LIMIT = 8 * 1024 * 1024;

/**
 * True when the rollout holds no prompt of the person's other than (possibly) this one. A rollout
 * not written yet is a first prompt; no transcript at all (an ephemeral session) cannot be told
 * apart from a later prompt, so it is not.
 */
export function codexIsFirstPrompt(transcriptPath: string | null | undefined, prompt: string): boolean {
  if (!transcriptPath) return false;
  const transcript = transcriptAt(transcriptPath);
  if (transcript.kind !== 'file') return transcript.kind === 'absent';
  return noOtherPrompt(transcriptPath, HEAD_LIMIT, '"user_message"', (parsed) => {
    const record = (parsed ?? {}) as { type?: unknown; payload?: { type?: unknown; message?: unknown } };
    const p = record.payload;
    return record.type === 'event_msg' && p?.type === 'user_message' && typeof p.message === 'string' && p.message.trim() !== prompt.trim();
  });
}

export async function codexHookOutput(input: CodexHookInput, options: HookOptions = {}, deadline = Date.now() + (options.budgetMs ?? DEFAULT_BUDGET_MS)): Promise<string> {
  if (input.hook_event_name !== 'UserPromptSubmit' || !input.prompt?.trim()) return '';
  const prompt = input.prompt;
  const context = await promptContext({ ...input, prompt }, 'codex', options, deadline, () => codexIsFirstPrompt(input.transcript_path, prompt));
  return context ? hookJson('UserPromptSubmit', context) : '';
}

export function runCodexHook(stdin: string, options: HookOptions, log: (message: string) => void): Promise<string> {
  return runHookOn(stdin, options, log, 'codex hook', codexHookOutput);
}
