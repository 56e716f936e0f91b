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
  --source KIND=PATH  index this folder or file as KIND (pi, claude-code, codex, jsonl); repeatable.
                      Without it: ~/.pi/agent/sessions (or $PI_CODING_AGENT_DIR/sessions),
                      ~/.claude/projects (or $CLAUDE_CONFIG_DIR/projects),
                      ~/.codex/sessions (or $CODEX_HOME/sessions), and Throughline's import folder.
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
    if (values.rebuild) for (const suffix of ['', '-wal', '-shm']) fs.rmSync(file + suffix, { force: true });
    const db = openDb(file);
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
      return 0;
    } finally {
      db.close();
    }
  },
};

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
