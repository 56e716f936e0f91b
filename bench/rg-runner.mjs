// Runs ripgrep for the benchmark from a process of its own: one JSON line in (rg's arguments), one
// out ({ ms, files } or { error }). The benchmark process then never forks while it times queries:
// the first calls after a fork pay a page fault for every page they write (copy-on-write), which
// made recall_conversations 4x slower for a few calls after any child process, even `true`.
import { spawnSync } from 'node:child_process';
import readline from 'node:readline';

for await (const line of readline.createInterface({ input: process.stdin })) {
  const args = JSON.parse(line);
  const t0 = performance.now();
  const r = spawnSync('rg', args, { maxBuffer: 256 << 20, encoding: 'utf8' });
  const ms = performance.now() - t0;
  const out = r.status === 0 || r.status === 1 ? { ms, files: r.stdout ? r.stdout.split('\n').filter(Boolean).length : 0 } : { error: `rg failed (${r.status}): ${r.stderr}` };
  process.stdout.write(`${JSON.stringify(out)}\n`);
}
