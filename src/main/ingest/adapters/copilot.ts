// GitHub Copilot CLI adapter. Copilot writes one event log per session under
// `~/.copilot/session-state/` (COPILOT_HOME moves `~/.copilot`): `<session id>/events.jsonl` since 1.0,
// `<session id>.jsonl` before. Each line is an event `{type, data, id, timestamp, parentId}`:
// session.start/resume (id, cwd), user.message, assistant.message (text, reasoning, toolRequests),
// assistant.reasoning, tool.execution_start/complete, subagent.started, session.compaction_complete
// (a checkpoint that replaces the history before it), and bookkeeping events that are skipped.
// Events of a sub-agent carry the parentToolCallId of the task call that started it.
import path from 'node:path';
import { LineError, type ConversationMeta, type IngestOp, type LineAdapter, type LineParser, type SourcedRecord } from '../types.js';
import { toCopilotEvent, type CopilotEvent } from './copilot-shapes.js';
import { argSummary, baseName, dirName, isObject, parseJsonObject, putCapped, RESULT_MAX, str, titleFromText, truncate } from './text.js';
import { Stateful } from './stateful.js';

const CALL_TEXT_MAX = 500;

type Event<T extends CopilotEvent['type']> = Extract<CopilotEvent, { type: T }>;
/** Calls waiting for their result; older ones stay 'pending' (an interrupted turn). */
const PENDING_CAP = 300;

interface ConvState {
  titleRank: number;
  cwd?: string;
  updatedAt?: number;
}

interface CopilotState {
  v: 'copilot-1';
  key?: string;
  threads: Record<string, ConvState>;
  /** toolCallId → the call's record, until its result arrives. */
  pending: Record<string, { conv: string; entry: SourcedRecord }>;
}

function restore(raw: unknown): CopilotState {
  if (isObject(raw) && raw.v === 'copilot-1' && isObject(raw.threads) && isObject(raw.pending)) return structuredClone(raw) as unknown as CopilotState;
  return { v: 'copilot-1', threads: {}, pending: {} };
}

/** `<id>/events.jsonl` → id; `<id>.jsonl` → id. */
function sessionIdFromPath(file: string): string {
  const name = baseName(file);
  return name === 'events.jsonl' ? baseName(dirName(file)) : name.replace(/\.jsonl$/, '');
}

class CopilotParser extends Stateful<CopilotState> implements LineParser {
  private ops: IngestOp[] = [];

  constructor(file: string, state: unknown) {
    super(file, state, restore);
  }

  line(text: string, lineNo: number): IngestOp[] {
    const obj = parseJsonObject(text);
    if (typeof obj === 'string') throw new LineError(`copilot: ${obj}`);
    const type = str(obj.type);
    if (!type) throw new LineError('copilot: event has no "type"');
    // Entries are named by their line, not the event id: ids are unique in real logs but not in
    // scrubbed ones, and a repeated id would make one event replace another.
    const id = `L${lineNo}`;
    this.ops = [];
    try {
      this.event(id, toCopilotEvent(type, obj));
    } catch (err) {
      // A record nested deeper than the stack allows (JSON.parse takes it, walking it does not).
      if (err instanceof RangeError) throw new LineError(`copilot: event nested too deeply (${err.message})`);
      throw err;
    }
    return this.ops;
  }

  private event(id: string, e: CopilotEvent): void {
    switch (e.type) {
      case 'session.start':
      case 'session.resume':
        return this.start(e);
      case 'user.message':
        return this.user(id, e);
      case 'assistant.message':
        return this.assistant(id, e);
      case 'assistant.reasoning':
        if (e.content) this.add(e, { sourceId: id, role: 'assistant', kind: 'thinking', text: e.content, indexed: false });
        return;
      case 'tool.execution_start':
        return this.callStarted(id, e);
      case 'tool.execution_complete':
        return this.callDone(id, e);
      case 'subagent.started':
        return this.subagent(e);
      case 'session.compaction_complete':
        return this.compaction(id, e);
      case 'session.error':
      case 'abort':
        this.add(e, { sourceId: id, role: 'system', kind: 'custom', author: e.type, text: e.message ?? e.type, indexed: false });
        return;
    }
  }

  /** The session's own conversation, or a sub-agent's (events with a parentToolCallId). */
  private conv(parentCall: string | undefined): string {
    const key = (this.s.key ??= sessionIdFromPath(this.file));
    const conv = parentCall ? `${key}/${parentCall}` : key;
    if (!this.s.threads[conv]) {
      this.s.threads[conv] = { titleRank: 0 };
      const meta: ConversationMeta = { sessionId: conv };
      if (parentCall) Object.assign(meta, { parentKey: key, isSubagent: true });
      this.ops.push({ op: 'conversation', conv, meta });
    }
    return conv;
  }

  private meta(conv: string, meta: ConversationMeta): void {
    this.ops.push({ op: 'conversation', conv, meta });
  }

  private add(e: CopilotEvent, entry: SourcedRecord): SourcedRecord {
    const conv = this.conv(e.parentToolCallId);
    const ts = e.timestamp;
    const record = { ...entry, ts };
    this.ops.push({ op: 'record', conv, entry: record });
    const cs = this.s.threads[conv]!;
    if (ts !== undefined && ts > (cs.updatedAt ?? -Infinity)) {
      cs.updatedAt = ts;
      this.meta(conv, { updatedAt: ts });
    }
    return record;
  }

  private start(e: Event<'session.start' | 'session.resume'>): void {
    if (e.sessionId && this.s.key === undefined) this.s.key = e.sessionId;
    const conv = this.conv(undefined);
    const cs = this.s.threads[conv]!;
    const meta: ConversationMeta = {};
    const created = e.startTime ?? e.timestamp;
    if (created !== undefined) meta.createdAt = created;
    if (e.cwd !== undefined && e.cwd !== cs.cwd) meta.workspace = cs.cwd = e.cwd;
    if (Object.keys(meta).length) this.meta(conv, meta);
  }

  private user(id: string, e: Event<'user.message'>): void {
    const typed = e.content;
    const text = [typed, ...Array<string>(e.attachments).fill('[file]')].filter((t) => t.trim()).join('\n');
    if (!text) return;
    this.add(e, { sourceId: id, role: 'user', kind: 'message', text, indexed: true });
    const conv = this.conv(e.parentToolCallId);
    const cs = this.s.threads[conv]!;
    const title = cs.titleRank === 0 ? titleFromText(typed) : undefined;
    if (title) {
      cs.titleRank = 1;
      this.meta(conv, { title, titleRank: 1 });
    }
  }

  private assistant(id: string, e: Event<'assistant.message'>): void {
    const model = e.model;
    if (e.reasoningText) this.add(e, { sourceId: `${id}#reasoning`, role: 'assistant', kind: 'thinking', text: e.reasoningText, indexed: false, author: model });
    if (e.content) this.add(e, { sourceId: id, role: 'assistant', kind: 'message', text: e.content, indexed: true, author: model });
    let calls = 0;
    for (const req of e.toolRequests) {
      const callId = req.toolCallId;
      if (callId && this.s.pending[callId]) continue; // its tool.execution_start came first
      const entry = this.add(e, {
        sourceId: `${id}#call${calls++}`,
        role: 'tool',
        kind: 'tool_call',
        text: callText(req.arguments),
        indexed: false,
        toolName: req.name ?? 'tool',
        toolStatus: 'pending',
      });
      if (callId) putCapped(this.s.pending, callId, { conv: this.conv(e.parentToolCallId), entry }, PENDING_CAP);
    }
  }

  /** A call the assistant message did not list (older logs): recorded when it starts. */
  private callStarted(id: string, e: Event<'tool.execution_start'>): void {
    const callId = e.toolCallId;
    if (!callId || this.s.pending[callId]) return;
    const entry = this.add(e, {
      sourceId: id,
      role: 'tool',
      kind: 'tool_call',
      text: callText(e.arguments),
      indexed: false,
      toolName: e.toolName ?? 'tool',
      toolStatus: 'pending',
    });
    putCapped(this.s.pending, callId, { conv: this.conv(e.parentToolCallId), entry }, PENDING_CAP);
  }

  private callDone(id: string, e: Event<'tool.execution_complete'>): void {
    const callId = e.toolCallId;
    const status = e.failed ? 'error' : 'ok';
    const call = callId ? this.s.pending[callId] : undefined;
    if (call && callId) {
      delete this.s.pending[callId];
      this.ops.push({ op: 'record', conv: call.conv, entry: { ...call.entry, toolStatus: status } });
    }
    this.add(e, { sourceId: id, role: 'tool', kind: 'tool_result', text: resultText(e), indexed: false, toolName: call?.entry.toolName, toolStatus: status });
  }

  /** A sub-agent started by a task call: its conversation is named after the agent. */
  private subagent(e: Event<'subagent.started'>): void {
    const callId = e.toolCallId;
    if (!callId) return;
    const child = this.conv(callId);
    const title = [e.agentName, e.agentDescription].filter(Boolean).join(': ');
    if (title) this.meta(child, { title, titleRank: 2 });
  }

  /** A checkpoint: the history before it is replaced by a summary; nothing before it stays in context. */
  private compaction(id: string, e: Event<'session.compaction_complete'>): void {
    if (e.failed) return;
    const checkpoint = e.checkpointNumber !== undefined ? ` (checkpoint ${e.checkpointNumber})` : '';
    const text = e.summaryContent ?? `[context compacted${checkpoint}]`;
    this.add(e, { sourceId: id, role: 'system', kind: 'compaction', text, indexed: false, firstKeptSourceId: id });
  }
}

function callText(args: unknown): string {
  if (typeof args === 'string') {
    try {
      return argSummary(JSON.parse(args) as unknown, CALL_TEXT_MAX);
    } catch {
      return truncate(args, CALL_TEXT_MAX);
    }
  }
  return argSummary(args, CALL_TEXT_MAX);
}

/** A tool result: `result.content` (or detailedContent), else an error message, else its JSON. */
function resultText(e: Event<'tool.execution_complete'>): string {
  if (e.result.text !== undefined) return truncate(e.result.text, RESULT_MAX);
  const raw = e.result.raw;
  return truncate(e.error ?? (raw === undefined ? '' : (JSON.stringify(raw) ?? '')), RESULT_MAX);
}

export const copilotAdapter: LineAdapter = {
  kind: 'copilot',
  defaultRoots(env, home) {
    const copilotHome = env.COPILOT_HOME?.trim();
    return [path.join(copilotHome || path.join(home, '.copilot'), 'session-state')];
  },
  isSessionFile(file) {
    const name = baseName(file);
    if (name === 'events.jsonl') return true;
    // Before 1.0: `session-state/<id>.jsonl`, directly in the root.
    return name.endsWith('.jsonl') && baseName(dirName(file)) === 'session-state';
  },
  createParser: (file, state) => new CopilotParser(file, state),
};
