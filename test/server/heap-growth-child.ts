// Child process of test/server/daemon-memory.test.ts (a fresh V8 heap, as `throughline serve` has):
// starts a daemon with one reader thread on the index given, then allocates what a busy main thread
// does, and prints one JSON line:
//  - newSpaceAtReady / newSpaceAfter: the main thread's new space (MB) when the reader was ready, and
//    after short-lived allocations (some kept a while);
//  - liveMB / peakMB: with ~35 MB kept alive, what a full collection leaves, and the largest the heap
//    grew to while medium-lived garbage (as a re-scan leaves) came and went.
//   node bin/run-ts.mjs test/server/heap-growth-child.ts DB SETTINGS SOCKET
import v8 from 'node:v8';
import vm from 'node:vm';
import { startDaemon } from '../../src/main/daemon/daemon.js';

const [dbPath, settingsPath, socketPath] = process.argv.slice(2);
const newSpaceMB = (): number => v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space')!.space_size / 1048576;
const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

const daemon = await startDaemon({ dbPath, settingsPath, socketPath, watch: false, log: false, readers: 1 });
await daemon.readers!.ready();
const newSpaceAtReady = newSpaceMB();
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
  await turn();
}
const newSpaceAfter = newSpaceMB();

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;
const live = Array.from({ length: 400_000 }, (_, i) => ({ i, s: `live ${i}`, pair: [i, i + 1] }));
gc();
const liveMB = v8.getHeapStatistics().used_heap_size / 1048576;
let peakMB = 0;
const recent: unknown[][] = [];
for (let round = 0; round < 400; round++) {
  recent.push(Array.from({ length: 5000 }, (_, i) => ({ round, i, text: `garbage ${i}` })));
  if (recent.length > 20) recent.shift();
  peakMB = Math.max(peakMB, v8.getHeapStatistics().total_heap_size / 1048576);
  await turn();
}
process.stdout.write(`${JSON.stringify({ newSpaceAtReady, newSpaceAfter, liveMB, peakMB, live: live.length, kept: kept.length })}\n`);
await daemon.close();
