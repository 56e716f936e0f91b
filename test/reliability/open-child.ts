// Opens (creating and migrating) an index at a given moment, so several processes race to create
// the same new index — as the app, the daemon and a CLI run can on a first start.
//   open-child FILE START_EPOCH_MS
import { openDb } from '../../src/main/store/db.js';

const [file, at] = [process.argv[2]!, Number(process.argv[3])];
// Sleep until just before the moment, then spin: a timer alone is too coarse to line the racers up.
await new Promise((resolve) => setTimeout(resolve, Math.max(0, at - Date.now() - 15)));
while (Date.now() < at) {
  // spin
}
try {
  openDb(file).close();
  process.stdout.write('opened\n');
} catch (err) {
  process.stdout.write(`ERR ${(err as Error).message}\n`);
}
