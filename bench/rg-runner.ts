// Runs ripgrep for the benchmark from a process of its own: one JSON line in ({ terms, targets }),
// one out (rgFiles' { ms, files }, or { error }). The timing process then never forks while it times
// queries: the first calls after a fork pay a page fault for every page they write (copy-on-write),
// which made recall_conversations 4x slower for a few calls after any child process, even `true`.
//   node bin/run-ts.mjs bench/rg-runner.ts
import readline from 'node:readline';
import { rgFiles } from './lib-baselines.js';

for await (const line of readline.createInterface({ input: process.stdin })) {
  const { terms, targets } = JSON.parse(line) as { terms: string[]; targets: string[] };
  let out: unknown;
  try {
    out = rgFiles(terms, targets);
  } catch (err) {
    out = { error: (err as Error).message };
  }
  process.stdout.write(`${JSON.stringify(out)}\n`);
}
