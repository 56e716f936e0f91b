// Turns the lines of one Codex rollout file into ingest ops. Line shapes are declared in
// codex-shapes.ts and turned into text by codex-content.ts; this file keeps the cross-line
// bookkeeping: the session's identity, tool calls waiting for their output, and the user text Codex
// records twice.
import { LineError, type ConversationMeta, type EntryRecord, type IngestOp, type LineParser } from '../types.js';
import { assistantText, callInfo, outputInfo, reasoningText, requestText, sessionIdFromPath, userParts } from './codex-content.js';
import { toCodexLine, type CodexLine, type CodexResponseItem, type CodexSessionMeta } from './codex-shapes.js';
import { baseName, isObject, parseJsonObject, preview, putCapped, SUMMARY_MAX, titleFromText } from './text.js';
import { Stateful } from './stateful.js';

/** Unanswered tool calls kept to settle later; older ones stay 'pending' forever (interrupted). */
const PENDING_CAP = 300;

interface CodexState {
  v: 1;
  key?: string;
  announced?: boolean;
  seq: number;
  titleRank: number;
  summarised?: boolean;
  cwd?: string;
  createdAt?: number;
  updatedAt?: number;
  /** call_id → the tool_call entry, until its output arrives. */
  pending: Record<string, EntryRecord>;
  /** The last user entry's text while nothing else followed it (see userText). */
  lastUser?: string;
}

function isCodexState(v: unknown): v is CodexState {
  return isObject(v) && v.v === 1 && typeof v.seq === 'number' && isObject(v.pending);
}

/** State from a previous parser of the same file; anything unrecognised starts over. */
function restore(raw: unknown): CodexState {
  return isCodexState(raw) ? structuredClone(raw) : { v: 1, seq: 0, titleRank: 0, pending: {} };
}

export class CodexParser extends Stateful<CodexState> implements LineParser {
  private ops: IngestOp[] = [];

  constructor(file: string, state: unknown) {
    super(file, state, restore);
  }

  line(text: string, lineNo: number): IngestOp[] {
    const obj = parseJsonObject(text);
    if (typeof obj === 'string') throw new LineError(obj);
    this.ops = [];
    this.item(toCodexLine(obj), lineNo);
    return this.ops;
  }

  private item(line: CodexLine, lineNo: number): void {
    const ts = line.timestamp;
    switch (line.kind) {
      case 'session_meta':
        return this.sessionMeta(line.meta, ts);
      case 'turn_context':
        this.s.lastUser = undefined; // a new turn: the same text again is a new message
        return this.workspace(line.cwd);
      case 'response_item':
        return this.responseItem(line.item, ts, lineNo);
      case 'compacted':
        return this.compacted(line.message, ts, lineNo);
      case 'user_message':
        // Events mirror the response items (agent_message, agent_reasoning, …) and are skipped,
        // except user_message: some rollouts record the user's text only there.
        return this.userText(line.message, line.images, ts, lineNo);
      case 'task_started':
        this.s.lastUser = undefined;
        return;
    }
  }

  // ---- conversation --------------------------------------------------------------------------

  /** The session id: from session_meta, else from the file name `rollout-…-<uuid>.jsonl`. */
  private conv(): string {
    if (this.s.key === undefined) this.s.key = sessionIdFromPath(this.file) ?? baseName(this.file).replace(/\.jsonl$/, '');
    if (!this.s.announced) {
      this.s.announced = true;
      this.meta({ sessionId: this.s.key });
    }
    return this.s.key;
  }

  private meta(meta: ConversationMeta): void {
    this.ops.push({ op: 'conversation', conv: this.s.key!, meta });
  }

  /** Only the first session_meta names the session: a resumed or forked rollout may repeat others. */
  private sessionMeta(p: CodexSessionMeta, ts: number | undefined): void {
    if (this.s.announced) return;
    this.s.key ??= p.id ?? sessionIdFromPath(this.file);
    this.conv();
    const meta: ConversationMeta = {};
    const created = p.timestamp ?? ts;
    if (created !== undefined) meta.createdAt = this.s.createdAt = created;
    if (p.subagent) meta.isSubagent = true;
    if (p.parentThread) meta.parentKey = p.parentThread;
    if (Object.keys(meta).length > 0) this.meta(meta);
    this.workspace(p.cwd);
  }

  /** session_meta's cwd, then each turn_context's: the latest one is the workspace. */
  private workspace(cwd: string | undefined): void {
    if (cwd === undefined || cwd === this.s.cwd) return;
    this.conv();
    this.s.cwd = cwd;
    this.meta({ workspace: cwd });
  }

  /** A new entry (with the next seq) at this line; lines carry no ids, so the line number is one. */
  private add(fields: Omit<EntryRecord, 'seq' | 'sourceId' | 'ts'>, ts: number | undefined, lineNo: number): EntryRecord {
    this.conv();
    if (ts !== undefined) {
      const meta: ConversationMeta = {};
      if (this.s.createdAt === undefined) meta.createdAt = this.s.createdAt = ts;
      if (ts > (this.s.updatedAt ?? -Infinity)) meta.updatedAt = this.s.updatedAt = ts;
      if (Object.keys(meta).length > 0) this.meta(meta);
    }
    const entry: EntryRecord = { seq: this.s.seq++, sourceId: `line:${lineNo}`, ts, ...fields };
    this.ops.push({ op: 'entry', conv: this.s.key!, entry });
    if (fields.role !== 'user') this.s.lastUser = undefined;
    return entry;
  }

  // ---- items ---------------------------------------------------------------------------------

  private responseItem(item: CodexResponseItem, ts: number | undefined, lineNo: number): void {
    switch (item.type) {
      case 'message':
        return this.message(item, ts, lineNo);
      case 'reasoning': {
        const text = reasoningText(item);
        if (text) this.add({ role: 'assistant', kind: 'thinking', text, indexed: false }, ts, lineNo);
        return;
      }
      case 'call_output':
        return this.output(item, ts, lineNo);
      case 'call':
        return this.call(item, ts, lineNo);
    }
  }

  private message(p: Extract<CodexResponseItem, { type: 'message' }>, ts: number | undefined, lineNo: number): void {
    if (p.role === 'user') {
      const { text, images } = userParts(p.content);
      this.userText(text, images, ts, lineNo);
    } else if (p.role === 'assistant') {
      const text = assistantText(p.content);
      if (!text.trim()) return;
      this.add({ role: 'assistant', kind: 'message', text, indexed: true }, ts, lineNo);
      if (!this.s.summarised) {
        this.s.summarised = true;
        this.meta({ summary: preview(text, SUMMARY_MAX) });
      }
    }
    // developer and system messages are instructions Codex assembled, not conversation.
  }

  /**
   * Codex records the user's text twice, as a response item and as a user_message event, in
   * either order, and some rollouts have only one of them. The second copy of the same text with
   * nothing in between (no other entry, no new turn) is dropped.
   */
  private userText(text: string, images: number, ts: number | undefined, lineNo: number): void {
    const key = text.trim();
    if (key === '' && images === 0) return;
    if (this.s.lastUser === key) return;
    const body = [text, ...Array<string>(images).fill('[image]')].filter((s) => s !== '').join('\n');
    this.add({ role: 'user', kind: 'message', text: body, indexed: true }, ts, lineNo);
    this.s.lastUser = key;
    if (this.s.titleRank === 0) {
      const title = titleFromText(requestText(text));
      if (title) {
        this.s.titleRank = 1;
        this.meta({ title, titleRank: 1 });
      }
    }
  }

  private call(item: Extract<CodexResponseItem, { type: 'call' }>, ts: number | undefined, lineNo: number): void {
    const info = callInfo(item);
    const fields = { text: info.text, toolName: info.name, toolStatus: info.status };
    const entry = this.add({ ...fields, role: 'tool', kind: 'tool_call', indexed: false }, ts, lineNo);
    if (info.callId) putCapped(this.s.pending, info.callId, entry, PENDING_CAP);
  }

  private output(item: Extract<CodexResponseItem, { type: 'call_output' }>, ts: number | undefined, lineNo: number): void {
    const { text, status } = outputInfo(item.output);
    const callId = item.callId;
    const call = callId !== undefined ? this.s.pending[callId] : undefined;
    if (call && callId !== undefined) {
      delete this.s.pending[callId];
      this.ops.push({ op: 'entry', conv: this.conv(), entry: { ...call, toolStatus: status } });
    }
    this.add({ role: 'tool', kind: 'tool_result', text, indexed: false, toolName: call?.toolName, toolStatus: status }, ts, lineNo);
  }

  /**
   * A `compacted` line replaces the history before it with a summary. What the model sees next
   * starts with that summary, so the boundary's first kept entry is the compaction entry itself
   * (equivalently: nothing before it is kept; the next entry is the first one after it). Its own
   * sourceId resolves at once, where the next entry's would need a re-emit once it arrives.
   */
  private compacted(message: string | undefined, ts: number | undefined, lineNo: number): void {
    const text = message ?? '[context compacted]';
    this.add({ role: 'system', kind: 'compaction', text, indexed: false, firstKeptSourceId: `line:${lineNo}` }, ts, lineNo);
  }
}
