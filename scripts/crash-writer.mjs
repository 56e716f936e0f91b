#!/usr/bin/env node
// An agent writing its session files, for the crash and concurrency tests: appends the planned
// chunks in order (some are half a line: the rest follows a moment later, as a busy agent's write
// can land), pausing as planned between them. Plain Node, so it starts at once.
//   node scripts/crash-writer.mjs PLAN.json
// PLAN.json: { "writes": [{ "file": "/abs/path", "data": "<base64>", "delayMs": 2 }, …] }
import fs from 'node:fs';
import path from 'node:path';

const plan = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
const fds = new Map();
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

for (const w of plan.writes) {
  let fd = fds.get(w.file);
  if (fd === undefined) {
    fs.mkdirSync(path.dirname(w.file), { recursive: true });
    fd = fs.openSync(w.file, 'a'); // append only, like an agent: never rewrites what it wrote
    fds.set(w.file, fd);
  }
  fs.writeSync(fd, Buffer.from(w.data, 'base64'));
  if (w.delayMs > 0) await sleep(w.delayMs);
}
for (const fd of fds.values()) fs.closeSync(fd);
process.stdout.write(`wrote ${plan.writes.length}\n`);
