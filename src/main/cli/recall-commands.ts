// `throughline suggest | search | read | inspect | history`: the recall engine from a shell.
// `--json` prints the api result objects (the eval and scripts read them); off a terminal the agents'
// text (what the tools return); on a terminal, output for a person (human-recall.ts).
import { Scope, Sensitivity, StrategyName } from '../../shared/api.js';
import { formatSignals } from '../../shared/signals-text.js';
import { intFlag, parseFlags, printJson, type Command } from './command.js';
import { withCore } from './core-session.js';
import { createHuman, forPerson } from './human.js';
import { inspectForPerson, readForPerson, searchForPerson, suggestForPerson } from './human-recall.js';
import { historyCommand } from './recall-history.js';
import { DB_HELP, dateFlag, enumFlag, textOf } from './recall-shared.js';

export const suggestCommand: Command = {
  name: 'suggest',
  summary: 'what would be suggested to an agent for a message (pointer block, scores, signals)',
  help: `Usage: throughline suggest [options] -- TEXT

Scores past conversations against TEXT (a new conversation's first message) and prints the
suggestions and the exact pointer block an agent would get.
  --workspace PATH      the workspace the message is written in
  --scope S             workspace (only that workspace) or everywhere (default: settings)
  --sensitivity S       focused, balanced or broad (default: settings)
  --strategy NAME       default, signals (the suggested-context seed) or salient (the personal-recall seed)
  --now ISO             the clock for recency (reproducible scores)
  --conversation REF    the caller's own conversation, never suggested
  --listed REF          a conversation already listed in this chat (repeatable)
  --subagents           consider sub-agent conversations too
${DB_HELP}: {"suggestions", "block", "reason", …}
`,
  async run(args, io) {
    const { values, positionals } = parseFlags(args, {
      workspace: { type: 'string' },
      scope: { type: 'string' },
      sensitivity: { type: 'string' },
      strategy: { type: 'string' },
      now: { type: 'string' },
      conversation: { type: 'string' },
      listed: { type: 'string', multiple: true },
      subagents: { type: 'boolean' },
    });
    const text = textOf(positionals, 'TEXT');
    // An explicit request: autoRecall governs what is pushed to agents, not what a person asks for
    // (the CLI's core takes every call as the person's own).
    return withCore(values, io, async ({ call }) => {
      const r = await call('suggest', {
        text,
        workspace: values.workspace,
        scope: enumFlag(values.scope, 'scope', Scope.options),
        sensitivity: enumFlag(values.sensitivity, 'sensitivity', Sensitivity.options),
        strategy: enumFlag(values.strategy, 'strategy', StrategyName.options),
        now: dateFlag(values.now, 'now'),
        conversation: values.conversation,
        listed: values.listed,
        includeSubagents: values.subagents,
      });
      if (values.json) printJson(io, r);
      else if (forPerson(io, values.json)) {
        const human = createHuman(io, null);
        human.write(suggestForPerson(human, r));
      } else {
        io.out(`${r.strategy}, ${r.sensitivity}: ${r.reason}\n`);
        for (const s of r.suggestions) {
          io.out(`\n  ${s.score}  ${s.title}\n      id ${s.id}  ${s.source}  ${s.workspace ?? ''}\n      ${formatSignals(s.signals)}\n`);
        }
        if (r.block) io.out(`\n${r.block}\n`);
      }
      return 0;
    });
  },
};

export const searchCommand: Command = {
  name: 'search',
  summary: 'find past conversations by what they were about (recall_conversations)',
  help: `Usage: throughline search [options] -- QUERY

QUERY is a sentence or a few words. Conversations are ranked by relevance: rare words count most,
a word your history never uses matches its close meanings ("similar"), and a query that points back
("again", "last time") or names a period ("in June") favours recent work or that period. When no
conversation holds every word, the answer says it shows partial matches. A term with punctuation
(tx.draft) is a phrase, "…" is a phrase, term* a prefix.
  --limit N          1–50 (default 10)
  --workspace PATH   only this workspace (default: all)
  --since DATE       only conversations active since DATE
  --subagents        include sub-agent conversations
  --now ISO          the clock for recency (reproducible scores)
${DB_HELP}: {"hits", "more", "relaxed", …}
`,
  async run(args, io) {
    const { values, positionals } = parseFlags(args, {
      limit: { type: 'string' },
      workspace: { type: 'string' },
      since: { type: 'string' },
      subagents: { type: 'boolean' },
      now: { type: 'string' },
    });
    const query = textOf(positionals, 'QUERY');
    return withCore(values, io, async ({ call, core }) => {
      const r = await call('recall_conversations', {
        query,
        limit: intFlag(values.limit, 'limit', 1, 50),
        workspace: values.workspace ?? 'all',
        since: dateFlag(values.since, 'since'),
        includeSubagents: values.subagents,
        now: dateFlag(values.now, 'now'),
      });
      if (values.json) printJson(io, { hits: r.hits, more: r.more, relaxed: r.relaxed, note: r.note, truncated: r.truncated });
      else if (forPerson(io, values.json)) {
        const human = createHuman(io, core, query);
        human.write(searchForPerson(human, query, r));
      } else io.out(r.text + '\n');
      return 0;
    });
  },
};

export const readCommand: Command = {
  name: 'read',
  summary: 'read a past conversation’s turns (read_conversation)',
  help: `Usage: throughline read [options] CONVERSATION

CONVERSATION is an id, an agent's session id or a session file path.
  --turns N|N-M      only these turns (1-based)
  --detail D         summary (default; turns cut short) or full
${DB_HELP}
`,
  async run(args, io) {
    const { values, positionals } = parseFlags(args, { turns: { type: 'string' }, detail: { type: 'string' } });
    const ref = textOf(positionals, 'CONVERSATION');
    const detail = enumFlag(values.detail, 'detail', ['summary', 'full'] as const);
    return withCore(values, io, async ({ call }) => {
      const r = await call('read_conversation', { conversation_id: ref, turns: values.turns, detail });
      if (values.json) printJson(io, r);
      else if (forPerson(io, values.json)) {
        const human = createHuman(io, null);
        human.write(readForPerson(human, r, detail ?? 'summary'));
      } else io.out(r.text + '\n');
      return 0;
    });
  },
};

export const inspectCommand: Command = {
  name: 'inspect',
  summary: 'search inside one past conversation (conversation_inspect)',
  help: `Usage: throughline inspect [options] CONVERSATION

  --query Q          entries matching Q (every term, else any), with windows around them
  --role R           only user or assistant entries
  --around N         neighbours on each side of a match, 0–10 (default 1)
  --limit N          matches shown, 1–50 (default 10)
${DB_HELP}
`,
  async run(args, io) {
    const { values, positionals } = parseFlags(args, {
      query: { type: 'string' },
      role: { type: 'string' },
      around: { type: 'string' },
      limit: { type: 'string' },
    });
    const ref = textOf(positionals, 'CONVERSATION');
    return withCore(values, io, async ({ call, core }) => {
      const r = await call('conversation_inspect', {
        conversation_id: ref,
        query: values.query,
        role: enumFlag(values.role, 'role', ['user', 'assistant'] as const),
        around: intFlag(values.around, 'around', 0, 10),
        limit: intFlag(values.limit, 'limit', 1, 50),
      });
      if (values.json) printJson(io, r);
      else if (forPerson(io, values.json)) {
        const human = createHuman(io, core, values.query);
        human.write(inspectForPerson(human, values.query, r));
      } else io.out(r.text + '\n');
      return 0;
    });
  },
};

export const recallCommands: Command[] = [suggestCommand, searchCommand, readCommand, inspectCommand, historyCommand];
