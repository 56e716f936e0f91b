// The JSON an agent writes on a turn-start hook's stdin, checked before it is used: Claude Code's,
// Codex's and Gemini CLI's hooks share these field names. Every field is optional (events differ),
// but one that is present must be a string (transcript_path may also be null: Codex's ephemeral
// sessions have none); other fields are ignored, as the agents add them. A bad input is refused
// whole with the field named, and the hook prints nothing.
//
// Hand-written, not zod, on purpose: the hook runs before every prompt and its common path loads
// only Node built-ins and the small hook modules. Loading zod costs about 90-180 ms more than
// `node -e 0` does in total (zod/mini about 120 ms; measured on this machine, 2026-12), which would
// more than double the hook's time on a later prompt (1.13× `node -e 0` in BENCHMARKS.md). The
// checks here are what a zod schema of optional strings with unknown keys stripped would do, and
// test/integrations/hook-input.test.ts holds them to that.

export interface HookInput {
  session_id?: string;
  transcript_path?: string | null;
  cwd?: string;
  hook_event_name?: string;
  prompt?: string;
  /** SessionStart's reason (Claude Code): "startup", "resume", "clear", "compact". */
  source?: string;
}

const STRING_FIELDS = ['session_id', 'cwd', 'hook_event_name', 'prompt', 'source'] as const;

function kindOf(v: unknown): string {
  return v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v;
}

/** The hook input, or why it is not one ("prompt: expected a string, got number"). */
export function parseHookInput(stdin: string): { ok: true; input: HookInput } | { ok: false; reason: string } {
  let value: unknown;
  try {
    value = JSON.parse(stdin);
  } catch (err) {
    return { ok: false, reason: `not JSON: ${(err as Error).message}` };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { ok: false, reason: `expected a JSON object, got ${kindOf(value)}` };
  const input: HookInput = {};
  for (const key of STRING_FIELDS) {
    const v: unknown = Reflect.get(value, key);
    if (v === undefined) continue;
    if (typeof v !== 'string') return { ok: false, reason: `${key}: expected a string, got ${kindOf(v)}` };
    input[key] = v;
  }
  const transcript: unknown = Reflect.get(value, 'transcript_path');
  if (transcript !== undefined) {
    if (transcript !== null && typeof transcript !== 'string') return { ok: false, reason: `transcript_path: expected a string or null, got ${kindOf(transcript)}` };
    input.transcript_path = transcript;
  }
  return { ok: true, input };
}
