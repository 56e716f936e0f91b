// Checks for what an adapter hands the pipeline: every op must be one the writer can store as is.
// A wrong type here (a number as text, NaN as a time) would not fail in the adapter but in the
// writer's transaction, and take the whole scan down with it.
import fc from 'fast-check';
import type { EntryKind, Role } from '../../src/shared/types.js';
import type { IngestOp, LineParser } from '../../src/main/ingest/types.js';
import { LineError } from '../../src/main/ingest/types.js';

const ROLES: readonly Role[] = ['user', 'assistant', 'tool', 'system'];
const KINDS: readonly EntryKind[] = ['message', 'thinking', 'tool_call', 'tool_result', 'compaction', 'branch_summary', 'reset', 'custom', 'bash'];

const optType = (v: unknown, type: 'string' | 'boolean') => v === undefined || typeof v === type;
const optTime = (v: unknown) => v === undefined || (typeof v === 'number' && Number.isFinite(v));

/** Why an op cannot be stored, or null when it can. */
export function badOp(op: IngestOp): string | null {
  if (typeof op.conv !== 'string') return 'conv must be a string';
  if (op.op === 'leaf') return typeof op.sourceId === 'string' ? null : 'leaf.sourceId must be a string';
  if (op.op === 'conversation') {
    const m = op.meta;
    for (const k of ['sessionId', 'workspace', 'title', 'summary', 'parentKey'] as const) if (!optType(m[k], 'string')) return `meta.${k} must be a string`;
    if (!optType(m.isSubagent, 'boolean')) return 'meta.isSubagent must be a boolean';
    for (const k of ['createdAt', 'updatedAt', 'titleRank'] as const) if (!optTime(m[k])) return `meta.${k} must be a finite number`;
    return null;
  }
  if (op.op === 'drop') return typeof op.sourceId === 'string' ? null : 'drop.sourceId must be a string';
  if (op.op !== 'entry' && op.op !== 'record') return `unknown op ${JSON.stringify((op as { op: unknown }).op)}`;
  const e = op.entry;
  if (op.op === 'entry' && (!Number.isSafeInteger(op.entry.seq) || op.entry.seq < 0)) return 'entry.seq must be an integer >= 0';
  if (op.op === 'record' && typeof op.entry.sourceId !== 'string') return 'record.sourceId must be a string';
  if (!ROLES.includes(e.role)) return `entry.role ${JSON.stringify(e.role)}`;
  if (!KINDS.includes(e.kind)) return `entry.kind ${JSON.stringify(e.kind)}`;
  if (typeof e.text !== 'string') return 'entry.text must be a string';
  if (typeof e.indexed !== 'boolean') return 'entry.indexed must be a boolean';
  for (const k of ['sourceId', 'parentSourceId', 'author', 'toolName', 'toolStatus', 'firstKeptSourceId'] as const) {
    if (!optType(e[k], 'string')) return `entry.${k} must be a string`;
  }
  if (!optTime(e.ts)) return 'entry.ts must be a finite number';
  return null;
}

export interface LineOutcome {
  ops: IngestOp[];
  /** The LineError's message when the line was refused. */
  refused: string | null;
}

/**
 * Feeds one line. Returns its ops (all storable) or the LineError; anything else — another
 * exception, an op the writer could not store — is thrown as a test failure naming the line.
 */
export function feedChecked(parser: LineParser, line: string, lineNo: number): LineOutcome {
  let ops: IngestOp[];
  try {
    ops = parser.line(line, lineNo);
  } catch (err) {
    if (err instanceof LineError) return { ops: [], refused: err.message };
    throw new Error(`line ${lineNo} threw ${(err as Error).name}: ${(err as Error).message} (line starts ${JSON.stringify(line.slice(0, 120))})`);
  }
  if (!Array.isArray(ops)) throw new Error(`line ${lineNo}: line() returned ${typeof ops}, not an array`);
  for (const op of ops) {
    const bad = badOp(op);
    if (bad) throw new Error(`line ${lineNo}: unstorable op (${bad}) from ${JSON.stringify(line.slice(0, 120))}`);
  }
  return { ops, refused: null };
}

/** What a folded entry list says, independent of numbering: role, kind and text of each entry. */
export function entryTexts(ops: readonly IngestOp[]): string[] {
  const bySeq = new Map<string, string>();
  for (const op of ops) {
    if (op.op === 'entry') bySeq.set(`${op.conv}\u0000${op.entry.seq}`, `${op.entry.role}/${op.entry.kind}: ${op.entry.text}`);
    else if (op.op === 'record') bySeq.set(`${op.conv}\u0000r:${op.entry.sourceId}`, `${op.entry.role}/${op.entry.kind}: ${op.entry.text}`);
    else if (op.op === 'drop') {
      for (const key of [...bySeq.keys()]) {
        const id = key.slice(key.indexOf('\u0000r:') + 3);
        if (key.startsWith(`${op.conv}\u0000r:`) && (id === op.sourceId || (op.parts && id.startsWith(`${op.sourceId}#`)))) bySeq.delete(key);
      }
    }
  }
  return [...bySeq.values()].sort();
}

/** Items of `want` missing from `got`, counting repeats (a multiset difference). */
export function missingFrom(got: readonly string[], want: readonly string[]): string[] {
  const counts = new Map<string, number>();
  for (const g of got) counts.set(g, (counts.get(g) ?? 0) + 1);
  const missing: string[] = [];
  for (const w of want) {
    const n = counts.get(w) ?? 0;
    if (n === 0) missing.push(w);
    else counts.set(w, n - 1);
  }
  return missing;
}

/**
 * fc.assert with a short failure: the counterexamples here hold megabyte strings and deep values,
 * and the default report prints them whole. No shrinking, for the same reason.
 */
export function checkProperty<Ts extends [unknown, ...unknown[]]>(property: fc.IProperty<Ts>, params: { seed: number; numRuns: number }): void {
  throwIfFailed(fc.check(property, { ...params, endOnFailure: true }), params.seed);
}

export async function checkAsyncProperty<Ts extends [unknown, ...unknown[]]>(property: fc.IAsyncProperty<Ts>, params: { seed: number; numRuns: number }): Promise<void> {
  throwIfFailed(await fc.check(property, { ...params, endOnFailure: true }), params.seed);
}

function throwIfFailed<Ts>(details: fc.RunDetails<Ts>, seed: number): void {
  if (!details.failed) return;
  let example: string;
  try {
    example = JSON.stringify(details.counterexample, (_k, v: unknown) => (typeof v === 'string' && v.length > 300 ? `${v.slice(0, 300)}…(${v.length} chars)` : v)).slice(0, 1500);
  } catch {
    example = '(too deep to print)';
  }
  const cause = details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance);
  throw new Error(`Property failed after ${details.numRuns} run(s) (seed ${seed}, path ${details.counterexamplePath}):\n${cause.slice(0, 1500)}\nCounterexample: ${example}`);
}
