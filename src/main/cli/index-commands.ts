// `throughline index` and `throughline stats`.
import fs from 'node:fs';
import type { IndexStatus } from '../../shared/api.js';
import {
  carryHandoffsFrom,
  goneConversations,
  mayBeIndex,
  parseSource,
  removeIndex,
  replaceIndex,
  runIndex,
  type Carried,
  type CountChanges,
  type IndexCounts,
  type ScanProgress,
  type ScanStats,
} from '../api/indexing.js';
import { CliError, dbPathFrom, parseFlags, printJson, rawErr, rawOut, UsageError, type CliIO, type Command } from './command.js';
import { withCore } from './core-session.js';
import { forPerson } from './human.js';
import { colorEnabled, columns, createPaint, escapeControls, type Paint } from './terminal.js';

const MB = 1024 * 1024;

function progressLine(p: ScanProgress): string {
  const rate = p.elapsedMs > 0 ? p.bytes / MB / (p.elapsedMs / 1000) : 0;
  const width = 24;
  const done = p.filesTotal ? Math.round((p.filesDone / p.filesTotal) * width) : width;
  return `\r[${'#'.repeat(done)}${'.'.repeat(width - done)}] ${p.filesDone}/${p.filesTotal} files  ${p.entries} entries  ${(p.bytes / MB).toFixed(1)} MB  ${rate.toFixed(1)} MB/s `;
}

export const indexCommand: Command = {
  name: 'index',
  summary: 'index the agents’ session files (incremental)',
  help: `Usage: throughline index [--db FILE] [--source KIND=PATH]... [--rebuild [--drop-missing]] [--json]

Indexes new and grown session files; unchanged files are not read again.
  --source KIND=PATH  index this folder or file as KIND (pi, claude-code, codex, gemini, opencode,
                      copilot, cursor, droid, aider, jsonl); repeatable. aider=FOLDER finds
                      every .aider.chat.history.md below FOLDER (a folder of repositories).
                      Without it: each agent's own folder, honouring its override (README: Agents):
                      ~/.pi/agent/sessions (or $PI_CODING_AGENT_DIR/sessions),
                      ~/.claude/projects (or $CLAUDE_CONFIG_DIR/projects),
                      ~/.codex/sessions (or $CODEX_HOME/sessions), ~/.gemini/tmp (or
                      $GEMINI_CLI_HOME/.gemini/tmp), ~/.copilot/session-state (or
                      $COPILOT_HOME/session-state), ~/.cursor/projects, ~/.factory/sessions,
                      ~/.local/share/opencode/{storage,opencode.db} (or $XDG_DATA_HOME, $OPENCODE_DB),
                      Throughline's import folder, and Aider's .aider.chat.history.md in each
                      workspace the index knows (and its git root; $AIDER_CHAT_HISTORY_FILE names
                      another file, absolute or within each repository).
  --rebuild           build the index again from the agents' files, beside the old one, and swap it
                      in when done. Refused when the index holds conversations whose session files
                      are gone (agents delete old transcripts: the index may be their only copy),
                      and when --db is a file that is not an index. Handoffs written through
                      history_handoff are in no file: they are carried over
  --drop-missing      with --rebuild: rebuild anyway, without those conversations
  --db FILE           the index (default $THROUGHLINE_DB or $XDG_DATA_HOME/throughline/index.sqlite)
  --json              print one JSON object: what the index holds after the run (conversations,
                      subagents, entries, files: the counts \`stats\` shows) and what the run changed
                      (changed: files read, conversations new/updated/removed, entries), bytes,
                      skippedLines, missing, errors, ms
`,
  async run(args: string[], io: CliIO): Promise<number> {
    const { values } = parseFlags(args, { source: { type: 'string', multiple: true }, rebuild: { type: 'boolean' }, 'drop-missing': { type: 'boolean' } });
    if (values['drop-missing'] && !values.rebuild) throw new UsageError('--drop-missing goes with --rebuild');
    let sources;
    try {
      sources = values.source?.map(parseSource);
    } catch (err) {
      throw new UsageError((err as Error).message);
    }
    // Folders named with --source that do not exist are a mistake worth an exit code; the agents'
    // default folders that do not exist are just agents this person does not use.
    const absent = (sources ?? []).filter((s) => !fs.existsSync(s.root));
    const file = dbPathFrom(values, io.env);
    // A rebuild is built beside the index and replaces it only once complete: a rebuild that fails
    // (a full disk, a kill) leaves the old index as it was instead of half of a new one.
    const target = values.rebuild ? `${file}.rebuild` : file;
    let gone = 0;
    if (values.rebuild) {
      if (!mayBeIndex(file)) {
        throw new CliError('not-an-index', `index --rebuild: ${file} is not a Throughline index (not an SQLite database), so it is not replaced. Give --db the index file.`);
      }
      gone = goneConversations(file);
      if (gone && !values['drop-missing']) throw wouldLose(file, gone);
      removeIndex(target);
    }
    let built = false;
    let report: string | null = null;
    let carried: Carried = { kept: 0, lost: 0 };
    try {
      // The core the daemon runs, on these sources (without --source: each agent's folder, the
      // folders added in Settings, and the Aider histories in the workspaces the index knows).
      await withCore({ db: target }, io, async ({ core }) => {
        const showProgress = io.isTTY && !values.json;
        const { stats, counts, changed } = await runIndex(core, showProgress ? (p) => rawErr(io)(progressLine(p)) : undefined);
        if (showProgress) io.err('\n');
        // Handoffs written over MCP or the socket are in no session file: the old index has the only copy.
        if (values.rebuild) carried = carryHandoffsFrom(file, core);
        if (values.json) {
          printJson(io, {
            conversations: counts.conversations,
            subagents: counts.subagents,
            entries: counts.entries,
            files: counts.files,
            changed: { files: stats.parsedFiles, conversations: changed.conversations, entries: changed.entries },
            bytes: stats.bytes,
            skippedLines: stats.skippedLines,
            missing: stats.missing,
            errors: stats.errors,
            ...(absent.length ? { absentSources: absent.map((s) => s.root) } : {}),
            ms: stats.ms,
          });
        } else report = indexReport(stats, counts, changed);
      }, { write: true, sources: sources ?? null });
      built = true;
    } finally {
      if (values.rebuild) {
        if (built) replaceIndex(target, file);
        else removeIndex(target);
      }
    }
    if (report) io.out(report);
    if (gone) io.err(`throughline index: dropped ${gone} conversation(s) whose session files are gone, as --drop-missing asked.\n`);
    if (built && carried.lost) io.err(`throughline index: ${carried.lost} handoff(s) of the old index belong to conversations the rebuilt one does not have; they were not kept.\n`);
    if (!values.json) {
      for (const s of absent) io.err(`throughline index: ${s.root} does not exist; nothing was indexed from it (what was indexed from it before is kept).\n`);
    }
    return absent.length ? 1 : 0;
  },
};

const n = (x: number) => x.toLocaleString('en-US');
const plural = (x: number, one: string, many = `${one}s`) => `${n(x)} ${x === 1 ? one : many}`;

/** What a person reads after `index`: what changed, then what the index holds (the counts `stats` shows). */
function indexReport(stats: ScanStats, counts: IndexCounts, changed: CountChanges): string {
  const holds = `The index holds ${plural(counts.conversations, 'conversation')}${counts.subagents ? ` (and ${plural(counts.subagents, 'sub-agent conversation')})` : ''}, ${plural(counts.entries, 'entry', 'entries')}.`;
  const lines: string[] = [];
  if (stats.files === 0) lines.push(`No session files in the sources. ${holds}`);
  else if (stats.parsedFiles === 0) lines.push(`Nothing new: ${plural(stats.files, 'session file')} unchanged. ${holds}`);
  else {
    const rate = stats.ms > 0 ? stats.bytes / MB / (stats.ms / 1000) : 0;
    const c = changed.conversations;
    const what = [c.new ? `${n(c.new)} new` : '', c.updated ? `${n(c.updated)} updated` : '', c.removed ? `${n(c.removed)} removed` : ''].filter(Boolean);
    const total = c.new + c.updated + c.removed;
    const conversations = total ? `${what.join(', ')} ${total === 1 ? 'conversation' : 'conversations'}` : 'no conversation changed';
    const entries = changed.entries ? `, ${changed.entries > 0 ? '+' : '−'}${plural(Math.abs(changed.entries), 'entry', 'entries')}` : '';
    const read = `${(stats.bytes / MB).toFixed(1)} MB in ${n(stats.ms)} ms, ${rate.toFixed(1)} MB/s`;
    lines.push(`Read ${plural(stats.parsedFiles, 'new or grown file')} of ${n(stats.files)} (${read}): ${conversations}${entries}.`);
    lines.push(holds);
  }
  if (stats.missing) lines.push(`${plural(stats.missing, 'session file')} ${stats.missing === 1 ? 'is' : 'are'} gone; their conversations are kept.`);
  if (stats.skippedLines || stats.errors.length) {
    lines.push(`${plural(stats.skippedLines, 'line')} skipped. Problems:`);
    for (const e of stats.errors.slice(0, 20)) lines.push(`  ${e.path}${e.line ? `:${e.line}` : ''}: ${e.reason}`);
  }
  return lines.join('\n') + '\n';
}

/**
 * A rebuild must never silently lose what only the index still holds: conversations whose session
 * files are gone, and those pushed over the socket (they have no file).
 */
function wouldLose(file: string, gone: number): CliError {
  return new CliError(
    'would-lose',
    `index --rebuild: the index holds ${gone} conversation(s) whose session files are gone or that were pushed over the socket (agents delete old transcripts; the index may be their only copy), and a rebuild cannot bring them back. Nothing was changed. To rebuild without them: throughline index --rebuild --drop-missing (copy ${file} first to keep them).`,
    1,
    { conversations: gone },
  );
}

export const statsCommand: Command = {
  name: 'stats',
  summary: 'what the index holds',
  help: `Usage: throughline stats [--db FILE] [--json]

Prints the number of conversations (by agent; sub-agent conversations apart), entries, files, missing
files, recorded errors and the index size: the counts \`index\` reports and the UI shows.
`,
  async run(args: string[], io: CliIO): Promise<number> {
    const { values } = parseFlags(args, {});
    const file = dbPathFrom(values, io.env);
    const stats = statsOf(await withCore(values, io, ({ call }) => call('status', {})));
    if (values.json) printJson(io, stats);
    else if (forPerson(io, values.json)) rawOut(io)(statsForPerson(createPaint(colorEnabled(io.env, true)), file, stats));
    else {
      io.out(`Index ${file} (${(stats.bytes / MB).toFixed(1)} MB, schema ${stats.schemaVersion})\n`);
      io.out(
        `${stats.conversations} conversations${stats.subagents ? ` (and ${stats.subagents} sub-agent conversations)` : ''}, ${stats.entries} entries, ${stats.files} files (${stats.missingFiles} missing)\n`,
      );
      for (const [source, count] of Object.entries(stats.bySource)) io.out(`  ${source.padEnd(12)} ${count}\n`);
      io.out(`${stats.errors} ingest problems recorded${stats.lastIndexedAt ? `; last indexed ${new Date(stats.lastIndexedAt).toISOString()}` : ''}\n`);
    }
    return 0;
  },
};

type Stats = ReturnType<typeof statsOf>;

/** What `stats` prints from the api's status: the counts, and the number of problems recorded. */
function statsOf(s: IndexStatus) {
  return {
    schemaVersion: s.schemaVersion,
    conversations: s.conversations,
    subagents: s.subagents,
    entries: s.entries,
    files: s.files,
    missingFiles: s.missingFiles,
    errors: s.errorCount,
    bySource: s.bySource,
    lastIndexedAt: s.lastIndexedAt,
    bytes: s.bytes,
  };
}

function statsForPerson(paint: Paint, file: string, stats: Stats): string {
  const rows = [
    [paint.label('Index'), `${escapeControls(file)} ${paint.dim(`(${(stats.bytes / MB).toFixed(1)} MB, schema ${stats.schemaVersion})`)}`],
    [paint.label('Conversations'), `${n(stats.conversations)}${stats.subagents ? paint.dim(` and ${plural(stats.subagents, 'sub-agent conversation')}`) : ''}`],
    ...Object.entries(stats.bySource).map(([source, count]) => [paint.dim(`  ${source}`), n(count)]),
    [paint.label('Entries'), n(stats.entries)],
    [paint.label('Session files'), `${n(stats.files)}${stats.missingFiles ? paint.dim(` (${n(stats.missingFiles)} gone, their conversations kept)`) : ''}`],
    [paint.label('Problems'), stats.errors ? paint.warn(`${plural(stats.errors, 'skipped line or file')} (the app's Index status lists them)`) : 'none'],
    [paint.label('Last indexed'), stats.lastIndexedAt ? new Date(stats.lastIndexedAt).toISOString().replace('T', ' ').slice(0, 19) + ' UTC' : 'never'],
  ];
  return columns(rows).join('\n') + '\n';
}
