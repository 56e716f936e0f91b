// The daemon reads the word table ahead as it starts (core.prefetch): the first query then finds its
// 5 MB already read, off the event loop, instead of reading them itself (issue 16: the first answer).
import fs from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';

type Module = typeof import('../../src/main/recall/word-neighbors.js');

/** A fresh copy of the module: its table is loaded once per process otherwise. */
async function fresh(): Promise<Module> {
  vi.restoreAllMocks();
  vi.resetModules();
  return import('../../src/main/recall/word-neighbors.js');
}

/** The reads of the shipped table from now on, by the real fs.readFileSync (counted, not replaced). */
function tableReads(m: Module): () => number {
  const read = vi.spyOn(fs, 'readFileSync');
  return () => read.mock.calls.filter((c) => c[0] === m.DEFAULT_TABLE()).length;
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('the word table read ahead', () => {
  it('is what the first query uses: the same neighbours, no read of its own', async () => {
    const plain = await fresh();
    const reads = tableReads(plain);
    const expected = plain.wordNeighbors().of('house');
    expect(expected.length).toBeGreaterThan(0);
    expect(reads()).toBe(1); // without it, the first query reads the file

    const ahead = await fresh();
    await ahead.prefetchWordTable();
    const aheadReads = tableReads(ahead);
    expect(ahead.wordNeighbors().of('house')).toEqual(expected);
    expect(ahead.wordNeighbors().rank('house')).toBe(plain.wordNeighbors().rank('house'));
    expect(aheadReads()).toBe(0);
  });

  it('a query before the bytes are in reads them itself, and the late bytes are not used', async () => {
    const m = await fresh();
    const reads = tableReads(m);
    const pending = m.prefetchWordTable();
    const table = m.wordNeighbors();
    expect(reads()).toBe(1);
    await pending;
    expect(m.wordNeighbors()).toBe(table);
    expect(table.of('house').length).toBeGreaterThan(0);
  });
});
