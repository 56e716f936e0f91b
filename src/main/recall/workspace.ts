// "This workspace only" means the repository (personal-recall-plugin.md's workspace; the
// suggested-context seed's "Same workspace/repo"): the root of the caller's git repository, or the
// agent's recorded project root, and every folder under it. From /repo/src an agent finds the
// conversations held in /repo and in /repo/web alike, and they get the workspace signal.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { normalizeFolder } from '../store/workspace-roots.js';

/** The folder and each folder above it, nearest first. */
export function foldersUp(p: string): string[] {
  const out: string[] = [];
  for (let dir = normalizeFolder(p); ; ) {
    out.push(dir);
    const parent = path.dirname(dir);
    if (parent === dir) return out;
    dir = parent;
  }
}

/**
 * A home folder or anything above it is never a project root: a dotfiles repository in ~ (or an
 * agent started in ~) would otherwise make every project of the user one workspace.
 */
export function tooBroad(dir: string, home: string = os.homedir()): boolean {
  const d = normalizeFolder(dir);
  const h = normalizeFolder(home);
  if (path.dirname(d) === d) return true;
  if (h === d || h.startsWith(d.endsWith('/') ? d : `${d}/`)) return true;
  // Home folders recorded on other machines (an index can hold conversations from several).
  return /^\/(Users|home)\/[^/]+$/.test(d) || /^\/(Users|home|root)$/.test(d) || /^[A-Za-z]:\\Users(\\[^\\]+)?$/.test(d);
}

export interface ResolveOptions {
  /** Which of these folders are workspaces of indexed conversations (store/workspace-roots.ts). */
  known: (candidates: readonly string[]) => string[];
  /** Whether `dir/.git` exists (a folder, or a file in a worktree or submodule). */
  hasGit?: (dir: string) => boolean;
  home?: string;
}

const gitOnDisk = (dir: string): boolean => {
  try {
    fs.statSync(path.join(dir, '.git'));
    return true;
  } catch {
    return false;
  }
};

/**
 * The workspace root for a caller's folder: the nearest enclosing git repository on this disk; else
 * (a folder of another machine, or no repository) the highest enclosing folder some indexed
 * conversation was recorded in; else the folder itself. Never a home folder or above.
 */
export function workspaceRoot(folder: string, options: ResolveOptions): string {
  const dir = normalizeFolder(folder);
  const home = options.home ?? os.homedir();
  const up = foldersUp(dir).filter((d) => !tooBroad(d, home));
  const hasGit = options.hasGit ?? gitOnDisk;
  const repo = up.find(hasGit);
  if (repo) return repo;
  const recorded = options.known(up);
  return recorded.at(-1) ?? dir;
}

/** Whether a conversation's workspace is the root or lies under it. */
export function underRoot(workspace: string | null | undefined, root: string | null | undefined): boolean {
  if (!workspace || !root) return false;
  const w = normalizeFolder(workspace);
  const r = normalizeFolder(root);
  return w === r || w.startsWith(r.endsWith('/') || r.endsWith('\\') ? r : `${r}/`) || w.startsWith(`${r}\\`);
}
