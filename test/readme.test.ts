// The README is the newcomer's reference: every CLI command, every flag and every socket method
// must be in it. This keeps it from drifting as commands grow.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { METHODS } from '../src/shared/api.js';
import { SOURCE_LABEL } from '../src/renderer/src/lib/format.js';
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

  it('lists every agent read in both agent tables: where it is read and how it resumes; search, suggestions, turn-start, MCP and its install', () => {
    /** The rows of the table under `heading`, as trimmed cells. */
    const table = (heading: string): string[][] => {
      const from = readme.indexOf(heading);
      expect(from, heading).toBeGreaterThan(-1);
      const lines = readme.slice(from).split('\n').slice(1);
      const start = lines.findIndex((l) => l.startsWith('|'));
      const rows = lines.slice(start, lines.findIndex((l, i) => i > start && !l.startsWith('|')));
      return rows.slice(2).map((r) => r.split('|').slice(1, -1).map((c) => c.trim()));
    };
    const reading = table('## Agents');
    const gets = table('#### What each agent gets');
    expect(gets[0]!.length).toBe(6);
    for (const [kind, label] of Object.entries(SOURCE_LABEL)) {
      if (kind === 'jsonl') continue;
      const read = reading.find((r) => r[0]!.includes(label));
      expect(read, `${label} in the table of sessions read`).toBeDefined();
      expect(read!.at(-1), `${label}: resume`).toMatch(/`[a-z-]+ [^`]+`/);
      const row = gets.find((r) => r[0]!.includes(label));
      expect(row, `${label} in What each agent gets`).toBeDefined();
      for (const cell of row!) expect(cell, `${label}: ${row!.join(' | ')}`).not.toBe('');
      // An agent that loads MCP servers is installed by name, and the command's synopsis names it.
      if (row![4]!.startsWith('yes')) {
        const name = row![5]!.replace(/`/g, '');
        expect(readme, label).toMatch(new RegExp(`throughline install [a-z|]*\\b${name}\\b`));
      }
    }
  });

  it('documents every socket method', () => {
    for (const method of Object.keys(METHODS)) expect(readme, method).toContain('`' + method + '`');
  });
});
