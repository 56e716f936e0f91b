// What must never enter the index: `<private>…</private>` spans, and excluded paths or workspaces.

const PRIVATE_SPAN = /<private>[\s\S]*?(?:<\/private>|$)/gi;

/**
 * Replaces every `<private>…</private>` span with a marker. An unclosed span runs to the end of the
 * text: leaking the rest of a message because someone forgot the closing tag would be the worse error.
 */
export function redactPrivate(text: string): string {
  if (!/<private>/i.test(text)) return text;
  return text.replace(PRIVATE_SPAN, '[private]');
}

export type ExclusionMatcher = (pathOrWorkspace: string | null | undefined) => boolean;

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
 * Exclusions are absolute paths (a folder excludes everything under it; a workspace path excludes
 * its conversations) or globs with `*`, `**` and `?` matched against file paths and workspaces.
 */
export function createExclusionMatcher(patterns: readonly string[]): ExclusionMatcher {
  const prefixes: string[] = [];
  const globs: RegExp[] = [];
  for (const raw of patterns) {
    const p = raw.trim().replace(/\/+$/, '');
    if (!p) continue;
    if (/[*?]/.test(p)) globs.push(globToRegExp(p));
    else prefixes.push(p);
  }
  if (!prefixes.length && !globs.length) return () => false;
  return (value) => {
    if (!value) return false;
    for (const p of prefixes) if (value === p || value.startsWith(p + '/')) return true;
    return globs.some((g) => g.test(value));
  };
}
