// Child process of the harness: indexes a corpus into a database and prints one JSON line with the
// scan's stats and this process's peak RSS. A child of its own so that the peak RSS is the
// indexer's alone, not the harness's (which holds query results and baselines).
//   node bin/run-ts.mjs bench/run-index.ts --db FILE --corpus DIR
import { parseArgs } from 'node:util';
import { createIndexer } from '../src/main/ingest/scan.js';
import { ADAPTERS } from '../src/main/ingest/sources.js';
import { openDb } from '../src/main/store/db.js';
import { indexCounts } from '../src/main/store/stats.js';
import { corpusSources } from './corpus.js';

export interface IndexRun {
  ms: number;
  /** CPU time of the scan (user + system): on a busy machine, the steadier throughput figure. */
  cpuMs: number;
  files: number;
  parsedFiles: number;
  entries: number;
  /** Conversations in the index after the run (sub-agents included). */
  conversations: number;
  bytes: number;
  skippedLines: number;
  errors: number;
  firstErrors: string[];
  maxRssMB: number;
}

const { values } = parseArgs({ options: { db: { type: 'string' }, corpus: { type: 'string' } } });
if (!values.db || !values.corpus) throw new Error('usage: run-index.ts --db FILE --corpus DIR');
const db = openDb(values.db);
const cpu0 = process.cpuUsage();
const stats = createIndexer(db, ADAPTERS).scan(corpusSources(values.corpus));
const cpu = process.cpuUsage(cpu0);
// What the index holds after the run: the scan's own count is of conversations touched per file, and
// an OpenCode conversation is touched by each of its message and part files.
const counts = indexCounts(db);
// Checkpoint so the database file's size is the index's size, not index + WAL.
db.pragma('wal_checkpoint(TRUNCATE)');
db.close();
const out: IndexRun = {
  ms: stats.ms,
  cpuMs: (cpu.user + cpu.system) / 1000,
  files: stats.files,
  parsedFiles: stats.parsedFiles,
  entries: stats.entries,
  conversations: counts.conversations + counts.subagents,
  bytes: stats.bytes,
  skippedLines: stats.skippedLines,
  errors: stats.errors.length,
  firstErrors: stats.errors.slice(0, 5).map((e) => `${e.path}:${e.line ?? '-'}: ${e.reason}`),
  // resourceUsage().maxRSS is in kilobytes.
  maxRssMB: process.resourceUsage().maxRSS / 1024,
};
console.log(JSON.stringify(out));
