// Child process of test/server/daemon-memory.test.ts (a fresh V8 heap, as `throughline serve` has):
// starts a daemon with one reader thread on the index given, then allocates what a busy main thread
// does (short-lived objects, some kept a while) and prints the main thread's new space, in MB, when
// the reader was ready and after the allocations, as one JSON line.
//   node bin/run-ts.mjs test/server/young-generation-child.ts DB SETTINGS SOCKET
import v8 from 'node:v8';
import { startDaemon } from '../../src/main/daemon/daemon.js';

const [dbPath, settingsPath, socketPath] = process.argv.slice(2);
const newSpaceMB = (): number => v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space')!.space_size / 1048576;

const daemon = await startDaemon({ dbPath, settingsPath, socketPath, watch: false, log: false, readers: 1 });
await daemon.readers!.ready();
const atReady = newSpaceMB();
const kept: unknown[][] = [];
for (let round = 0; round < 200; round++) {
  let batch: unknown[] = [];
  for (let i = 0; i < 50_000; i++) {
    batch.push({ i, text: `entry ${i} of round ${round}` });
    if (batch.length === 10_000) {
      kept.push(batch.slice(0, 200));
      if (kept.length > 100) kept.shift();
      batch = [];
    }
  }
  // A turn of the event loop between rounds, as between calls.
  await new Promise((resolve) => setImmediate(resolve));
}
process.stdout.write(`${JSON.stringify({ atReady, after: newSpaceMB(), kept: kept.length })}\n`);
await daemon.close();
