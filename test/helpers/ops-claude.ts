// Test helpers for line adapters: drive a parser over a file's lines and fold the ops the way the
// store applies them (entries upserted by seq, titles by rank), so tests can assert by value.
// Not Claude-specific despite the name: the Codex tests use it too.
import fs from 'node:fs';
import { LineError, type LineAdapter, type ConversationMeta, type EntryRecord, type IngestOp } from '../../src/main/ingest/types.js';

export interface Folded {
  meta: ConversationMeta;
  entries: Map<number, EntryRecord>;
}

export type Fold = Map<string, Folded>;

export interface Run {
  ops: IngestOp[];
  errors: { lineNo: number; error: unknown }[];
  state: unknown;
}

/** Complete lines of a file: split on '\n', the last (partial or empty) piece dropped, CR stripped. */
export function fileLines(file: string): string[] {
  return linesOf(fs.readFileSync(file, 'utf8'));
}

export function linesOf(text: string): string[] {
  const lines = text.split('\n');
  lines.pop();
  return lines.map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l));
}

/** Feeds lines to a new parser like the pipeline does (blank lines skipped, errors recorded). */
export function run(adapter: LineAdapter, file: string, lines: readonly string[], opts: { state?: unknown; firstLineNo?: number } = {}): Run {
  const parser = adapter.createParser(file, opts.state);
  const ops: IngestOp[] = [];
  const errors: Run['errors'] = [];
  let lineNo = (opts.firstLineNo ?? 1) - 1;
  for (const line of lines) {
    lineNo++;
    if (line.trim() === '') continue;
    try {
      ops.push(...parser.line(line, lineNo));
    } catch (error) {
      errors.push({ lineNo, error });
    }
  }
  return { ops, errors, state: parser.state() };
}

/** Parses a whole file in one pass; throws if any line failed, since fixtures are well-formed. */
export function parseFile(adapter: LineAdapter, file: string, parserPath = file): Fold {
  const r = run(adapter, parserPath, fileLines(file));
  if (r.errors.length > 0) throw new Error(`line ${r.errors[0]!.lineNo}: ${String(r.errors[0]!.error)}`);
  return fold(r.ops);
}

/** Applies ops like the store: a title only replaces one of the same or lower rank. */
export function fold(ops: readonly IngestOp[], into: Fold = new Map()): Fold {
  for (const op of ops) {
    let c = into.get(op.conv);
    if (!c) {
      c = { meta: {}, entries: new Map() };
      into.set(op.conv, c);
    }
    if (op.op === 'entry') c.entries.set(op.entry.seq, op.entry);
    else if (op.op === 'conversation') mergeMeta(c.meta, op.meta);
  }
  return into;
}

function mergeMeta(m: ConversationMeta, next: ConversationMeta): void {
  const { title, titleRank, createdAt, updatedAt, ...rest } = next;
  for (const [k, v] of Object.entries(rest)) if (v !== undefined) Object.assign(m, { [k]: v });
  if (createdAt !== undefined) m.createdAt = Math.min(m.createdAt ?? createdAt, createdAt);
  if (updatedAt !== undefined) m.updatedAt = Math.max(m.updatedAt ?? updatedAt, updatedAt);
  if (title !== undefined && (titleRank ?? 0) >= (m.titleRank ?? 0)) {
    m.title = title;
    m.titleRank = titleRank ?? 0;
  }
}

/** A conversation's entries in seq order. */
export function entries(f: Fold, conv: string): EntryRecord[] {
  const c = f.get(conv);
  if (!c) throw new Error(`no conversation ${conv}; have ${[...f.keys()].join(', ')}`);
  return [...c.entries.values()].sort((a, b) => a.seq - b.seq);
}

/** Counts entries by `role/kind`, e.g. { 'user/message': 3, 'tool/tool_call': 2 }. */
export function countKinds(list: readonly EntryRecord[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const e of list) out[`${e.role}/${e.kind}`] = (out[`${e.role}/${e.kind}`] ?? 0) + 1;
  return out;
}

/** Plain-object view of a fold, for toEqual between two folds. */
export function snapshot(f: Fold): Record<string, { meta: ConversationMeta; entries: EntryRecord[] }> {
  const out: Record<string, { meta: ConversationMeta; entries: EntryRecord[] }> = {};
  for (const key of [...f.keys()].sort()) out[key] = { meta: f.get(key)!.meta, entries: entries(f, key) };
  return out;
}

/** Parses `lines` in two parts, the second by a new parser resumed from the JSON of the first's state. */
export function parseResumed(adapter: LineAdapter, file: string, lines: readonly string[], cut: number): Fold {
  const first = run(adapter, file, lines.slice(0, cut));
  const state: unknown = JSON.parse(JSON.stringify(first.state));
  const second = run(adapter, file, lines.slice(cut), { state, firstLineNo: cut + 1 });
  return fold(second.ops, fold(first.ops));
}

export function isLineError(e: unknown): e is LineError {
  return e instanceof LineError;
}
