// Issue 11 §8: a single huge line (a 50 MB line took 1.45 GB and 5.5 s, blocking the daemon) is
// passed over, not parsed: recorded as skipped with its file and line, the lines around it indexed,
// the reader's buffer never growing past the limit.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_LINE, readLines, type SkippedLine } from '../../src/main/ingest/read-lines.js';
import { useTmp } from '../helpers/tmp.js';
import { fakeHome, importFile, type FakeHome } from './home.js';

const tmp = useTmp('tl-long-line-');
const MB = 1 << 20;

function read(file: string, maxLine: number) {
  const fd = fs.openSync(file, 'r');
  try {
    return [...readLines(fd, 0, fs.statSync(file).size, maxLine)];
  } finally {
    fs.closeSync(fd);
  }
}

describe('readLines', () => {
  it('passes over a line of maxLine bytes or more, whether it spans reads or sits inside one', () => {
    const file = path.join(tmp(), 'lines.txt');
    // 9 MB spans several 4 MB reads with no newline in them; 3 KB sits inside one read.
    fs.writeFileSync(file, ['first', 'x'.repeat(9 * MB), 'second', 'y'.repeat(3000), 'short', ''].join('\n'));
    const chunks = read(file, 1024);
    expect(chunks.flatMap((c) => c.lines)).toEqual(['first', { skippedBytes: 9 * MB }, 'second', { skippedBytes: 3000 }, 'short']);
    expect(chunks.at(-1)!.endOffset).toBe(fs.statSync(file).size);
  });

  it('does not count a giant line whose newline has not arrived, and reads it once it has', () => {
    const file = path.join(tmp(), 'growing.txt');
    fs.writeFileSync(file, `first\n${'z'.repeat(5 * MB)}`);
    const before = read(file, 1024);
    expect(before.flatMap((c) => c.lines)).toEqual(['first']);
    expect(before.at(-1)!.endOffset).toBe(6);
    fs.appendFileSync(file, 'zz\nafter\n');
    const fd = fs.openSync(file, 'r');
    const after = [...readLines(fd, 6, fs.statSync(file).size, 1024)];
    fs.closeSync(fd);
    expect(after.flatMap((c) => c.lines)).toEqual([{ skippedBytes: 5 * MB + 2 } satisfies SkippedLine, 'after']);
  });

  it('keeps lines just under the limit', () => {
    const file = path.join(tmp(), 'under.txt');
    fs.writeFileSync(file, `${'a'.repeat(1023)}\n${'b'.repeat(1024)}\n`);
    expect(read(file, 1024).flatMap((c) => c.lines)).toEqual(['a'.repeat(1023), { skippedBytes: 1024 }]);
  });
});

describe('index', () => {
  let home: FakeHome;
  afterEach(() => fs.rmSync(home.dir, { recursive: true, force: true }));

  it(`records a line over ${MAX_LINE / MB} MB as skipped, indexes the rest, and goes on with the file as it grows`, async () => {
    home = fakeHome();
    const agent = importFile(home, 'long-line', '/w/long');
    const huge = JSON.stringify({ type: 'message', role: 'tool', text: `zyxhugeword ${'q'.repeat(MAX_LINE + MB)}` });
    fs.appendFileSync(agent.file, `${huge}\n`);
    agent.append('zyxafterhuge comes after the huge line');
    const lineOfHuge = fs.readFileSync(agent.file, 'utf8').split('\n').findIndex((l) => l.startsWith('{"type":"message","role":"tool"')) + 1;

    const r = await home.cli(['index', '--json']);
    expect(r.code, r.out).toBe(0);
    const report = JSON.parse(r.out) as { skippedLines: number; errors: { path: string; line: number; reason: string }[] };
    expect(report.skippedLines).toBe(1);
    expect(report.errors).toEqual([{ path: agent.file, line: lineOfHuge, reason: expect.stringMatching(/^line of 17\.0 MB, over the 16 MB limit: not read$/) }]);
    expect(await home.search('zyxhugeword')).toEqual([]);
    expect(await home.search('zyxafterhuge')).toHaveLength(1);
    expect(await home.search('first message secret work')).toHaveLength(1);

    agent.append('zyxlatergrowth written later');
    const again = await home.cli(['index', '--json']);
    expect(JSON.parse(again.out).skippedLines).toBe(0); // the huge line is not read again
    expect(await home.search('zyxlatergrowth')).toHaveLength(1);
  });
});
