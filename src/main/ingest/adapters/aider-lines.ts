// What one line of Aider's chat history (`.aider.chat.history.md`) is, and what a user's input is.
// Aider appends Markdown (aider/io.py): `# aider chat started at YYYY-MM-DD HH:MM:SS` (local time)
// when it starts, each line the user typed as `#### <line>`, its own output (notices, command output,
// questions and answers) as `> <text>` ending in two spaces, and the model's reply as plain Markdown
// after a blank line. Lines Aider writes itself end with two spaces (Markdown's line break), which
// tells a typed `#### ` line from a heading in a reply. Its first weeks' form (May 2023) was `# Aider chat started at …`, `---` before
// each input, `#### > <input>`, and its output in italics (`_…_`). Aider reads the file back the same
// way (aider/utils.py, split_chat_history_markdown): `#### ` is the user, `> ` is Aider, the rest is
// the model.

export type AiderLine =
  | { type: 'start'; stamp: string; at: number; legacy: boolean }
  /** `# aider chat started at` with a time that is not one: a damaged header. */
  | { type: 'bad-start' }
  | { type: 'user'; text: string }
  /** Aider's own output; `open` when its text goes on in the next lines (a message with newlines in it). */
  | { type: 'note'; text: string; open: boolean }
  /** The separator the first form wrote before each input. */
  | { type: 'rule' }
  | { type: 'text'; text: string };

const START = /^# (aider chat|new session) started at\b(.*)$/i;
const STAMP = /^\s*(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})\s*$/;
/** Aider ends each line of its output with two spaces, Markdown's line break. */
const BREAK = '  ';

/** The session start as a time: Aider writes the local time of the machine it ran on, without a zone. */
export function localTime(stamp: string): number | undefined {
  const m = STAMP.exec(stamp);
  if (!m) return undefined;
  const [y, mo, d, h, mi, s] = m.slice(1).map(Number) as [number, number, number, number, number, number];
  const date = new Date(y, mo - 1, d, h, mi, s);
  // new Date rolls 2024-13-45 over into another date: a stamp that does not come back is damaged.
  const same = date.getFullYear() === y && date.getMonth() === mo - 1 && date.getDate() === d && date.getHours() === h && date.getMinutes() === mi;
  return same ? date.getTime() : undefined;
}

function withoutBreak(text: string): string {
  return text.endsWith(BREAK) ? text.slice(0, -BREAK.length) : text;
}

/** One line, read in a session of the first form (`legacy`) or of the current one. */
export function classify(line: string, legacy: boolean): AiderLine {
  const start = START.exec(line);
  if (start) {
    const stamp = start[2]!.trim();
    const at = localTime(stamp);
    if (at === undefined) return { type: 'bad-start' };
    return { type: 'start', stamp, at, legacy: /^# (Aider|New)/.test(line) };
  }
  // What the user typed always ends with the break; a reply's own `#### ` heading (common in Markdown
  // replies) does not, and stays the reply's.
  if (line.startsWith('#### ') && line.endsWith(BREAK)) {
    let text = withoutBreak(line).slice(5);
    if (legacy && text.startsWith('>')) text = text.slice(1);
    return { type: 'user', text };
  }
  if (line === '>' || line.startsWith('> ')) {
    // A blank line of Aider's output is `>` and the break.
    return { type: 'note', text: withoutBreak(line).slice(2), open: line.length > 1 && !line.endsWith(BREAK) };
  }
  if (legacy && line === '---') return { type: 'rule' };
  if (legacy && /^([_*]).*\1 {2}$/.test(line)) return { type: 'note', text: line.slice(1, -3), open: false };
  return { type: 'text', text: line };
}

/** Whether the rest of a note's text, after a line without the break, is still Aider's. */
export function continues(line: string): boolean {
  return !line.endsWith(BREAK);
}

export type UserKind = 'message' | 'command' | 'clear' | 'answer';

/** In-chat commands whose argument is a prompt to the model. */
const PROMPT_COMMANDS = new Set(['ask', 'code', 'architect', 'context', 'help']);
/** Commands after which the model no longer has the chat before them (aider/commands.py). */
const CLEAR_COMMANDS = new Set(['clear', 'reset']);
/** A question Aider asked, logged as input when a group answer ("all") was given for it. */
const ANSWER = /\(Y\)es\/\(N\)o.*\]: ?\S*$/;

/**
 * What an input is: a prompt (indexed, a title), an in-chat command (`/add`, `!ls`: kept, not
 * indexed), `/clear` or `/reset` (the model's context starts again after it), or Aider's question
 * with its answer. `prompt` is the text a title is made from.
 */
export function userKind(text: string): { kind: UserKind; prompt?: string } {
  const first = text.trimStart();
  if (ANSWER.test(first) && !first.includes('\n')) return { kind: 'answer' };
  const m = /^([/!])([\w-]*)\s*([\s\S]*)$/.exec(first);
  if (!m) return { kind: 'message', prompt: text };
  const [, sigil, name, rest] = m as unknown as [string, string, string, string];
  if (sigil === '/' && PROMPT_COMMANDS.has(name) && rest.trim()) return { kind: 'message', prompt: rest };
  if (sigil === '/' && CLEAR_COMMANDS.has(name)) return { kind: 'clear' };
  return { kind: 'command' };
}

/** In-chat commands that run something in the repository; Aider logs what they print after them. */
const TOOL_COMMANDS = new Set(['run', 'test', 'lint', 'git']);

/**
 * The tool an input runs, as the other agents' tool calls are stored: `/run CMD`, `/test CMD`,
 * `/lint`, `/git ARGS` and `!CMD` (a shell command, Aider's short form of /run). Undefined otherwise.
 */
export function toolOf(text: string): { name: string; command: string } | undefined {
  const first = text.trimStart();
  if (first.startsWith('!')) return { name: 'run', command: first.slice(1).trim() };
  const m = /^\/([\w-]+)\s*([\s\S]*)$/.exec(first);
  if (m && TOOL_COMMANDS.has(m[1]!)) return { name: m[1]!, command: m[2]!.trim() || `/${m[1]}` };
  return undefined;
}

/** `<thinking-content-…>` (Aider's own tag) or `<think>` (models that use it) opening a reply. */
const THINK_OPEN = /^<(thinking-content-[0-9a-f]+|think)>\s*$/;

/** The reasoning tag a reply opens with, or undefined. */
export function thinkingTag(firstLine: string): string | undefined {
  return THINK_OPEN.exec(firstLine)?.[1];
}

/** A reply that opened with `tag`: its reasoning and its answer (empty until the tag closes). */
export function splitThinking(lines: readonly string[], tag: string): { thinking: string; answer: string } {
  const close = lines.findIndex((l, i) => i > 0 && l.trim() === `</${tag}>`);
  if (close < 0) return { thinking: lines.slice(1).join('\n').trim(), answer: '' };
  return { thinking: lines.slice(1, close).join('\n').trim(), answer: lines.slice(close + 1).join('\n').trim() };
}
