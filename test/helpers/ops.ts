// Test helpers for adapters: feed lines to a parser, fold the ops the way the store does
// (upsert by seq, rank-aware titles, latest leaf), and walk the active path of a tree.
import type { LineAdapter, ConversationMeta, EntryRecord, IngestOp, LineParser } from '../../src/main/ingest/types.js';
import { LineError } from '../../src/main/ingest/types.js';

export interface LineFailure {
  lineNo: number;
  message: string;
}

export interface Fed {
  ops: IngestOp[];
  errors: LineFailure[];
}

/** Complete lines of a file: a trailing piece without its newline is not a line yet. */
export function completeLines(text: string): string[] {
  const lines = text.split('\n');
  lines.pop();
  return lines;
}

/** Feed lines (numbered from `firstLineNo`), recording LineErrors as the pipeline does. */
export function feed(parser: LineParser, lines: string[], firstLineNo = 1): Fed {
  const ops: IngestOp[] = [];
  const errors: LineFailure[] = [];
  lines.forEach((line, i) => {
    try {
      ops.push(...parser.line(line, firstLineNo + i));
    } catch (err) {
      if (!(err instanceof LineError)) throw err;
      errors.push({ lineNo: firstLineNo + i, message: err.message });
    }
  });
  return { ops, errors };
}

export function parseAll(adapter: LineAdapter, path: string, text: string): Fed {
  return feed(adapter.createParser(path, undefined), completeLines(text));
}

/** Parse `cut` lines, store state() as the pipeline would (JSON text), resume with a new parser. */
export function parseResumed(adapter: LineAdapter, path: string, text: string, cut: number): Fed & { stateJson: string } {
  const lines = completeLines(text);
  const parser = adapter.createParser(path, undefined);
  const first = feed(parser, lines.slice(0, cut));
  const stateJson = JSON.stringify(parser.state());
  const rest = feed(adapter.createParser(path, JSON.parse(stateJson)), lines.slice(cut), cut + 1);
  return { ops: [...first.ops, ...rest.ops], errors: [...first.errors, ...rest.errors], stateJson };
}

export interface FoldedConversation {
  meta: ConversationMeta;
  entries: EntryRecord[]; // by seq
  leaf?: string;
}

/** Apply ops like the store: entries upsert by seq, titles respect titleRank, last leaf wins. */
export function fold(ops: IngestOp[]): Map<string, FoldedConversation> {
  const convs = new Map<string, { meta: ConversationMeta; bySeq: Map<number, EntryRecord>; leaf?: string }>();
  const get = (conv: string) => {
    let c = convs.get(conv);
    if (!c) convs.set(conv, (c = { meta: {}, bySeq: new Map() }));
    return c;
  };
  for (const op of ops) {
    const c = get(op.conv);
    if (op.op === 'entry') c.bySeq.set(op.entry.seq, op.entry);
    else if (op.op === 'leaf') c.leaf = op.sourceId;
    else if (op.op === 'conversation') mergeMeta(c.meta, op.meta);
  }
  const out = new Map<string, FoldedConversation>();
  for (const [k, c] of convs) {
    const entries = [...c.bySeq.values()].sort((a, b) => a.seq - b.seq);
    out.set(k, { meta: c.meta, entries, leaf: c.leaf });
  }
  return out;
}

function mergeMeta(into: ConversationMeta, meta: ConversationMeta): void {
  const { title, titleRank, ...rest } = meta;
  for (const [key, value] of Object.entries(rest)) {
    if (value !== undefined) Object.assign(into, { [key]: value });
  }
  if (title !== undefined && (titleRank ?? 0) >= (into.titleRank ?? 0)) {
    into.title = title;
    into.titleRank = titleRank ?? 0;
  }
}

/** The single conversation a file yields (throws otherwise). */
export function only(folded: Map<string, FoldedConversation>): FoldedConversation {
  if (folded.size !== 1) throw new Error(`expected exactly one conversation, got ${folded.size}`);
  const [conv] = folded.values();
  return conv;
}

/** Source ids on the path root→leaf, walking parentSourceId as the store does. */
export function activePath(conv: FoldedConversation): Set<string> {
  const bySource = new Map<string, EntryRecord>();
  for (const e of conv.entries) if (e.sourceId) bySource.set(e.sourceId, e);
  const path = new Set<string>();
  let cur = conv.leaf ? bySource.get(conv.leaf) : undefined;
  while (cur?.sourceId && !path.has(cur.sourceId)) {
    path.add(cur.sourceId);
    cur = cur.parentSourceId ? bySource.get(cur.parentSourceId) : undefined;
  }
  return path;
}

/** "kind/role" → count, for by-value assertions on what a file yields. */
export function countKinds(entries: EntryRecord[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const e of entries) {
    const key = `${e.kind}/${e.role}`;
    counts[key] = (counts[key] ?? 0) + 1;
  }
  return counts;
}
