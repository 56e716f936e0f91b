// How far the daemon's V8 heaps may grow past what they hold (issue 16: daemon RSS ≤ 150 MB at 50k).
// Both settings are V8 flags set at run time: `throughline serve` is started as plain `node` (by a
// person, or an agent's integration), so it cannot pass `--max-semi-space-size` or
// `--max-old-space-size` on node's command line. They apply to every thread of the process.
//
// - Young generation: V8 doubles a heap's new space (two semi-spaces) whenever much survives a
//   scavenge, up to 16 MB a semi-space on 64-bit: under calls the main thread kept 32 MB of new space
//   for 1-6 MB live in it. `--semi-space-growth-factor=1` stops the doubling; V8 reads it only when it
//   grows a new space, and raises it back to 2 whenever it configures a new heap, i.e. each time a
//   worker thread starts: so it is set again after every reader thread has started. At 10k, 3,000
//   calls: RSS at rest 174 -> 122 MB, after the calls 225-264 -> 194-210 MB, CPU per call within the
//   noise (BENCHMARKS.md, 2026-12-02). A new space still shrinks when V8 reduces memory at rest.
// - Old generation: after a full collection V8 lets a heap grow by a factor of up to 4 before the next
//   one. At 50k the main thread holds ~45 MB and each 30 s re-scan's garbage took it to 120-155 MB
//   between collections; `--heap-growing-percent=30` caps the factor at 1.3: 46-82 MB, the daemon's
//   RSS after 1,000 calls 259 -> 229 MB, CPU per call within the noise at 10k (4.1 + 14.3 against
//   3.2 + 12.7 ms on the main and other threads, at another moment of a machine at load 8-10).
// - Scavenges on one thread: V8 splits a young-generation collection among helper threads and the
//   collecting thread waits for them all; on the 2 cores the readers share, under load a helper is
//   not scheduled for tens of ms and the main thread stalls (another client's status waited up to
//   0.4 s). With --no-parallel-scavenge the main thread's scavenge pauses at 10k, load 9-11, 3 runs
//   of ~200 each way: p50 2.1-2.9 -> 0.5-0.6 ms, p99 57-129 -> 29-36 ms, in all 1.47 s -> 0.76-1.04 s
//   (BENCHMARKS.md). The held young generation is small: there is little to split.
import v8 from 'node:v8';

export function holdHeapGrowth(): void {
  v8.setFlagsFromString('--semi-space-growth-factor=1');
  v8.setFlagsFromString('--heap-growing-percent=30');
  v8.setFlagsFromString('--no-parallel-scavenge');
}
