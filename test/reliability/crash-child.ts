// The indexer as the crash tests run and kill it: the same createIndexer the CLI and the daemon
// use, in a process of its own. Says "ready" once the index is open (migrations done), then
// "scan N" after each full scan; with --loop it keeps scanning (files are growing meanwhile),
// as the daemon does, until it is killed.
//   crash-child --db FILE --source KIND=PATH... [--loop]
import { parseArgs } from 'node:util';
import { createIndexer } from '../../src/main/ingest/scan.js';
import { ADAPTERS, parseSource } from '../../src/main/ingest/sources.js';
import { openDb } from '../../src/main/store/db.js';

const { values } = parseArgs({
  options: { db: { type: 'string' }, source: { type: 'string', multiple: true }, loop: { type: 'boolean' } },
});
const db = openDb(values.db!);
const sources = (values.source ?? []).map(parseSource);
const indexer = createIndexer(db, ADAPTERS);
process.stdout.write('ready\n');
let n = 0;
do {
  const stats = indexer.scan(sources);
  process.stdout.write(`scan ${++n} ${stats.entries}\n`);
  // Let the kill (and stdout) in between two scans as well as during one.
  await new Promise((resolve) => setTimeout(resolve, 1));
} while (values.loop);
db.close();
