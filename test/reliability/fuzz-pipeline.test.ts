// Fuzzing through the real pipeline (issue 7 §3): damaged bytes on disk, a damaged parser state in
// the index, and huge and deeply nested lines. Whatever happens to one line or one file, the scan
// finishes, every real entry is indexed, and the index passes SQLite's and FTS5's integrity checks.
import fs from 'node:fs';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { createIndexer } from '../../src/main/ingest/scan.js';
import { ADAPTERS } from '../../src/main/ingest/sources.js';
import { dumpIndex } from '../helpers/dump.js';
import { assertIndexIntact, dispose, indexContent, storedTexts, withText, type Indexed } from '../helpers/fuzz-files.js';
import { corpora, deepJson, garbageLine, invalidUtf8, lineAdapter, type Corpus } from '../helpers/fuzz-lines.js';
import { checkProperty, missingFrom } from '../helpers/fuzz-ops.js';

const SEED = 7_3000;
export const RUNS = { bytes: 50, state: 25 } as const;

const corpusList = corpora();
const share = (c: Corpus, runs: number) => Math.ceil(runs / corpusList.filter((o) => o.kind === c.kind).length);
const open: Indexed[] = [];
afterAll(() => open.forEach(dispose));

function clean(c: Corpus): { texts: string[]; dump: ReturnType<typeof dumpIndex> } {
  const x = indexContent(c, c.lines.join('\n') + '\n');
  const out = { texts: storedTexts(x.db), dump: dumpIndex(x.db) };
  dispose(x);
  return out;
}

/** A garbage line as the bytes a damaged file holds: never containing a newline of its own. */
const garbageBytes = (c: Corpus) =>
  fc.oneof(
    garbageLine(c.lines).map((s) => Buffer.from(s, 'utf8')),
    invalidUtf8,
    fc.constantFrom(Buffer.from([0]), Buffer.from('\r'), Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"text":"\\ud800\\udfff\\ud800"}')),
  );

describe('pipeline fuzzing', () => {
  for (const [i, c] of corpusList.entries()) {
    const name = `${c.kind} (${c.file.split('/').pop()})`;

    it(`${name}: damaged bytes between real lines cost only themselves`, () => {
      const truth = clean(c).texts;
      const damage = fc.array(fc.record({ at: fc.nat(), bytes: garbageBytes(c), crlf: fc.boolean() }), { minLength: 1, maxLength: 8 });
      checkProperty(
        fc.property(damage, fc.boolean(), (garbage, partialTail) => {
          const parts: Buffer[] = [];
          const at = new Map(garbage.map((g) => [g.at % (c.lines.length + 1), g]));
          c.lines.forEach((line, n) => {
            const g = at.get(n);
            if (g) parts.push(g.bytes, Buffer.from('\n'));
            parts.push(Buffer.from(line + (g?.crlf ? '\r\n' : '\n')));
          });
          // A last line still being written (no newline yet) is not read, and not an error.
          if (partialTail) parts.push(Buffer.from(c.lines[0]!.slice(0, 30)));
          const x = indexContent(c, Buffer.concat(parts));
          try {
            expect(missingFrom(storedTexts(x.db), truth)).toEqual([]);
            assertIndexIntact(x.db);
          } finally {
            dispose(x);
          }
        }),
        { seed: SEED + i, numRuns: share(c, RUNS.bytes) },
      );
    });

    it(`${name}: a parser state the adapter cannot resume from costs a re-read, not entries`, () => {
      const truth = clean(c).dump;
      const half = Math.ceil(c.lines.length / 2);
      // What a stored state can be after an upgrade or damage: anything, another adapter's, or not JSON at all.
      const otherStates = corpusList.filter((o) => o.kind !== c.kind).map((o) => {
        const p = lineAdapter(o.kind).createParser(o.file, undefined);
        o.lines.slice(0, 5).forEach((l, n) => {
          try {
            p.line(l, n + 1);
          } catch {
            // a refused line is fine here: only the state matters
          }
        });
        return JSON.stringify(p.state() ?? null);
      });
      const states = fc.oneof(
        fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v)),
        fc.constantFrom('{}', 'null', '[]', '"v0"', '{"version":99}', '{bad json', '', ...otherStates),
      );
      checkProperty(
        fc.property(states, (state) => {
          const x = indexContent(c, c.lines.slice(0, half).join('\n') + '\n');
          try {
            x.db.prepare('UPDATE source_files SET parser_state = ?').run(state);
            fs.appendFileSync(x.file, c.lines.slice(half).join('\n') + '\n');
            const stats = createIndexer(x.db, ADAPTERS).scan([{ kind: c.kind, root: x.root }]);
            expect(stats.errors.filter((e) => e.line === null)).toEqual([]);
            expect(dumpIndex(x.db)).toEqual(truth);
            assertIndexIntact(x.db);
          } finally {
            dispose(x);
          }
        }),
        { seed: SEED + 100 + i, numRuns: share(c, RUNS.state) },
      );
    });
  }

  it('takes huge and deeply nested lines in every format without losing the lines around them', () => {
    const words = 'lorem ipsum dolor sit amet consectetur '.repeat(Math.ceil((2 << 20) / 39));
    for (const c of corpusList) {
      const truth = clean(c).texts;
      const longest = c.lines.reduce((a, b) => (b.length > a.length ? b : a));
      const hostile = [
        withText(longest, words), // a valid record holding 2 MB of text
        deepJson(300_000, false), // parseable, 300,000 levels deep
        deepJson(100_000, true),
        `{"type":"${'x'.repeat(6 << 20)}`, // 6 MB, cut off
      ];
      const mid = Math.floor(c.lines.length / 2);
      const t0 = performance.now();
      const x = indexContent(c, [...c.lines.slice(0, mid), ...hostile, ...c.lines.slice(mid)].join('\n') + '\n');
      try {
        expect(performance.now() - t0).toBeLessThan(20_000);
        expect(x.stats.errors.filter((e) => e.line === null)).toEqual([]);
        // The huge record replaced one real line's text, so that one entry may differ; all others stay.
        expect(missingFrom(storedTexts(x.db), truth).length).toBeLessThanOrEqual(1);
        assertIndexIntact(x.db);
      } finally {
        dispose(x);
      }
    }
  });

  it('reads a file that starts with a byte-order mark like one without', () => {
    for (const c of corpusList) {
      const truth = clean(c).dump;
      const x = indexContent(c, Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(c.lines.join('\r\n') + '\r\n')]));
      try {
        expect(dumpIndex(x.db)).toEqual(truth);
      } finally {
        dispose(x);
      }
    }
  });
});
