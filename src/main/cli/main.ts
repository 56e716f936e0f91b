// `throughline COMMAND ...`: dispatches to the commands, turns errors into messages and exit codes.
import { StoreError } from '../store/db.js';
import { UsageError, type CliIO, type Command } from './command.js';
import { indexCommand, statsCommand } from './index-commands.js';
import { agentCommands } from './agent-commands.js';
import { forgetCommand } from './privacy-commands.js';
import { recallCommands } from './recall-commands.js';

const COMMANDS: Command[] = [indexCommand, statsCommand, ...recallCommands, forgetCommand, ...agentCommands];

function usage(): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.length));
  return (
    'Usage: throughline COMMAND [options]\n\nCommands:\n' +
    COMMANDS.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`).join('\n') +
    '\n\nRun `throughline COMMAND --help` for a command’s options.\n'
  );
}

export async function main(argv: string[], io: CliIO = processIO()): Promise<number> {
  const [name, ...args] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    io.out(usage());
    return name ? 0 : 2;
  }
  const command = COMMANDS.find((c) => c.name === name);
  if (!command) {
    io.err(`throughline: unknown command "${name}"\n\n${usage()}`);
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
  try {
    return await command.run(args, io);
  } catch (err) {
    if (err instanceof UsageError) {
      io.err(`throughline ${name}: ${err.message}\nRun \`throughline ${name} --help\` for usage.\n`);
      return 2;
    }
    if (err instanceof StoreError) {
      io.err(`throughline ${name}: ${err.message}\n`);
      return 1;
    }
    io.err(`throughline ${name}: ${(err as Error).stack ?? String(err)}\n`);
    return 1;
  }
}

function processIO(): CliIO {
  return {
    out: (t) => process.stdout.write(t),
    err: (t) => process.stderr.write(t),
    isTTY: Boolean(process.stderr.isTTY),
    env: process.env,
  };
}
