// What every CLI command is, and the helpers they share.
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { defaultDbPath } from '../paths-light.js';
import { KindError } from '../../shared/errors.js';

export interface CliIO {
  /** Writes to stdout. Through main(), control characters in it are escaped (see terminal.ts). */
  out: (text: string) => void;
  err: (text: string) => void;
  /** stderr is a terminal: progress lines. */
  isTTY: boolean;
  /** stdout is a terminal: output for a person rather than the agents' text. */
  outTTY?: boolean;
  /** The terminal's width in columns, when stdout is one. */
  columns?: number;
  env: NodeJS.ProcessEnv;
  /** The unescaped writers, for JSON (already escaped its own way) and for text escaped piece by piece. */
  raw?: { out: (text: string) => void; err: (text: string) => void };
}

export interface Command {
  name: string;
  summary: string;
  /** Full help text, printed by `throughline NAME --help`. */
  help: string;
  run(args: string[], io: CliIO): Promise<number>;
}

/** An error the CLI reports as one line (or one JSON object with --json), with an exit code. */
export class CliError extends KindError {
  constructor(
    kind: string,
    message: string,
    readonly exitCode = 1,
    /** Extra fields for the JSON form. */
    readonly data?: Record<string, unknown>,
  ) {
    super(kind, message);
  }
}

/** A usage error: printed with the command's help hint, exit code 2. */
export class UsageError extends CliError {
  constructor(message: string, data?: Record<string, unknown>) {
    super('usage', message, 2, data);
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
  const all = { ...COMMON_OPTIONS, ...options };
  try {
    return parseArgs({ args, options: all, allowPositionals: true, strict: true });
  } catch (err) {
    throw new UsageError(flagProblem(err as Error & { code?: string }, Object.keys(all)));
  }
}

/** Node's parseArgs messages, as one line that names the option and what would be right. */
function flagProblem(err: Error & { code?: string }, names: string[]): string {
  const option = /'(-{1,2}[^'\s<=]+)/.exec(err.message)?.[1] ?? '';
  if (err.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
    const known = names.filter((n) => n !== 'help').map((n) => `--${n}`);
    return `unknown option ${option}; the options are ${known.join(', ')} (text that starts with - goes after --)`;
  }
  if (err.code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') {
    if (/does not take an argument/.test(err.message)) return `${option} takes no value`;
    if (/ambiguous/.test(err.message)) return `${option} needs a value (for one that starts with -, write ${option}=-VALUE)`;
    return `${option} needs a value`;
  }
  return err.message.split('\n')[0]!;
}

export function dbPathFrom(values: { db?: string | boolean }, env: NodeJS.ProcessEnv): string {
  return typeof values.db === 'string' ? values.db : defaultDbPath(env);
}

export function intFlag(value: string | boolean | undefined, name: string, min: number, max: number): number | undefined {
  if (value === undefined || typeof value === 'boolean') return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min || n > max) throw new UsageError(`--${name} takes a whole number from ${min} to ${max}`);
  return n;
}

/** JSON escapes C0 itself and stays exactly as programs expect: written unescaped. */
export function printJson(io: CliIO, value: unknown): void {
  rawOut(io)(JSON.stringify(value) + '\n');
}

export function rawOut(io: CliIO): (text: string) => void {
  return io.raw?.out ?? io.out;
}

export function rawErr(io: CliIO): (text: string) => void {
  return io.raw?.err ?? io.err;
}
