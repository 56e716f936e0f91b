// What must never enter the index: `<private>…</private>` spans, and excluded files, workspaces
// and sessions.

// The tags as people type them: `<private>`, `<private >`, `< private>`, `<private\n>`, `</ private >`,
// in any case. A word after a space (`<private note>`) still opens a span; `<private-key>` does not.
const OPEN = String.raw`<\s*private(?:\s[^<>]*)?>`;
const CLOSE = String.raw`<\s*\/\s*private\s*>`;
const HAS_OPEN = new RegExp(OPEN, 'i');
const PRIVATE_SPAN = new RegExp(`${OPEN}[\\s\\S]*?(?:${CLOSE}|$)`, 'gi');

/**
 * Replaces every `<private>…</private>` span with a marker. An unclosed span runs to the end of the
 * text: leaking the rest of a message because someone forgot the closing tag would be the worse error.
 */
export function redactPrivate(text: string): string {
  if (!HAS_OPEN.test(text)) return text;
  return text.replace(PRIVATE_SPAN, '[private]');
}

/** An exclusion naming one session (an agent's session id or an import id) rather than a path. */
export const SESSION_PREFIX = 'session:';

/** What an exclusion is checked against: a conversation's file, workspace and ids. */
export interface ExclusionSubject {
  path?: string | null;
  workspace?: string | null;
  /** The agent's session id and the conversation's key (an import id, `parent/agent-x`, …). */
  ids?: readonly (string | null | undefined)[];
}

export interface Exclusions {
  /** The patterns as written in settings. */
  readonly patterns: readonly string[];
  /** The first pattern covering a file path or a workspace, or null. */
  path(value: string | null | undefined): string | null;
  /** The first pattern covering a conversation (its file, its workspace or one of its ids), or null. */
  conversation(subject: ExclusionSubject): string | null;
}

function globToRegExp(glob: string): RegExp {
  let out = '';
  for (let i = 0; i < glob.length; i++) {
    const ch = glob[i]!;
    if (ch === '*') {
      if (glob[i + 1] === '*') {
        out += '.*';
        i++;
      } else out += '[^/]*';
    } else if (ch === '?') out += '[^/]';
    else out += ch.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${out}(?:/.*)?$`);
}

/**
 * Exclusions are absolute paths (a folder excludes everything under it, a file itself, a workspace
 * path its conversations), globs with `*`, `**` and `?` matched against file paths and workspaces,
 * or `session:ID` for one conversation by its session or import id (what `forget` writes for a
 * conversation, so another copy of its file, or an agent pushing it again, does not bring it back).
 */
export function createExclusions(patterns: readonly string[]): Exclusions {
  const prefixes: [string, string][] = [];
  const globs: [RegExp, string][] = [];
  const sessions = new Map<string, string>();
  for (const raw of patterns) {
    const trimmed = raw.trim();
    if (trimmed.startsWith(SESSION_PREFIX)) {
      const id = trimmed.slice(SESSION_PREFIX.length).trim();
      if (id && !sessions.has(id)) sessions.set(id, raw);
      continue;
    }
    const p = trimmed.replace(/\/+$/, '');
    if (!p) continue;
    if (/[*?]/.test(p)) globs.push([globToRegExp(p), raw]);
    else prefixes.push([p, raw]);
  }
  const path = (value: string | null | undefined): string | null => {
    if (!value) return null;
    for (const [p, raw] of prefixes) if (value === p || value.startsWith(p + '/')) return raw;
    for (const [g, raw] of globs) if (g.test(value)) return raw;
    return null;
  };
  return {
    patterns,
    path,
    conversation(subject) {
      for (const id of subject.ids ?? []) {
        const hit = id ? sessions.get(id) : undefined;
        if (hit) return hit;
      }
      return path(subject.workspace) ?? path(subject.path);
    },
  };
}

export const NO_EXCLUSIONS = createExclusions([]);
