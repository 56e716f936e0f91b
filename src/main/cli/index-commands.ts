// `throughline index` and `throughline stats`.
import fs from 'node:fs';
import { createIndexer, type ScanProgress } from '../ingest/scan.js';
import { ADAPTERS, defaultSources, parseSource } from '../ingest/sources.js';
import { openDb } from '../store/db.js';
import { indexStats } from '../store/stats.js';
import { createExclusionMatcher } from '../privacy.js';
import { createSettingsStore, defaultSettingsPath } from '../settings.js';
import { dbPathFrom, parseFlags, printJson, UsageError, type CliIO, type Command } from './command.js';

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
  help: `Usage: throughline index [--db FILE] [--source KIND=PATH]... [--rebuild] [--json]

Indexes new and grown session files; unchanged files are not read again.
  --source KIND=PATH  index this folder or file as KIND (pi, claude-code, codex, gemini, copilot,
                      jsonl); repeatable.
                      Without it: each agent's own folder, honouring its override (README: Agents):
                      ~/.pi/agent/sessions (or $PI_CODING_AGENT_DIR/sessions),
                      ~/.claude/projects (or $CLAUDE_CONFIG_DIR/projects),
                      ~/.codex/sessions (or $CODEX_HOME/sessions), ~/.gemini/tmp (or
                      $GEMINI_CLI_HOME/.gemini/tmp), ~/.copilot/session-state (or
                      $COPILOT_HOME/session-state), and Throughline's import folder.
  --rebuild           delete the index and build it again from the agents' files
  --db FILE           the index (default $THROUGHLINE_DB or $XDG_DATA_HOME/throughline/index.sqlite)
  --json              print one JSON object: files, conversations, entries, bytes, skippedLines, errors, ms
`,
  async run(args: string[], io: CliIO): Promise<number> {
    const { values } = parseFlags(args, { source: { type: 'string', multiple: true }, rebuild: { type: 'boolean' } });
    let sources;
    try {
      sources = values.source?.length ? values.source.map(parseSource) : defaultSources(io.env);
    } catch (err) {
      throw new UsageError((err as Error).message);
    }
    const file = dbPathFrom(values, io.env);
    // A rebuild is built beside the index and replaces it only once complete: a rebuild that fails
    // (a full disk, a kill) leaves the old index as it was instead of half of a new one.
    const target = values.rebuild ? `${file}.rebuild` : file;
    if (values.rebuild) removeIndex(target);
    const gone = values.rebuild ? goneConversations(file) : 0;
    const db = openDb(target);
    let built = false;
    try {
      const showProgress = io.isTTY && !values.json;
      const excluded = createExclusionMatcher(createSettingsStore(defaultSettingsPath(io.env)).get().exclusions);
      const stats = createIndexer(db, ADAPTERS, { excluded }).scan(sources, {
        onProgress: showProgress ? (p) => io.err(progressLine(p)) : undefined,
      });
      if (showProgress) io.err('\n');
      if (values.json) {
        printJson(io, {
          files: stats.files,
          parsedFiles: stats.parsedFiles,
          conversations: stats.conversations,
          entries: stats.entries,
          bytes: stats.bytes,
          skippedLines: stats.skippedLines,
          missing: stats.missing,
          errors: stats.errors,
          ms: stats.ms,
        });
      } else {
        const rate = stats.ms > 0 ? stats.bytes / MB / (stats.ms / 1000) : 0;
        io.out(
          `Indexed ${stats.parsedFiles} of ${stats.files} files: ${stats.conversations} conversations, ${stats.entries} entries, ` +
            `${(stats.bytes / MB).toFixed(1)} MB in ${stats.ms} ms (${rate.toFixed(1)} MB/s).\n`,
        );
        if (stats.missing) io.out(`${stats.missing} session files are gone; their conversations are kept.\n`);
        if (stats.skippedLines || stats.errors.length) {
          io.out(`${stats.skippedLines} lines skipped. Problems:\n`);
          for (const e of stats.errors.slice(0, 20)) io.out(`  ${e.path}${e.line ? `:${e.line}` : ''}: ${e.reason}\n`);
        }
      }
      built = true;
    } finally {
      db.close();
      if (values.rebuild) {
        if (built) replaceIndex(target, file);
        else removeIndex(target);
      }
    }
    if (gone) io.err(`throughline index: the old index held ${gone} conversation(s) whose session files are gone; the rebuilt one cannot have them.\n`);
    // Folders named with --source that do not exist are a mistake worth an exit code; the agents'
    // default folders that do not exist are just agents this person does not use.
    const absent = values.source?.length ? sources.filter((s) => !fs.existsSync(s.root)) : [];
    for (const s of absent) io.err(`throughline index: ${s.root} does not exist; nothing was indexed from it (what was indexed from it before is kept).\n`);
    return absent.length ? 1 : 0;
  },
};

function removeIndex(file: string): void {
  for (const suffix of ['', '-wal', '-shm']) fs.rmSync(file + suffix, { force: true });
}

/** Moves a closed (so fully checkpointed) rebuilt index over the old one and its WAL. */
function replaceIndex(rebuilt: string, file: string): void {
  for (const suffix of ['-wal', '-shm']) fs.rmSync(file + suffix, { force: true });
  fs.renameSync(rebuilt, file);
  for (const suffix of ['-wal', '-shm']) fs.rmSync(rebuilt + suffix, { force: true });
}

/** Conversations of the old index whose files are gone (a rebuild cannot bring them back); 0 if unreadable. */
function goneConversations(file: string): number {
  if (!fs.existsSync(file)) return 0;
  try {
    const db = openDb(file, { readonly: true });
    try {
      return db
        .prepare("SELECT count(*) FROM conversations c JOIN source_files f ON f.id = c.file_id WHERE f.status = 'missing'")
        .pluck()
        .get() as number;
    } finally {
      db.close();
    }
  } catch {
    return 0; // a damaged index is why one rebuilds: nothing to say about it
  }
}

export const statsCommand: Command = {
  name: 'stats',
  summary: 'what the index holds',
  help: `Usage: throughline stats [--db FILE] [--json]

Prints the number of conversations (by agent), entries, files, missing files, recorded errors and the index size.
`,
  async run(args: string[], io: CliIO): Promise<number> {
    const { values } = parseFlags(args, {});
    const file = dbPathFrom(values, io.env);
    const db = openDb(file, { readonly: true });
    try {
      const stats = indexStats(db, file);
      if (values.json) printJson(io, stats);
      else {
        io.out(`Index ${file} (${(stats.bytes / MB).toFixed(1)} MB, schema ${stats.schemaVersion})\n`);
        io.out(`${stats.conversations} conversations, ${stats.entries} entries, ${stats.files} files (${stats.missingFiles} missing)\n`);
        for (const [source, n] of Object.entries(stats.bySource)) io.out(`  ${source.padEnd(12)} ${n}\n`);
        io.out(`${stats.errors} ingest problems recorded${stats.lastIndexedAt ? `; last indexed ${new Date(stats.lastIndexedAt).toISOString()}` : ''}\n`);
      }
      return 0;
    } finally {
      db.close();
    }
  },
};
