// Someone running the CLI over and over while other processes use the same index: `index`,
// `stats` and `search` through the CLI's own main(), `ROUNDS` times. Prints "ERR …" for every
// failed command (exit code or anything on stderr) and "done N" at the end.
//   cli-loop ROUNDS DB
import { main } from '../../src/main/cli/main.js';
import type { CliIO } from '../../src/main/cli/command.js';

const [rounds, db] = [Number(process.argv[2]), process.argv[3]!];
let failures = 0;

async function run(args: string[]): Promise<void> {
  let err = '';
  const io: CliIO = { out: () => {}, err: (t) => void (err += t), isTTY: false, env: process.env };
  const code = await main(args, io);
  if (code !== 0 || err) {
    failures++;
    process.stdout.write(`ERR ${args[0]} exit ${code}: ${err.replace(/\n/g, ' ').slice(0, 400)}\n`);
  }
}

for (let i = 0; i < rounds; i++) {
  await run(['index', '--db', db, '--json']);
  await run(['stats', '--db', db, '--json']);
  await run(['search', '--db', db, '--json', '--', 'crash offset']);
}
process.stdout.write(`done ${rounds} ${failures}\n`);
