// `throughline forget` and `throughline exclude`: remove from the index and keep out, in one step.
import path from 'node:path';
import type { ExclusionAddResult } from '../../shared/api.js';
import { isPattern } from '../api/forget.js';
import { createSettingsStore, defaultSettingsPath } from '../settings.js';
import { CliError, parseFlags, printJson, UsageError, type CliIO, type Command } from './command.js';
import { withCore } from './core-session.js';

/** A relative path on the command line means a file or folder from here, as in any command. */
function absoluteTarget(target: string): string {
  return !isPattern(target) && (target.startsWith('./') || target.startsWith('../') || target.includes(path.sep)) ? path.resolve(target) : target;
}

/** Adds the exclusion and removes (or, with keepIndexed, keeps) what it covers: the api's exclusions.add, as Settings does it. */
function excludeAndForget(values: { db?: string | boolean }, io: CliIO, pattern: string, keepIndexed: boolean): Promise<ExclusionAddResult> {
  return withCore(values, io, ({ call }) => call('exclusions.add', { pattern, keepIndexed }), { write: true });
}

function report(io: CliIO, r: ExclusionAddResult, file: string): void {
  const n = r.removed.conversations.length;
  if (n) {
    io.out(`Removed ${n} conversation(s) and ${r.removed.entries} entries from the index:\n`);
    for (const c of r.removed.conversations) io.out(`  ${c.id}  ${c.title || 'Untitled conversation'}  (${c.workspace ?? 'no workspace'})\n`);
  } else if (r.kept) io.out(`Kept the ${r.kept} conversation(s) already indexed from it; nothing new is added to them.\n`);
  else io.out('Nothing in the index matched it.\n');
  io.out(`Added ${r.exclusion} to the exclusions in ${file}, so it is not indexed again until you remove it.\n`);
}

export const forgetCommand: Command = {
  name: 'forget',
  summary: 'remove a conversation, session file or workspace from the index, and keep it out',
  help: `Usage: throughline forget [--db FILE] [--json] CONVERSATION|PATH

CONVERSATION is a conversation id, an agent's session id or an import id; PATH is a session file, a
folder or a workspace (an absolute path, or a glob such as /home/you/clients/**). Its conversations
(and their sub-agents) are deleted from the index and from the index's files, and an exclusion goes
into settings so that nothing brings them back: not the file growing, not a copy of it, not an agent
pushing it again, not --rebuild. A conversation is excluded as session:ID. Remove the exclusion
(\`throughline exclude --remove\`, or Settings) to let it be indexed again.
The agents' own files are never touched.
`,
  async run(args: string[], io: CliIO): Promise<number> {
    const { values, positionals } = parseFlags(args, {});
    if (positionals.length !== 1) throw new UsageError('forget takes exactly one CONVERSATION or PATH');
    const result = await excludeAndForget(values, io, absoluteTarget(positionals[0]!), false);
    if (values.json) printJson(io, { removed: result.removed, excluded: result.exclusion });
    else report(io, result, defaultSettingsPath(io.env));
    return 0;
  },
};

export const excludeCommand: Command = {
  name: 'exclude',
  summary: 'list, add or remove exclusions (what is never indexed)',
  help: `Usage: throughline exclude [--db FILE] [--json] [--keep-indexed] PATTERN
       throughline exclude [--json] --remove PATTERN
       throughline exclude [--json]

PATTERN is a folder, a session file or a workspace (an absolute path), a glob (/home/you/clients/**)
or session:ID. Adding one also removes what it covers from the index now, as \`forget\` does;
  --keep-indexed  keep what is already indexed (nothing new is added to it)
  --remove        stop excluding PATTERN: what it kept out is indexed again from the agents' files
Without a PATTERN, lists the exclusions.
`,
  async run(args: string[], io: CliIO): Promise<number> {
    const { values, positionals } = parseFlags(args, { remove: { type: 'string' }, 'keep-indexed': { type: 'boolean' } });
    const settings = createSettingsStore(defaultSettingsPath(io.env));
    if (typeof values.remove === 'string') {
      if (positionals.length) throw new UsageError('--remove takes the one PATTERN to remove');
      const current = settings.get().exclusions;
      const pattern = absoluteTarget(values.remove);
      if (!current.includes(pattern)) throw new CliError('not-found', `${pattern} is not among the exclusions in ${settings.file}`);
      // Lifting happens where the index is written next (the daemon, or the next `index` run).
      settings.set({ exclusions: current.filter((p) => p !== pattern) });
      if (values.json) printJson(io, { removed: pattern });
      else io.out(`Removed ${pattern} from the exclusions; the next index run (or the running app) indexes it again.\n`);
      return 0;
    }
    if (!positionals.length) {
      const list = settings.get().exclusions;
      if (values.json) printJson(io, { exclusions: list });
      else io.out(list.length ? list.map((p) => `${p}\n`).join('') : `No exclusions in ${settings.file}.\n`);
      return 0;
    }
    if (positionals.length !== 1) throw new UsageError('exclude takes one PATTERN');
    const target = absoluteTarget(positionals[0]!);
    if (!isPattern(target)) throw new UsageError(`${target} is not a path, a glob or session:ID; to forget a conversation by id use \`throughline forget\``);
    const result = await excludeAndForget(values, io, target, values['keep-indexed'] === true);
    if (values.json) printJson(io, result);
    else report(io, result, settings.file);
    return 0;
  },
};
