// The daemon's V8 young generation held at the size it has (issue 16: daemon RSS ≤ 150 MB).
//
// V8 doubles a heap's young generation (its two semi-spaces) whenever much survives a scavenge, up
// to 16 MB a semi-space on 64-bit: under calls the daemon's main thread kept 32 MB of new space for
// 1-6 MB live in it, and only `--max-semi-space-size` on node's command line sets the ceiling, which
// `throughline serve` (started by a person or an agent's integration as plain `node`) cannot pass.
// `--semi-space-growth-factor=1` stops the doubling and can be set at run time; V8 reads it only when
// it grows a young generation, and raises it back to 2 whenever it configures a new heap, i.e. each
// time a worker thread starts. So it is set once more after every reader thread has started.
// Measured at 10k (BENCHMARKS.md, 2026-12-02): RSS at rest 174 -> 122 MB, after 1,000-3,000 calls
// 225-264 -> 194-210 MB, the CPU per call within the machine's noise. The young generation still
// shrinks when V8 reduces memory at rest, and then stays at that size.
import v8 from 'node:v8';

export function holdYoungGeneration(): void {
  v8.setFlagsFromString('--semi-space-growth-factor=1');
}
