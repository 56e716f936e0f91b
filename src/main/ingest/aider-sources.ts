// Where Aider's chat histories are: Aider writes `.aider.chat.history.md` into the repository it runs
// in (its git root, else the folder it was started in), so there is no one folder to read. They are
// looked for in the workspaces the index already knows (any agent's conversations', Aider's own
// included), in each workspace and its parent folders up to its git root; folders added as `aider`
// sources are walked for them too (scan.ts, with the adapter's skipFolder).
import fs from 'node:fs';
import path from 'node:path';
import type { ReadableDb } from '../store/db.js';
import { indexedWorkspaces } from '../store/workspace-roots.js';
import { AIDER_HISTORY, historyOverride } from './adapters/aider.js';
import type { Source } from './scan.js';

/** How far up from a workspace its repository's root is looked for. */
const MAX_UP = 8;

function exists(p: string): boolean {
  try {
    fs.statSync(p);
    return true;
  } catch {
    return false;
  }
}

/** The history files of one workspace: in it and in the folders above it, up to its git root. */
export function historiesOf(workspace: string, names: readonly string[] = [AIDER_HISTORY]): string[] {
  const out: string[] = [];
  let dir = path.resolve(workspace);
  for (let up = 0; up <= MAX_UP; up++) {
    for (const name of names) {
      const file = path.join(dir, name);
      if (exists(file)) out.push(file);
    }
    // Aider writes at the git root: folders above a repository are not its.
    if (exists(path.join(dir, '.git'))) break;
    const parent = path.dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  return out;
}

/**
 * Aider's history files in the workspaces the index knows, as sources (one file each); a relative
 * AIDER_CHAT_HISTORY_FILE is looked for there too.
 */
export function aiderSources(db: ReadableDb, env: NodeJS.ProcessEnv): Source[] {
  const override = historyOverride(env);
  const names = override && !path.isAbsolute(override) ? [AIDER_HISTORY, override] : [AIDER_HISTORY];
  const workspaces = indexedWorkspaces(db);
  const files = new Set<string>();
  // Only absolute paths of this machine: a workspace read from another machine's files names nothing here.
  for (const w of workspaces) if (path.isAbsolute(w) && exists(w)) for (const f of historiesOf(w, names)) files.add(f);
  return [...files].sort().map((root) => ({ kind: 'aider', root }));
}
