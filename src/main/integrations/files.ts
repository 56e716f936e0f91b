// Editing another program's config files safely: refuse what we cannot parse, back up before any
// change, write atomically (a crash never leaves half a file), keep the file's mode.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { packageRoot } from '../package-root.js';
import { defaultDbPath, defaultSettingsPath, defaultSocketPath } from '../paths-light.js';
import { KindError } from '../../shared/errors.js';
import type { InstallReport } from '../../shared/api.js';

export class InstallError extends KindError<'unreadable' | 'conflict' | 'missing'> {}

/** What install/uninstall did (or, with dryRun, would do): the api's answer, less the integration's state. */
export type { InstallReport };

export const emptyReport = (dryRun = false): InstallReport => ({ changed: [], unchanged: [], backups: [], notes: [], dryRun, diffs: [] });

/** How another program starts Throughline. */
export interface Launch {
  command: string;
  args: string[];
}

/** What every installer takes. */
export interface InstallOptions {
  env?: NodeJS.ProcessEnv;
  /** The command that starts Throughline (default: the launcher, see launcher.ts). */
  command?: Launch;
  /** Say what would change; write nothing. */
  dryRun?: boolean;
}

/** Whether what `install` adds is there now: all of it, some of it, or none; and the files it lives in. */
export interface InstallState {
  state: 'installed' | 'partial' | 'absent';
  files: string[];
}

export function stateOf(found: boolean[], files: string[]): InstallState {
  const n = found.filter(Boolean).length;
  return { state: n === 0 ? 'absent' : n === found.length ? 'installed' : 'partial', files };
}

export function home(env: NodeJS.ProcessEnv): string {
  return env.HOME || os.homedir();
}

function stamp(): string {
  return new Date().toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');
}

/** Copies `file` beside itself as `FILE.throughline-backup-YYYYMMDDTHHMMSSZ`; null when there was no file. */
export function backupFile(file: string): string | null {
  if (!fs.existsSync(file)) return null;
  let target = `${file}.throughline-backup-${stamp()}`;
  for (let i = 1; fs.existsSync(target); i++) target = `${file}.throughline-backup-${stamp()}-${i}`;
  fs.copyFileSync(file, target);
  fs.chmodSync(target, fs.statSync(file).mode & 0o777);
  return target;
}

export function writeFileAtomic(file: string, text: string, defaultMode = 0o600): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  let mode = defaultMode;
  try {
    mode = fs.statSync(file).mode & 0o777;
  } catch {
    // new file
  }
  const tmp = `${file}.${process.pid}.throughline-tmp`;
  fs.writeFileSync(tmp, text, { mode });
  fs.renameSync(tmp, file);
}

export function readText(file: string): string | undefined {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new InstallError('unreadable', `Cannot read ${file}: ${(err as Error).message}`);
  }
}

export type JsonObject = Record<string, unknown>;

export function readJsonObject(file: string): JsonObject | undefined {
  const text = readText(file);
  if (text === undefined || !text.trim()) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new InstallError('unreadable', `${file} is not valid JSON (${(err as Error).message}); fix it by hand, then run this again. Nothing was changed.`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new InstallError('unreadable', `${file} does not hold a JSON object; nothing was changed.`);
  }
  return value as JsonObject;
}

/** Writes `next` when it differs from what is there, after a backup; records what happened. */
export function updateFile(file: string, before: string | undefined, next: string, report: InstallReport, mode?: number): void {
  if (before === next) {
    report.unchanged.push(file);
    return;
  }
  report.changed.push(file);
  if (report.dryRun) {
    report.diffs.push({ file, diff: lineDiff(before ?? '', next) });
    return;
  }
  const backup = backupFile(file);
  if (backup) report.backups.push(backup);
  writeFileAtomic(file, next, mode);
  if (mode !== undefined) fs.chmodSync(file, mode);
}

/** Removes a file (after a backup when `keepCopy`), or says it would. */
export function removeFile(file: string, report: InstallReport, keepCopy: boolean): void {
  report.changed.push(file);
  if (report.dryRun) {
    report.diffs.push({ file, diff: '(the file would be removed)' });
    return;
  }
  if (keepCopy) {
    const backup = backupFile(file);
    if (backup) report.backups.push(backup);
  }
  fs.rmSync(file);
}

/** The changed middle of two texts, as `-`/`+` lines: what a dry run shows a person. */
export function lineDiff(before: string, after: string): string {
  const a = before ? before.split('\n') : [];
  const b = after ? after.split('\n') : [];
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) endA--, endB--;
  const out = [`@@ line ${start + 1} @@`];
  for (const l of a.slice(start, endA)) out.push(`- ${l}`);
  for (const l of b.slice(start, endB)) out.push(`+ ${l}`);
  return out.join('\n');
}

/** `$THROUGHLINE_COMMAND` split into words, when set: how agents should start Throughline instead of the launcher. */
export function commandOverride(env: NodeJS.ProcessEnv): Launch | null {
  const words = (env.THROUGHLINE_COMMAND ?? '').split(' ').filter(Boolean);
  return words.length ? { command: words[0]!, args: words.slice(1) } : null;
}

/** Quotes for a POSIX shell: Claude Code runs hook commands through one. */
export function shellQuote(s: string): string {
  return /^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

export { packageRoot };

/**
 * The socket, index and settings this shell resolves, for an MCP server's `env`. Agents start MCP
 * servers with a trimmed environment (Codex keeps only HOME, PATH, USER and a few more), in which
 * XDG_RUNTIME_DIR, XDG_DATA_HOME, XDG_CONFIG_HOME and THROUGHLINE_* are gone: pinned, the server
 * finds the same daemon and index as the person's shell. Install again after moving them.
 */
export function pinnedEnv(env: NodeJS.ProcessEnv): Record<string, string> {
  return {
    THROUGHLINE_SOCKET: path.resolve(defaultSocketPath(env)),
    THROUGHLINE_DB: path.resolve(defaultDbPath(env)),
    THROUGHLINE_SETTINGS: path.resolve(defaultSettingsPath(env)),
  };
}
