// `throughline COMMAND ...`: dispatches to the commands, turns errors into messages and exit codes.
import fs from 'node:fs';
import path from 'node:path';
import { packageRoot } from '../package-root.js';
import { ApiError } from '../api/dispatch.js';
import { CliError, type CliIO, type Command } from './command.js';
import { cliErrorOf } from './core-session.js';
import { indexCommand, statsCommand } from './index-commands.js';
import { agentCommands } from './agent-commands.js';
import { excludeCommand, forgetCommand } from './privacy-commands.js';
import { recallCommands } from './recall-commands.js';
import { escapeControls } from './terminal.js';

const COMMANDS: Command[] = [indexCommand, statsCommand, ...recallCommands, forgetCommand, excludeCommand, ...agentCommands];

function usage(): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.length));
  return (
    'Usage: throughline COMMAND [options]\n\nCommands:\n' +
    COMMANDS.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`).join('\n') +
    '\n\nRun `throughline COMMAND --help` for a command’s options, `throughline --version` for the version.\n'
  );
}

export function version(): string {
  return (JSON.parse(fs.readFileSync(path.join(packageRoot(), 'package.json'), 'utf8')) as { version: string }).version;
}

/** `--json` among the options (not after `--`, where it would be part of a query). */
function wantsJson(args: string[]): boolean {
  const end = args.indexOf('--');
  return (end < 0 ? args : args.slice(0, end)).includes('--json');
}

export async function main(argv: string[], io: CliIO = processIO()): Promise<number> {
  const [name, ...args] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    io.out(usage());
    return name ? 0 : 2;
  }
  if (name === '--version') {
    io.out(`throughline ${version()}\n`);
    return 0;
  }
  const json = wantsJson(args);
  const command = COMMANDS.find((c) => c.name === name);
  if (!command) {
    if (json) return fail(io, null, true, new CliError('usage', `unknown command "${name}"`, 2, { commands: COMMANDS.map((c) => c.name) }));
    io.err(escapeControls(`throughline: unknown command "${name}"\n\n`) + usage());
    return 2;
  }
  if (args.includes('--help') || args.includes('-h')) {
    const dashdash = args.indexOf('--');
    const helpAt = Math.max(args.indexOf('--help'), args.indexOf('-h'));
    if (dashdash < 0 || helpAt < dashdash) {
      io.out(command.help);
      return 0;
    }
  }
  // Everything a command writes as text has its control characters escaped (transcripts, titles,
  // workspaces and client names are data from elsewhere); JSON and pre-escaped text use io.raw.
  const safe: CliIO = {
    ...io,
    out: (t) => io.out(escapeControls(t)),
    err: (t) => io.err(escapeControls(t)),
    raw: io.raw ?? { out: io.out, err: io.err },
  };
  try {
    return await command.run(args, safe);
  } catch (err) {
    return fail(io, name, json, err);
  }
}

/** Reports an error as one line naming the command (or one JSON object on stderr), returns the exit code. */
function fail(io: CliIO, name: string | null, json: boolean, err: unknown): number {
  const known = err instanceof CliError ? err : err instanceof ApiError ? cliErrorOf(err) : null;
  // An internal error of no known kind is reported as what it was, with its own stack.
  if (!known && err instanceof ApiError && err.cause !== undefined) err = err.cause;
  const prefix = name ? `throughline ${name}` : 'throughline';
  if (json) {
    const e = known ?? new CliError('internal', (err as Error)?.message ?? String(err), 1);
    io.err(JSON.stringify({ error: { command: name, kind: e.kind, message: e.message, ...e.data } }) + '\n');
    return e.exitCode;
  }
  if (!known) {
    io.err(escapeControls(`${prefix}: ${(err as Error)?.stack ?? String(err)}`) + '\n');
    return 1;
  }
  const hint = known.kind === 'usage' && name ? ` (see \`throughline ${name} --help\`)` : '';
  io.err(escapeControls(`${prefix}: ${known.message}`) + hint + '\n');
  return known.exitCode;
}

/** A reader that went away (`| head -1`, `| true`) ends the command quietly: nothing more to say. */
function quietOnClosedPipe(stream: NodeJS.WriteStream): void {
  stream.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') process.exit(0);
    throw err;
  });
}

function processIO(): CliIO {
  quietOnClosedPipe(process.stdout);
  quietOnClosedPipe(process.stderr);
  return {
    out: (t) => void process.stdout.write(t),
    err: (t) => void process.stderr.write(t),
    isTTY: Boolean(process.stderr.isTTY),
    outTTY: Boolean(process.stdout.isTTY),
    columns: process.stdout.columns,
    env: process.env,
  };
}
