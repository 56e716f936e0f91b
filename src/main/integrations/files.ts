// Editing another program's config files safely: refuse what we cannot parse, back up before any
// change, write atomically (a crash never leaves half a file), keep the file's mode.
import fs from 'node:fs';
import os from 'node:os';
import { packageRoot } from '../package-root.js';
import path from 'node:path';

export class InstallError extends Error {
  constructor(
    readonly kind: 'unreadable' | 'conflict' | 'missing',
    message: string,
  ) {
    super(message);
    this.name = 'InstallError';
  }
}

/** What install/uninstall did, for the CLI to print. */
export interface InstallReport {
  changed: string[];
  unchanged: string[];
  backups: string[];
  notes: string[];
}

export const emptyReport = (): InstallReport => ({ changed: [], unchanged: [], backups: [], notes: [] });

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
export function updateFile(file: string, before: string | undefined, next: string, report: InstallReport): void {
  if (before === next) {
    report.unchanged.push(file);
    return;
  }
  const backup = backupFile(file);
  if (backup) report.backups.push(backup);
  writeFileAtomic(file, next);
  report.changed.push(file);
}


/** How another program starts Throughline: this Node and this checkout's CLI, by absolute path. */
export function throughlineCommand(env: NodeJS.ProcessEnv = process.env): { command: string; args: string[] } {
  if (env.THROUGHLINE_COMMAND) {
    const [command, ...args] = env.THROUGHLINE_COMMAND.split(' ').filter(Boolean);
    return { command: command!, args };
  }
  return { command: process.execPath, args: [path.join(packageRoot(), 'bin', 'throughline.mjs')] };
}

/** Quotes for a POSIX shell: Claude Code runs hook commands through one. */
export function shellQuote(s: string): string {
  return /^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

export { packageRoot };
