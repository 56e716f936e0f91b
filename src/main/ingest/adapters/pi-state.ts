// The pi parser's resumable state and the bounded maps it keeps.
// Everything here round-trips through JSON.stringify/parse (the pipeline stores it as text).
import type { EntryRecord } from '../types.js';
import { isObject } from './text.js';

/**
 * What the tree knows about a pi entry whose id is not on a record of its own:
 * - `back` (skipped entries only: model_change, label, session_info…): where its children hang
 *   instead: its nearest ancestor that has a record, or null for the root.
 * - `fwd`: the first record at or after it (a compaction's first kept entry may be a skipped entry,
 *   or an assistant entry whose first record is `<id>#1`).
 * - `up`: its raw parent, when that parent is skipped too, so `fwd` can be filled up the chain.
 */
export interface Redirect {
  back?: string | null;
  fwd?: string;
  up?: string;
}

/** Caps keep the state small on huge files; the oldest go first (they are rarely referenced). */
export const MAX_REDIRECTS = 512;
export const MAX_PENDING = 256;

export interface PiState {
  /** pi session version from the header (v1 files have none: 1). 0 until the header is read. */
  version: number;
  /** Session id from the header: the conversation key. */
  conv?: string;
  /** Next seq to give. */
  seq: number;
  /** pi's file-entry index of the next JSON line (the header is 0), see PiParser.line. */
  index: number;
  /** Raw id of the previous entry: the parent of the next one in linear (v1) files. */
  prevRaw?: string;
  titleRank: number;
  updatedAt?: number;
  /** Last leaf sent, so an unchanged leaf is not sent again. */
  leaf?: string;
  /** Tool calls awaiting their result: call id → the record to re-emit with the final status. */
  pending: [string, EntryRecord][];
  redirects: [string, Redirect][];
}

export function initialState(): PiState {
  return { version: 0, seq: 0, index: 0, titleRank: 0, pending: [], redirects: [] };
}

/** Accept a stored state only if it has the expected shape; otherwise start over from scratch. */
export function loadState(raw: unknown): PiState | undefined {
  if (!isObject(raw)) return undefined;
  const ok =
    typeof raw.version === 'number' &&
    typeof raw.seq === 'number' &&
    typeof raw.index === 'number' &&
    typeof raw.titleRank === 'number' &&
    Array.isArray(raw.pending) &&
    Array.isArray(raw.redirects);
  return ok ? (raw as unknown as PiState) : undefined;
}

/** Set a key, moving it to the newest end, and drop the oldest beyond `cap`. */
export function setCapped<V>(map: Map<string, V>, key: string, value: V, cap: number): void {
  map.delete(key);
  map.set(key, value);
  while (map.size > cap) {
    const oldest = map.keys().next().value;
    if (oldest === undefined) break;
    map.delete(oldest);
  }
}
