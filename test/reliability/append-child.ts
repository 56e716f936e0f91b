// Appends entries one call at a time to one conversation from a given moment, so two processes'
// appends interleave (ingest.append from two agents' processes, or a daemon and a CLI run).
//   append-child FILE START_EPOCH_MS NAME COUNT
import { appendEntries } from '../../src/main/api/append.js';
import { openDb } from '../../src/main/store/db.js';
import { createWriter } from '../../src/main/store/writer.js';

const [file, at, name, count] = [process.argv[2]!, Number(process.argv[3]), process.argv[4]!, Number(process.argv[5])];
const db = openDb(file);
const writer = createWriter(db);
// Sleep until just before the moment, then spin: a timer alone is too coarse to line the racers up.
await new Promise((resolve) => setTimeout(resolve, Math.max(0, at - Date.now() - 15)));
while (Date.now() < at) {
  // spin
}
try {
  for (let i = 0; i < count; i++) {
    appendEntries(db, writer, { conversation: { id: 'shared-session', workspace: '/work/race' }, entries: [{ role: 'user', text: `${name} message ${i}` }] });
  }
  process.stdout.write('appended\n');
} catch (err) {
  process.stdout.write(`ERR ${(err as Error).message}\n`);
} finally {
  db.close();
}
