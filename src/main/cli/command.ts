// What every CLI command is, and the helpers they share.
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { defaultDbPath, openDb, type Db } from '../store/db.js';

export interface CliIO {
  out: (text: string) => void;
  err: (text: string) => void;
  isTTY: boolean;
  env: NodeJS.ProcessEnv;
}

export interface Command {
  name: string;
  summary: string;
  /** Full help text, printed by `throughline NAME --help`. */
  help: string;
  run(args: string[], io: CliIO): Promise<number>;
}

/** A usage error: printed with the command's help hint, exit code 2. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

type Options = NonNullable<ParseArgsConfig['options']>;

export const COMMON_OPTIONS = {
  db: { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const satisfies Options;

/** Parses flags strictly; `--` ends the options, so a query may start with `-`. */
export function parseFlags<O extends Options>(args: string[], options: O) {
  try {
    return parseArgs({ args, options: { ...COMMON_OPTIONS, ...options }, allowPositionals: true, strict: true });
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
}

export function dbPathFrom(values: { db?: string | boolean }, env: NodeJS.ProcessEnv): string {
  return typeof values.db === 'string' ? values.db : defaultDbPath(env);
}

export function openIndex(values: { db?: string | boolean }, env: NodeJS.ProcessEnv, readonly = false): Db {
  return openDb(dbPathFrom(values, env), { readonly });
}

export function intFlag(value: string | boolean | undefined, name: string, min: number, max: number): number | undefined {
  if (value === undefined || typeof value === 'boolean') return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min || n > max) throw new UsageError(`--${name} takes a whole number from ${min} to ${max}`);
  return n;
}

export function printJson(io: CliIO, value: unknown): void {
  io.out(JSON.stringify(value) + '\n');
}
