// What a large scan leaves behind, handed back: the SQLite page cache the scan filled is emptied
// (the pages stay in the OS's file cache; the next scan reads them from there).
//
// The scan's garbage in the V8 heap is left to V8. A full collection was forced here after every
// large scan, for the daemon's periodic re-scan made an idle daemon's RSS climb ~50 MB a minute at
// 10k (BENCHMARKS.md, issue 16); but it held the main thread 22-70 ms at the end of every re-scan,
// and an agent's call waited for it. Since the heaps' growth is capped (daemon/heap-growth.ts), V8's
// own collections, mostly concurrent, keep an idle 10k daemon at 113-124 MB over six re-scans
// against 121-129 with the forced one.
import { releasePageCache, type ReadableDb } from '../store/db.js';

/** Scans of fewer files leave too little to be worth it (tests, small homes). */
export const RELEASE_FROM_FILES = 2000;

export function releaseAfterScan(db: ReadableDb, filesSeen: number): void {
  if (filesSeen < RELEASE_FROM_FILES) return;
  releasePageCache(db);
}
