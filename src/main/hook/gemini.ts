// `throughline hook gemini`: Gemini CLI runs this on BeforeAgent (after the user submits a prompt,
// before planning) with {session_id, transcript_path, cwd, hook_event_name, timestamp, prompt} on
// stdin, and appends `hookSpecificOutput.additionalContext` to that prompt (docs/hooks/reference.md
// in google-gemini/gemini-cli). Same decisions as the Claude Code hook: the pointer block before a
// session's first message (or on every message when so set), never failing the prompt.
//
// Gemini records the user's message after BeforeAgent has run, so a transcript holding any user
// message means this is not the first prompt. Transcripts are JSONL (one record a line) in current
// versions and one pretty-printed JSON object ({messages: […]}) in older ones.
import { eachLine, transcriptAt } from './read-head.js';
import type { HookInput } from './hook-input.js';
import { DEFAULT_BUDGET_MS, type HookOptions } from './suggest.js';
import { promptContext, runHookOn } from './claude.js';

/** Gemini CLI's BeforeAgent input (the fields read; checked in hook-input.ts). */
export type GeminiHookInput = HookInput;

const HEAD_LIMIT = 8 * 1024 * 1024;
/** A user record, as JSON.stringify writes it (JSONL) or pretty-printed (older whole-file JSON). */
const USER_RECORD = /"type"\s*:\s*"user"/;

function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((p) => (typeof (p as { text?: unknown })?.text === 'string' ? (p as { text: string }).text : '')).join('');
  return '';
}

const isOtherPrompt = (record: unknown, prompt: string): boolean =>
  typeof record === 'object' && record !== null && (record as { type?: unknown }).type === 'user' && contentText((record as { content?: unknown }).content).trim() !== prompt.trim();

/** True when the transcript holds no user message other than (possibly) this prompt. */
export async function geminiIsFirstPrompt(transcriptPath: string | null | undefined, prompt: string): Promise<boolean> {
  if (!transcriptPath) return true;
  const transcript = transcriptAt(transcriptPath);
  if (transcript.kind === 'absent') return true;
  if (transcript.kind === 'special' || transcript.size > HEAD_LIMIT) return false;
  const whole: string[] = [];
  let jsonl = true;
  let earlier = false;
  eachLine(transcriptPath, HEAD_LIMIT, (line) => {
    if (!jsonl) {
      whole.push(line);
      return false;
    }
    let record: unknown;
    try {
      record = JSON.parse(line);
    } catch {
      if (!line.trim()) return false;
      // Not one record a line: the older pretty-printed file, read whole below.
      jsonl = false;
      whole.push(line);
      return false;
    }
    earlier = USER_RECORD.test(line) && isOtherPrompt(record, prompt);
    return earlier;
  });
  if (earlier) return false;
  if (jsonl) return true;
  const text = whole.join('\n');
  if (!USER_RECORD.test(text)) return true;
  try {
    const messages = (JSON.parse(text) as { messages?: unknown[] }).messages ?? [];
    return !messages.some((m) => isOtherPrompt(m, prompt));
  } catch {
    return false; // unreadable: say nothing rather than guess
  }
}

export async function geminiHookOutput(input: GeminiHookInput, options: HookOptions = {}, deadline = Date.now() + (options.budgetMs ?? DEFAULT_BUDGET_MS)): Promise<string> {
  if (input.hook_event_name !== 'BeforeAgent' || !input.prompt?.trim()) return '';
  const prompt = input.prompt;
  const context = await promptContext({ ...input, prompt }, 'gemini-cli', options, deadline, () => geminiIsFirstPrompt(input.transcript_path, prompt));
  return context ? JSON.stringify({ hookSpecificOutput: { hookEventName: 'BeforeAgent', additionalContext: context } }) + '\n' : '';
}

export function runGeminiHook(stdin: string, options: HookOptions, log: (message: string) => void): Promise<string> {
  return runHookOn(stdin, options, log, 'gemini hook', geminiHookOutput);
}
