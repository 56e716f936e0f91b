// Small, format-independent helpers shared by the ingest adapters. Session files are untrusted
// input: every value is checked before use and nothing here throws on odd shapes.

export type Json = Record<string, unknown>;

/** Title length: long enough to recognise a conversation in a list, short enough for one line. */
export const TITLE_MAX = 80;
/** Preview (conversation summary) length. */
export const SUMMARY_MAX = 300;
/** Tool results are stored for the transcript only; their head is enough to see what happened. */
export const RESULT_MAX = 2000;

export function isObject(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function str(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

/** A string with something in it after trimming, else undefined. */
export function nonEmpty(v: unknown): string | undefined {
  return typeof v === 'string' && v.trim().length > 0 ? v : undefined;
}

/** Cut long text, saying how much was left out so a reader knows the transcript is partial. */
export function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  return `${text.slice(0, max)}… [${text.length - max} more chars]`;
}

/** A short inline preview: whitespace collapsed, first `max` chars, an ellipsis when cut. */
export function preview(text: string, max: number): string {
  const t = text.replace(/\s+/g, ' ').trim();
  return t.length <= max ? t : `${t.slice(0, max - 1).trimEnd()}…`;
}

/** The first line that has something in it, trimmed (undefined when there is none). */
export function firstLine(text: string): string | undefined {
  for (const line of text.split('\n')) {
    const t = line.trim();
    if (t.length > 0) return t;
  }
  return undefined;
}

/**
 * A title from free text (usually a first prompt): its first line with words in it, shortened.
 * "[image]" placeholders are skipped: a pasted screenshot says nothing about the conversation.
 */
export function titleFromText(text: string, max = TITLE_MAX): string | undefined {
  const line = firstLine(text.replace(/^\s*\[image\]\s*$/gm, ''));
  return line === undefined ? undefined : preview(line, max);
}

/** ISO string or epoch ms → ms since epoch; anything unparseable → undefined. */
export function parseTs(v: unknown): number | undefined {
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  if (typeof v === 'string') {
    const t = Date.parse(v);
    return Number.isNaN(t) ? undefined : t;
  }
  return undefined;
}

/** Parse one JSONL line into an object, or say why it is not one (for a LineError). */
export function parseJsonObject(line: string): Json | string {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (err) {
    return `invalid JSON: ${(err as Error).message}`;
  }
  return isObject(value) ? value : `not a JSON object (${Array.isArray(value) ? 'array' : typeof value})`;
}

/**
 * Whether a recorded working directory is a real absolute path (POSIX, `C:\`, or UNC). Scrubbed
 * or placeholder values are not workspaces, and a bad one would otherwise replace a good one.
 */
export function isAbsolutePath(v: unknown): v is string {
  return typeof v === 'string' && (v.startsWith('/') || /^[A-Za-z]:[\\/]/.test(v) || v.startsWith('\\\\'));
}

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(v: unknown): boolean {
  return typeof v === 'string' && UUID_RE.test(v);
}

/** The last path segment, for either separator (session paths may come from Windows). */
export function baseName(path: string): string {
  const i = Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\'));
  return path.slice(i + 1);
}

/** The folder part of a path, for either separator ('' when there is none). */
export function dirName(path: string): string {
  const i = Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\'));
  return i < 0 ? '' : path.slice(0, i);
}

/** How much of a tool call's arguments its entry keeps, for every agent alike. */
export const CALL_TEXT_MAX = 500;

// The argument that says most about a tool call: shell command, file, search pattern, web target,
// then a sub-agent's description or task. One list for every agent, so the same call reads the same.
const SALIENT_ARGS = ['command', 'cmd', 'file_path', 'path', 'pattern', 'url', 'query', 'description', 'prompt', 'message'];

/** A one-line-ish summary of a tool call's arguments: the salient one if any, else compact JSON. */
export function argSummary(args: unknown, max = CALL_TEXT_MAX): string {
  if (isObject(args)) {
    for (const key of SALIENT_ARGS) {
      const v = args[key];
      if (typeof v === 'string' && v.length > 0) return truncate(v, max);
      // Codex's older shell tool passes the command as argv: ["bash", "-lc", "ls"].
      if (Array.isArray(v) && v.length > 0 && v.every((x) => typeof x === 'string')) return truncate(v.join(' '), max);
    }
  }
  if (args === undefined || args === null) return '';
  if (typeof args === 'string') return truncate(args, max);
  return truncate(JSON.stringify(args) ?? '', max);
}

/** Inserts into a bounded record, dropping the oldest keys (insertion order) beyond `cap`. */
export function putCapped<T>(record: Record<string, T>, key: string, value: T, cap: number): void {
  delete record[key];
  record[key] = value;
  const keys = Object.keys(record);
  for (let i = 0; i < keys.length - cap; i++) delete record[keys[i]!];
}
