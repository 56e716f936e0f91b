// Which Codex session an MCP server was started for. Codex gives its MCP servers neither the
// thread id ($CODEX_THREAD_ID reaches only the shell tool) nor the session file, so the history
// tools would not know their own conversation. The session is found the way a person would: the
// newest rollout in $CODEX_HOME/sessions whose recorded cwd is the folder Codex runs in. Read from
// Codex's own files, not the index, so it works before the daemon has indexed the new session.
import fs from 'node:fs';
import path from 'node:path';
import { home } from './files.js';

/** How many of the newest rollout files are looked at; a person's current session is among them. */
const CANDIDATES = 40;
/** session_meta is the first line; its id and cwd come before the long instructions. */
const HEAD_BYTES = 16 * 1024;

export function codexSessionsDir(env: NodeJS.ProcessEnv): string {
  return path.join(env.CODEX_HOME || path.join(home(env), '.codex'), 'sessions');
}

function childrenDesc(dir: string): string[] {
  try {
    return fs
      .readdirSync(dir)
      .filter((n) => /^\d+$/.test(n))
      .sort((a, b) => Number(b) - Number(a));
  } catch {
    return [];
  }
}

/** The rollout files of the two most recent days that have any (YYYY/MM/DD folders), newest first. */
function recentRollouts(root: string): string[] {
  const days: string[] = [];
  outer: for (const y of childrenDesc(root)) {
    for (const m of childrenDesc(path.join(root, y))) {
      for (const d of childrenDesc(path.join(root, y, m))) {
        days.push(path.join(root, y, m, d));
        if (days.length === 2) break outer;
      }
    }
  }
  const files: { file: string; mtime: number }[] = [];
  for (const day of days) {
    for (const name of fs.readdirSync(day)) {
      if (!name.startsWith('rollout-') || !name.endsWith('.jsonl')) continue;
      const file = path.join(day, name);
      try {
        files.push({ file, mtime: fs.statSync(file).mtimeMs });
      } catch {
        // removed meanwhile
      }
    }
  }
  return files
    .sort((a, b) => b.mtime - a.mtime)
    .slice(0, CANDIDATES)
    .map((f) => f.file);
}

function readHead(file: string): string {
  const fd = fs.openSync(file, 'r');
  try {
    const buf = Buffer.alloc(HEAD_BYTES);
    const n = fs.readSync(fd, buf, 0, HEAD_BYTES, 0);
    return buf.subarray(0, n).toString('utf8');
  } finally {
    fs.closeSync(fd);
  }
}

const jsonString = (raw: string): string | null => {
  try {
    return JSON.parse(`"${raw}"`) as string;
  } catch {
    return null;
  }
};

/** The session id and cwd from a rollout's first line (session_meta), or null. */
export function rolloutMeta(file: string): { id: string; cwd: string } | null {
  const head = readHead(file);
  const first = head.split('\n', 1)[0] ?? '';
  if (!first.includes('"session_meta"')) return null;
  const id = /"payload"\s*:\s*\{\s*"id"\s*:\s*"((?:[^"\\]|\\.)*)"/.exec(first)?.[1];
  const cwd = /"cwd"\s*:\s*"((?:[^"\\]|\\.)*)"/.exec(first)?.[1];
  if (id === undefined || cwd === undefined) return null;
  const idText = jsonString(id);
  const cwdText = jsonString(cwd);
  return idText && cwdText ? { id: idText, cwd: cwdText } : null;
}

/** The id of the newest Codex session recorded in `cwd`, or null when there is none. */
export function latestCodexSession(cwd: string, env: NodeJS.ProcessEnv = process.env): string | null {
  const want = path.resolve(cwd);
  for (const file of recentRollouts(codexSessionsDir(env))) {
    try {
      const meta = rolloutMeta(file);
      if (meta && path.resolve(meta.cwd) === want) return meta.id;
    } catch {
      // unreadable: try the next
    }
  }
  return null;
}
