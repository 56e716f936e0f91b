// What a large scan leaves behind, handed back. A scan of the sources stats every session file and
// reads every file's stored row: tens of MB of short-lived objects at 10k conversations (~40k files),
// spread over seconds of time slices, so V8 promotes them and, with nothing forcing a full
// collection, lets its heap grow past them. The daemon's periodic re-scan (every 30 s, ingest/watch.ts)
// made an idle daemon's RSS climb ~50 MB a minute at 10k (BENCHMARKS.md, issue 16). After such a
// scan the garbage is collected at once (~15-30 ms), and the SQLite page cache the scan filled is
// emptied (the pages stay in the OS's file cache; the next scan reads them from there).
import v8 from 'node:v8';
import vm from 'node:vm';
import { releasePageCache, type ReadableDb } from '../store/db.js';

/** Scans of fewer files leave too little to be worth a full collection (tests, small homes). */
export const RELEASE_FROM_FILES = 2000;

let collect: (() => void) | null = null;

/** V8's full collection: exposed for contexts made from now on, and taken from a new one (node:vm). */
function fullCollection(): () => void {
  if (!collect) {
    v8.setFlagsFromString('--expose-gc');
    collect = vm.runInNewContext('gc') as () => void;
  }
  return collect;
}

export function releaseAfterScan(db: ReadableDb, filesSeen: number): void {
  if (filesSeen < RELEASE_FROM_FILES) return;
  fullCollection()();
  releasePageCache(db);
}
