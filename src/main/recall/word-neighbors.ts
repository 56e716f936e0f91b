// The general-English prior of the semantic layer: for 50,000 common English words, their nearest
// words by meaning (GloVe 6B 100-d, public domain; derived by scripts/build-word-neighbors.py into
// resources/semantic/word-neighbors.bin, 5 MB). Read once, on the first query that needs it; nothing
// is fetched at run time. The layout is described in the build script.
import fs from 'node:fs';
import path from 'node:path';
import { packageRoot } from '../package-root.js';
import { NamedError } from '../../shared/errors.js';

export interface Neighbor {
  word: string;
  /** The word's porter stem, as the index stores it. */
  stem: string;
  /** Cosine similarity, 0.5–1. */
  similarity: number;
}

export interface WordNeighbors {
  /** Nearest words first; empty for a word the table does not know. */
  of(word: string): Neighbor[];
  /** The word's frequency rank in English (0 = most frequent), or null when the table lacks it. */
  rank(word: string): number | null;
}

interface Table {
  words: string[];
  stems: string[];
  index: Map<string, number>;
  perWord: number;
  links: Buffer;
}

export class WordTableError extends NamedError {}

export function parseTable(buf: Buffer): Table {
  if (buf.length < 20 || buf.toString('ascii', 0, 4) !== 'TLWN' || buf.readUInt32LE(4) !== 1) {
    throw new WordTableError('word-neighbors.bin is not a version 1 word table');
  }
  const n = buf.readUInt32LE(8);
  const perWord = buf.readUInt32LE(12);
  const textBytes = buf.readUInt32LE(16);
  const links = buf.subarray(20 + textBytes);
  if (links.length !== n * perWord * 3) throw new WordTableError('word-neighbors.bin is truncated');
  const words: string[] = [];
  const stems: string[] = [];
  for (const line of buf.toString('utf8', 20, 20 + textBytes).split('\n')) {
    if (!line) continue;
    const tab = line.indexOf('\t');
    words.push(line.slice(0, tab));
    stems.push(line.slice(tab + 1));
  }
  if (words.length !== n) throw new WordTableError('word-neighbors.bin lists the wrong number of words');
  return { words, stems, index: new Map(words.map((w, i) => [w, i])), perWord, links };
}

function fromTable(t: Table): WordNeighbors {
  return {
    of(word) {
      const i = t.index.get(word);
      if (i === undefined) return [];
      const out: Neighbor[] = [];
      for (let k = 0; k < t.perWord; k++) {
        const at = (i * t.perWord + k) * 3;
        const j = t.links.readUInt16LE(at);
        if (j === 0xffff) break;
        out.push({ word: t.words[j]!, stem: t.stems[j]!, similarity: t.links[at + 2]! / 255 });
      }
      return out;
    },
    rank: (word) => t.index.get(word) ?? null,
  };
}

export const DEFAULT_TABLE = (): string => path.join(packageRoot(), 'resources', 'semantic', 'word-neighbors.bin');

let shared: WordNeighbors | null = null;

/**
 * The shipped table, loaded on first use and kept (about 10 MB in memory). A missing or damaged file
 * leaves the prior empty: recall still works on words alone, and says so nowhere because nothing a
 * person did caused it; the tests check the shipped file loads.
 */
export function wordNeighbors(file: string = DEFAULT_TABLE()): WordNeighbors {
  if (shared && file === DEFAULT_TABLE()) return shared;
  let table: WordNeighbors;
  try {
    table = fromTable(parseTable(fs.readFileSync(file)));
  } catch {
    table = { of: () => [], rank: () => null };
  }
  if (file === DEFAULT_TABLE()) shared = table;
  return table;
}
