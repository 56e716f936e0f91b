// `throughline forget CONVERSATION|WORKSPACE`: removes it from the index and keeps it out.
import { createForgetter, type Forgotten } from '../store/forget.js';
import { createReader } from '../store/read.js';
import { writeTransaction } from '../store/write-lock.js';
import { createSettingsStore, defaultSettingsPath } from '../settings.js';
import { CliError, openIndex, parseFlags, printJson, UsageError, type CliIO, type Command } from './command.js';

export const forgetCommand: Command = {
  name: 'forget',
  summary: 'remove a conversation or a whole workspace from the index, and keep it out',
  help: `Usage: throughline forget [--db FILE] [--json] CONVERSATION|WORKSPACE

CONVERSATION is a conversation id, an agent's session id or a session file path; WORKSPACE is a
workspace path. Its conversations (and their sub-agents) are deleted from the index, and the session
file or workspace is added to the exclusions in settings so the next scan does not bring it back.
The agents' own files are never touched.
`,
  async run(args: string[], io: CliIO): Promise<number> {
    const { values, positionals } = parseFlags(args, {});
    if (positionals.length !== 1) throw new UsageError('forget takes exactly one CONVERSATION or WORKSPACE');
    const target = positionals[0]!;
    const db = openIndex(values, io.env);
    try {
      const reader = createReader(db);
      const forgetter = createForgetter(db);
      const conversation = reader.conversation(target);
      const workspaceIds = db.prepare('SELECT id FROM conversations WHERE workspace = ? AND parent_id IS NULL').pluck().all(target) as number[];
      let exclusion: string;
      let result: Forgotten = { conversations: [], entries: 0 };
      if (workspaceIds.length) {
        exclusion = target;
        // IMMEDIATE: forgetting reads before it deletes (see write-lock.ts).
        writeTransaction(db, () => {
          for (const id of workspaceIds) result = forgetter.forget(id, result);
        })();
      } else if (conversation) {
        exclusion = conversation.path;
        writeTransaction(db, () => {
          result = forgetter.forget(conversation.id, result);
        })();
      } else {
        throw new CliError('not-found', `no conversation or workspace "${target}" in the index`);
      }
      const settings = createSettingsStore(defaultSettingsPath(io.env));
      const exclusions = settings.get().exclusions;
      if (!exclusions.includes(exclusion)) settings.set({ exclusions: [...exclusions, exclusion] });
      if (values.json) printJson(io, { removed: result, excluded: exclusion });
      else {
        io.out(`Removed ${result.conversations.length} conversations and ${result.entries} entries:\n`);
        for (const c of result.conversations) io.out(`  ${c.id}  ${c.title}  (${c.workspace ?? 'no workspace'})\n`);
        io.out(`Added ${exclusion} to the exclusions in ${settings.file}, so it is not indexed again.\n`);
      }
      return 0;
    } finally {
      db.close();
    }
  },
};
