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

export class WordTableError extends NamedError {}

/**
 * The table as read: the file's bytes, looked up in place through the hash table the build script
 * laid out (scripts/build-word-neighbors.py, format version 2). No string is made until a query
 * asks for a word's neighbours: splitting version 1's text into 100,000 strings and a 50,000-entry
 * Map took 110–190 ms of a daemon's first answer on this machine (BENCHMARKS.md).
 */
interface Table {
  buf: Buffer;
  words: number;
  slots: number;
  /** Where each section starts in buf. */
  at: { slots: number; starts: number; firsts: number; text: number; links: number };
  /** Each neighbour's word and stem once decoded. */
  decoded: ({ word: string; stem: string } | undefined)[];
}

/** FNV-1a of bytes, as the build script hashes a word. */
function hashBytes(b: Uint8Array): number {
  let h = 0x811c9dc5;
  for (let k = 0; k < b.length; k++) h = Math.imul(h ^ b[k]!, 0x01000193);
  return h >>> 0;
}

export function parseTable(buf: Buffer): Table {
  if (buf.length < 24 || buf.toString('ascii', 0, 4) !== 'TLWN' || buf.readUInt32LE(4) !== 2) {
    throw new WordTableError('word-neighbors.bin is not a version 2 word table');
  }
  const words = buf.readUInt32LE(8);
  const slots = buf.readUInt32LE(12);
  const textBytes = buf.readUInt32LE(16);
  const links = buf.readUInt32LE(20);
  const at = { slots: 24, starts: 24 + slots * 4, firsts: 24 + slots * 4 + (words + 1) * 4, text: 24 + slots * 4 + (words + 1) * 8, links: 0 };
  at.links = at.text + textBytes;
  if (buf.length !== at.links + links * 3) throw new WordTableError('word-neighbors.bin is truncated');
  if (slots === 0 || (slots & (slots - 1)) !== 0 || slots < words) throw new WordTableError('word-neighbors.bin has a bad hash table');
  return { buf, words, slots, at, decoded: new Array<{ word: string; stem: string } | undefined>(words).fill(undefined) };
}

/** Where word i's line starts and ends (its newline) in buf. */
function line(t: Table, i: number): [number, number] {
  return [t.at.text + t.buf.readUInt32LE(t.at.starts + i * 4), t.at.text + t.buf.readUInt32LE(t.at.starts + i * 4 + 4) - 1];
}

/** The word's index (its frequency rank), or undefined. */
function find(t: Table, word: string): number | undefined {
  const key = Buffer.from(word, 'utf8');
  const mask = t.slots - 1;
  for (let slot = hashBytes(key) & mask, probes = 0; probes < t.slots; slot = (slot + 1) & mask, probes++) {
    const j = t.buf.readUInt32LE(t.at.slots + slot * 4);
    if (j === 0 || j > t.words) return undefined;
    const [start, end] = line(t, j - 1);
    if (start + key.length < end && t.buf[start + key.length] === 9 && t.buf.compare(key, 0, key.length, start, start + key.length) === 0) return j - 1;
  }
  return undefined;
}

function decode(t: Table, j: number): { word: string; stem: string } {
  let d = t.decoded[j];
  if (!d) {
    const [start, end] = line(t, j);
    const tab = t.buf.indexOf(9, start);
    d = { word: t.buf.toString('utf8', start, tab), stem: t.buf.toString('utf8', tab + 1, end) };
    t.decoded[j] = d;
  }
  return d;
}

function fromTable(t: Table): WordNeighbors {
  const first = (i: number) => t.buf.readUInt32LE(t.at.firsts + i * 4);
  return {
    of(word) {
      const i = find(t, word);
      if (i === undefined) return [];
      const out: Neighbor[] = [];
      const b = t.buf;
      for (let at = t.at.links + first(i) * 3, last = t.at.links + first(i + 1) * 3; at < last; at += 3) {
        const j = b[at]! | (b[at + 1]! << 8);
        if (j >= t.words) break;
        const { word, stem } = decode(t, j);
        out.push({ word, stem, similarity: b[at + 2]! / 255 });
      }
      return out;
    },
    rank: (word) => find(t, word) ?? null,
  };
}

export const DEFAULT_TABLE = (): string => path.join(packageRoot(), 'resources', 'semantic', 'word-neighbors.bin');

let shared: WordNeighbors | null = null;
/** The shipped table's bytes, read ahead by prefetchWordTable and not yet taken by wordNeighbors. */
let prefetched: Buffer | null = null;
let prefetching: Promise<void> | null = null;

/**
 * Starts reading the shipped table on libuv's thread pool, so that the first query needing it (a
 * daemon's first suggest) does not read its 5 MB on the event loop: 3-10 ms of the daemon's first
 * answer. A query before the bytes are in reads them itself, as without this. Settles once read (or not).
 */
export function prefetchWordTable(): Promise<void> {
  prefetching ??= fs.promises.readFile(DEFAULT_TABLE()).then(
    (buf) => {
      if (!shared) prefetched = buf;
    },
    () => {
      // wordNeighbors() reads it again, and leaves the prior empty if it still cannot
    },
  );
  return prefetching;
}

/**
 * The shipped table, loaded on first use and kept (its 5 MB file, and the neighbours' strings once asked for). A missing or damaged file
 * leaves the prior empty: recall still works on words alone, and says so nowhere because nothing a
 * person did caused it; the tests check the shipped file loads.
 */
export function wordNeighbors(file: string = DEFAULT_TABLE()): WordNeighbors {
  if (shared && file === DEFAULT_TABLE()) return shared;
  let table: WordNeighbors;
  const ahead = file === DEFAULT_TABLE() ? prefetched : null;
  prefetched = null;
  try {
    table = fromTable(parseTable(ahead ?? fs.readFileSync(file)));
  } catch {
    table = { of: () => [], rank: () => null };
  }
  if (file === DEFAULT_TABLE()) shared = table;
  return table;
}
