// `throughline history search|read|handoff`: the history tools for one conversation, from a shell.
import type { HistoryReadParams } from '../../shared/api.js';
import { intFlag, parseFlags, printJson, UsageError, type Command } from './command.js';
import { createHuman, forPerson } from './human.js';
import { historyReadForPerson, historySearchForPerson } from './human-history.js';
import { withCore } from './core-session.js';

const SUBCOMMANDS: [string, string][] = [
  ['search', 'search the conversation’s entries before its context boundary'],
  ['read', 'read entries: --items, a range (--from/--to, --cursor) or --tail'],
  ['handoff', 'start the agent’s context afresh from a note (TEXT), keeping what came before searchable'],
];

export const historyCommand: Command = {
  name: 'history',
  summary: 'search and read one conversation’s earlier entries; hand off (history_*)',
  help: `Usage: throughline history search --conversation REF [--before N] [--limit N] -- QUERY
       throughline history read --conversation REF --items 3,7 [--around N]
       throughline history read --conversation REF --from N [--to M] [--limit N] [--cursor C]
       throughline history read --conversation REF --tail [--count N]
       throughline history handoff --conversation REF -- TEXT

REF is the conversation (id, session id or session file). Search looks before the current context
boundary (the latest compaction's first kept entry, or the latest handoff) unless --before is given;
tail reads the entries right before it. Output is quoted material, at most 50 KB.
  --db FILE   the index;  --json  print the result object
`,
  async run(args, io) {
    const { values, positionals } = parseFlags(args, {
      conversation: { type: 'string' },
      before: { type: 'string' },
      limit: { type: 'string' },
      items: { type: 'string' },
      around: { type: 'string' },
      from: { type: 'string' },
      to: { type: 'string' },
      cursor: { type: 'string' },
      tail: { type: 'boolean' },
      count: { type: 'string' },
    });
    const [sub, ...rest] = positionals;
    if (!sub || !SUBCOMMANDS.some(([name]) => name === sub)) {
      const what = sub ? `unknown subcommand "${sub}"` : 'which one?';
      if (values.json) throw new UsageError(`history takes one of ${SUBCOMMANDS.map(([n]) => n).join(', ')} (${what})`, { subcommands: SUBCOMMANDS.map(([n]) => n) });
      const width = Math.max(...SUBCOMMANDS.map(([n]) => n.length));
      io.err(`throughline history: ${what}\n${SUBCOMMANDS.map(([n, d]) => `  ${n.padEnd(width)}  ${d}`).join('\n')}\nRun \`throughline history --help\` for their options.\n`);
      return 2;
    }
    const conversation = values.conversation;
    if (!conversation) throw new UsageError(`history ${sub} needs --conversation REF`);
    const MAX = Number.MAX_SAFE_INTEGER;
    if (sub === 'search') {
      const query = rest.join(' ').trim();
      if (!query) throw new UsageError('QUERY is missing (put it after --)');
      const before = intFlag(values.before, 'before', 0, MAX);
      const limit = intFlag(values.limit, 'limit', 1, 20);
      return withCore(values, io, async ({ call, core }) => {
        const r = await call('history_search', { conversation, query, before, limit });
        if (values.json) printJson(io, r);
        else if (forPerson(io, values.json)) {
          const human = createHuman(io, core, query);
          human.write(historySearchForPerson(human, conversation, query, before, r));
        } else io.out(r.text + '\n');
        return 0;
      });
    }
    if (sub === 'read') {
      let params: HistoryReadParams;
      if (values.items !== undefined) {
        const entries = values.items.split(',').map((s) => Number(s.trim()));
        if (entries.some((n) => !Number.isInteger(n) || n < 0)) throw new UsageError('--items takes entry numbers, e.g. 3,7,12');
        params = { conversation, mode: 'items', entries, around: intFlag(values.around, 'around', 0, 5) };
      } else if (values.from !== undefined || values.cursor !== undefined) {
        params = {
          conversation,
          mode: 'range',
          from: intFlag(values.from, 'from', 0, MAX) ?? 0,
          to: intFlag(values.to, 'to', 0, MAX),
          limit: intFlag(values.limit, 'limit', 1, 50),
          cursor: values.cursor,
        };
      } else if (values.tail) {
        params = { conversation, mode: 'tail', count: intFlag(values.count, 'count', 1, 20) };
      } else throw new UsageError('history read takes --items, --from (or --cursor), or --tail');
      return withCore(values, io, async ({ call }) => {
        const r = await call('history_read', params);
        if (values.json) printJson(io, r);
        else if (forPerson(io, values.json)) {
          const human = createHuman(io, null);
          human.write(historyReadForPerson(human, conversation, r));
        } else io.out(r.text + '\n');
        return 0;
      });
    }
    if (sub === 'handoff') {
      const text = rest.join(' ').trim();
      if (!text) throw new UsageError('TEXT is missing (put it after --)');
      return withCore(
        values,
        io,
        async ({ call }) => {
          const r = await call('history_handoff', { conversation, text });
          if (values.json) printJson(io, r);
          else io.out(`${r.text}\n`);
          return 0;
        },
        { write: true },
      );
    }
    throw new UsageError(`unknown subcommand "${sub}"`);
  },
};
