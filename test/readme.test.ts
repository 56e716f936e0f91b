// The README is the newcomer's reference: every CLI command, every flag and every socket method
// must be in it. This keeps it from drifting as commands grow.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { METHODS } from '../src/shared/api.js';
import { main } from '../src/main/cli/main.js';

const readme = fs.readFileSync(path.resolve(__dirname, '..', 'README.md'), 'utf8');

async function run(args: string[]): Promise<string> {
  let out = '';
  const io = { out: (t: string) => void (out += t), err: (t: string) => void (out += t), isTTY: false, env: process.env };
  await main(args, io);
  return out;
}

describe('README', () => {
  it('gives the two commands: set up and run, and run the tests', () => {
    expect(readme).toContain('npm install && npm start');
    expect(readme).toContain('npm test');
  });

  it('documents every command and every flag of the CLI', async () => {
    const commands = [...(await run(['--help'])).matchAll(/^ {2}([a-z]+) {2,}/gm)].map((m) => m[1]!);
    expect(commands.length).toBeGreaterThan(10);
    for (const command of commands) {
      expect(readme, `command ${command}`).toContain(`throughline ${command}`);
      const help = await run([command, '--help']);
      for (const flag of new Set([...help.matchAll(/(?<![\w-])--[a-z][a-z-]*/g)].map((m) => m[0]))) {
        expect(readme, `${command} ${flag}`).toContain(flag);
      }
    }
  });

  it('documents every socket method', () => {
    for (const method of Object.keys(METHODS)) expect(readme, method).toContain('`' + method + '`');
  });
});
