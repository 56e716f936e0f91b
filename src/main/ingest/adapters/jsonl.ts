// Throughline's own import format, so any agent or script can feed conversations in: one JSON object
// per line, `type` saying what it is. docs/import-format.md is the reference; in short:
//   {"type":"conversation","id":"c1","workspace":"/p","title":"…","created":"ISO","parent":"c0"}
//   {"type":"message","role":"user|assistant|tool|system","text":"…","ts":"ISO","id":"m1"}
//   {"type":"compaction","text":"summary","firstKept":"m1"}   {"type":"handoff","text":"…"}
//   {"type":"leaf","id":"m1"}
// Lines without "conversation" belong to the conversation of the last conversation line.
// Entries chain linearly unless they name a `parent`; a conversation that uses `parent` or `leaf`
// is a tree, and then each new entry (or leaf line) moves the active leaf, as in pi.
import { isAbsolute, join } from 'node:path';
import type { EntryKind, Role } from '../../../shared/types.js';
import type { LineAdapter, ConversationMeta, EntryRecord, IngestOp, LineParser } from '../types.js';
import { LineError } from '../types.js';

type Json = Record<string, unknown>;

/** An explicit title is the importer's word; the first user message is only a guess. */
const TITLE_RANK_EXPLICIT = 3;
const TITLE_RANK_FIRST_MESSAGE = 1;
const TITLE_MAX = 80;
const SUMMARY_MAX = 300;

const ROLES: readonly Role[] = ['user', 'assistant', 'tool', 'system'];
/** Kinds a `message` line may carry; compaction and reset have line types of their own. */
const MESSAGE_KINDS: readonly EntryKind[] = ['message', 'thinking', 'tool_call', 'tool_result', 'bash', 'custom'];

interface ConvState {
  seq: number;
  /** Source id of the newest entry: the default parent of the next one. */
  last?: string;
  titleRank: number;
  updatedAt?: number;
  tree: boolean;
}

export interface JsonlState {
  current?: string;
  convs: Record<string, ConvState>;
}

function isObject(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function optString(obj: Json, key: string): string | undefined {
  const v = obj[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string') throw new LineError(`jsonl: "${key}" must be a string`);
  return v;
}

function requiredString(obj: Json, key: string, type: string): string {
  const v = optString(obj, key);
  if (v === undefined) throw new LineError(`jsonl: a "${type}" line needs "${key}" as a string`);
  return v;
}

/** ISO date string or epoch milliseconds; anything else is a mistake worth reporting. */
function optTime(obj: Json, key: string): number | undefined {
  const v = obj[key];
  if (v === undefined || v === null) return undefined;
  const t = typeof v === 'number' ? v : typeof v === 'string' ? Date.parse(v) : NaN;
  if (!Number.isFinite(t)) throw new LineError(`jsonl: "${key}" must be an ISO date or epoch milliseconds`);
  return t;
}

function clip(text: string, max: number): string {
  const t = text.trim();
  return t.length <= max ? t : `${t.slice(0, max - 1).trimEnd()}…`;
}

/** A state this parser wrote: only its own keys, each conversation with its counters (another adapter's is not). */
function loadState(raw: unknown): JsonlState {
  const own = (v: unknown) => isObject(v) && typeof v.seq === 'number' && typeof v.titleRank === 'number' && typeof v.tree === 'boolean';
  if (
    isObject(raw) &&
    isObject(raw.convs) &&
    Object.keys(raw).every((k) => k === 'current' || k === 'convs') &&
    Object.values(raw.convs).every(own)
  ) {
    return raw as unknown as JsonlState;
  }
  return { convs: {} };
}

export class JsonlParser implements LineParser {
  private readonly s: JsonlState;

  constructor(state: unknown) {
    this.s = structuredClone(loadState(state));
  }

  state(): JsonlState {
    return structuredClone(this.s);
  }

  line(text: string, lineNo: number): IngestOp[] {
    if (text.trim() === '') return [];
    let obj: unknown;
    try {
      obj = JSON.parse(text);
    } catch {
      throw new LineError('jsonl: line is not valid JSON');
    }
    if (!isObject(obj)) throw new LineError('jsonl: line is not a JSON object');
    switch (obj.type) {
      case 'conversation':
        return this.conversation(obj);
      case 'message':
        return this.message(obj, lineNo);
      case 'compaction':
        return this.compaction(obj, lineNo);
      case 'handoff':
        return this.handoff(obj, lineNo);
      case 'leaf':
        return this.leaf(obj);
      case undefined:
        throw new LineError('jsonl: line has no "type"');
      default:
        return []; // a newer writer's line type: skip it, so the format can grow
    }
  }

  private conversation(obj: Json): IngestOp[] {
    const id = requiredString(obj, 'id', 'conversation');
    const ops = this.touch(id);
    this.s.current = id;
    const c = this.s.convs[id];
    const meta: ConversationMeta = {
      workspace: optString(obj, 'workspace'),
      summary: optString(obj, 'summary'),
      createdAt: optTime(obj, 'created'),
      parentKey: optString(obj, 'parent'),
    };
    if (typeof obj.subagent === 'boolean') meta.isSubagent = obj.subagent;
    const title = optString(obj, 'title')?.trim();
    if (title) {
      meta.title = title;
      meta.titleRank = c.titleRank = TITLE_RANK_EXPLICIT;
    }
    return [...ops, { op: 'conversation', conv: id, meta }];
  }

  private message(obj: Json, lineNo: number): IngestOp[] {
    const role = requiredString(obj, 'role', 'message') as Role;
    if (!ROLES.includes(role)) throw new LineError(`jsonl: unknown role "${role}" (use ${ROLES.join(', ')})`);
    const text = requiredString(obj, 'text', 'message');
    const kind = (optString(obj, 'kind') ?? (role === 'tool' ? 'tool_result' : 'message')) as EntryKind;
    if (!MESSAGE_KINDS.includes(kind)) throw new LineError(`jsonl: unknown kind "${kind}"`);
    const tool = obj.tool === undefined ? {} : obj.tool;
    if (!isObject(tool)) throw new LineError('jsonl: "tool" must be an object {name, status}');
    const draft = {
      role,
      kind,
      text,
      indexed: kind === 'message' && (role === 'user' || role === 'assistant'),
      author: optString(obj, 'author'),
      toolName: optString(tool, 'name'),
      toolStatus: optString(tool, 'status'),
    };
    return this.append(obj, lineNo, draft, (conv) => this.titleFrom(conv, draft.role, draft.kind, text));
  }

  private compaction(obj: Json, lineNo: number): IngestOp[] {
    const text = requiredString(obj, 'text', 'compaction');
    const draft = { role: 'system' as const, kind: 'compaction' as const, text, indexed: false };
    const firstKept = optString(obj, 'firstKept');
    const summary = (): ConversationMeta | undefined => (text.trim() ? { summary: clip(text, SUMMARY_MAX) } : undefined);
    return this.append(obj, lineNo, { ...draft, firstKeptSourceId: firstKept }, summary);
  }

  private handoff(obj: Json, lineNo: number): IngestOp[] {
    const text = optString(obj, 'text') ?? '';
    return this.append(obj, lineNo, { role: 'system', kind: 'reset', text, indexed: false }, () => undefined);
  }

  private leaf(obj: Json): IngestOp[] {
    const id = requiredString(obj, 'id', 'leaf');
    const conv = this.target(obj);
    const ops = this.touch(conv);
    this.s.convs[conv].tree = true;
    return [...ops, { op: 'leaf', conv, sourceId: id }];
  }

  /** Place an entry in its conversation: seq, source id, parent, leaf and conversation times. */
  private append(
    obj: Json,
    lineNo: number,
    draft: Omit<EntryRecord, 'seq' | 'sourceId' | 'parentSourceId' | 'ts'>,
    extraMeta: (conv: string) => ConversationMeta | undefined,
  ): IngestOp[] {
    const conv = this.target(obj);
    const ops = this.touch(conv);
    const c = this.s.convs[conv];
    const ts = optTime(obj, 'ts');
    // Lines without an id still need one for the parent chain; the line number is stable per file.
    const sourceId = optString(obj, 'id') ?? `#${lineNo}`;
    const parent = optString(obj, 'parent');
    if (parent !== undefined) c.tree = true;
    const entry: EntryRecord = { ...draft, seq: c.seq++, sourceId, parentSourceId: parent ?? c.last, ts };
    c.last = sourceId;
    ops.push({ op: 'entry', conv, entry });
    if (c.tree) ops.push({ op: 'leaf', conv, sourceId });
    const meta: ConversationMeta = { ...extraMeta(conv) };
    if (ts !== undefined && (c.updatedAt === undefined || ts > c.updatedAt)) meta.updatedAt = c.updatedAt = ts;
    if (Object.keys(meta).length > 0) ops.push({ op: 'conversation', conv, meta });
    return ops;
  }

  private titleFrom(conv: string, role: Role, kind: EntryKind, text: string): ConversationMeta | undefined {
    const c = this.s.convs[conv];
    if (role !== 'user' || kind !== 'message' || c.titleRank >= TITLE_RANK_FIRST_MESSAGE) return undefined;
    const line = text.split('\n').find((l) => l.trim());
    if (!line) return undefined;
    c.titleRank = TITLE_RANK_FIRST_MESSAGE;
    return { title: clip(line, TITLE_MAX), titleRank: TITLE_RANK_FIRST_MESSAGE };
  }

  /** The conversation a line belongs to: its own "conversation" field, else the current one. */
  private target(obj: Json): string {
    const conv = optString(obj, 'conversation') ?? this.s.current;
    if (conv === undefined) throw new LineError('jsonl: line before any "conversation" line and without "conversation"');
    return conv;
  }

  /** First sight of a conversation: create it (the store needs a session id from the start). */
  private touch(conv: string): IngestOp[] {
    if (this.s.convs[conv]) return [];
    this.s.convs[conv] = { seq: 0, titleRank: 0, tree: false };
    return [{ op: 'conversation', conv, meta: { sessionId: conv } }];
  }
}

export const jsonlAdapter: LineAdapter = {
  kind: 'jsonl',
  defaultRoots(env, home) {
    // XDG: only an absolute XDG_DATA_HOME counts; otherwise the spec's default ~/.local/share.
    const xdg = env.XDG_DATA_HOME;
    const dataHome = xdg && isAbsolute(xdg) ? xdg : join(home, '.local', 'share');
    return [join(dataHome, 'throughline', 'import')];
  },
  isSessionFile: (path) => path.endsWith('.jsonl'),
  createParser: (_path, state) => new JsonlParser(state),
};
