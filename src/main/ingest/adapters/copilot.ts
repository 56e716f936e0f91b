// GitHub Copilot CLI adapter. Copilot writes one event log per session under
// `~/.copilot/session-state/` (COPILOT_HOME moves `~/.copilot`): `<session id>/events.jsonl` since 1.0,
// `<session id>.jsonl` before. Each line is an event `{type, data, id, timestamp, parentId}`:
// session.start/resume (id, cwd), user.message, assistant.message (text, reasoning, toolRequests),
// assistant.reasoning, tool.execution_start/complete, subagent.started, session.compaction_complete
// (a checkpoint that replaces the history before it), and bookkeeping events that are skipped.
// Events of a sub-agent carry the parentToolCallId of the task call that started it.
import path from 'node:path';
import { LineError, type ConversationMeta, type IngestOp, type LineAdapter, type LineParser, type SourcedRecord } from '../types.js';
import {
  argSummary,
  baseName,
  dirName,
  isAbsolutePath,
  isObject,
  nonEmpty,
  parseJsonObject,
  parseTs,
  putCapped,
  RESULT_MAX,
  str,
  titleFromText,
  truncate,
  type Json,
} from './text.js';
import { Stateful } from './stateful.js';

const CALL_TEXT_MAX = 500;
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
    const data = isObject(obj.data) ? obj.data : {};
    // Entries are named by their line, not the event id: ids are unique in real logs but not in
    // scrubbed ones, and a repeated id would make one event replace another.
    const id = `L${lineNo}`;
    const ts = parseTs(obj.timestamp);
    this.ops = [];
    try {
      this.event(type, id, data, ts);
    } catch (err) {
      // A record nested deeper than the stack allows (JSON.parse takes it, walking it does not).
      if (err instanceof RangeError) throw new LineError(`copilot: event nested too deeply (${err.message})`);
      throw err;
    }
    return this.ops;
  }

  private event(type: string, id: string, data: Json, ts: number | undefined): void {
    switch (type) {
      case 'session.start':
      case 'session.resume':
        this.start(data, ts);
        break;
      case 'user.message':
        this.user(id, data, ts);
        break;
      case 'assistant.message':
        this.assistant(id, data, ts);
        break;
      case 'assistant.reasoning': {
        const text = nonEmpty(data.content);
        if (text) this.add(data, ts, { sourceId: id, role: 'assistant', kind: 'thinking', text, indexed: false });
        break;
      }
      case 'tool.execution_start':
        this.callStarted(id, data, ts);
        break;
      case 'tool.execution_complete':
        this.callDone(id, data, ts);
        break;
      case 'subagent.started':
        this.subagent(data);
        break;
      case 'session.compaction_complete':
        this.compaction(id, data, ts);
        break;
      case 'session.error':
      case 'abort': {
        const text = nonEmpty(data.message) ?? nonEmpty(data.reason) ?? type;
        this.add(data, ts, { sourceId: id, role: 'system', kind: 'custom', author: type, text, indexed: false });
        break;
      }
      // Model changes, hooks, usage, system prompts, turn markers, shutdown: bookkeeping, not conversation.
    }
  }

  /** The session's own conversation, or a sub-agent's (events with a parentToolCallId). */
  private conv(data: Json): string {
    const key = (this.s.key ??= sessionIdFromPath(this.file));
    const parentCall = nonEmpty(data.parentToolCallId);
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

  private add(data: Json, ts: number | undefined, entry: SourcedRecord): SourcedRecord {
    const conv = this.conv(data);
    const record = { ...entry, ts };
    this.ops.push({ op: 'record', conv, entry: record });
    const cs = this.s.threads[conv]!;
    if (ts !== undefined && ts > (cs.updatedAt ?? -Infinity)) {
      cs.updatedAt = ts;
      this.meta(conv, { updatedAt: ts });
    }
    return record;
  }

  private start(data: Json, ts: number | undefined): void {
    const id = nonEmpty(data.sessionId);
    if (id && this.s.key === undefined) this.s.key = id;
    const conv = this.conv({});
    const cs = this.s.threads[conv]!;
    const meta: ConversationMeta = {};
    const created = parseTs(data.startTime) ?? ts;
    if (created !== undefined) meta.createdAt = created;
    const context = isObject(data.context) ? data.context : {};
    const cwd = context.cwd;
    if (isAbsolutePath(cwd) && cwd !== cs.cwd) meta.workspace = cs.cwd = cwd;
    if (Object.keys(meta).length) this.meta(conv, meta);
  }

  private user(id: string, data: Json, ts: number | undefined): void {
    // `content` is what the user typed; `transformedContent` adds the context Copilot injected.
    const typed = str(data.content) ?? '';
    const attachments = Array.isArray(data.attachments) ? data.attachments.length : 0;
    const text = [typed, ...Array<string>(attachments).fill('[file]')].filter((t) => t.trim()).join('\n');
    if (!text) return;
    this.add(data, ts, { sourceId: id, role: 'user', kind: 'message', text, indexed: true });
    const conv = this.conv(data);
    const cs = this.s.threads[conv]!;
    const title = cs.titleRank === 0 ? titleFromText(typed) : undefined;
    if (title) {
      cs.titleRank = 1;
      this.meta(conv, { title, titleRank: 1 });
    }
  }

  private assistant(id: string, data: Json, ts: number | undefined): void {
    const model = str(data.model);
    const reasoning = nonEmpty(data.reasoningText);
    if (reasoning) this.add(data, ts, { sourceId: `${id}#reasoning`, role: 'assistant', kind: 'thinking', text: reasoning, indexed: false, author: model });
    const text = nonEmpty(data.content);
    if (text) this.add(data, ts, { sourceId: id, role: 'assistant', kind: 'message', text, indexed: true, author: model });
    let calls = 0;
    for (const req of Array.isArray(data.toolRequests) ? data.toolRequests.filter(isObject) : []) {
      const callId = nonEmpty(req.toolCallId);
      if (callId && this.s.pending[callId]) continue; // its tool.execution_start came first
      const entry = this.add(data, ts, {
        sourceId: `${id}#call${calls++}`,
        role: 'tool',
        kind: 'tool_call',
        text: callText(req.arguments),
        indexed: false,
        toolName: str(req.name) ?? 'tool',
        toolStatus: 'pending',
      });
      if (callId) putCapped(this.s.pending, callId, { conv: this.conv(data), entry }, PENDING_CAP);
    }
  }

  /** A call the assistant message did not list (older logs): recorded when it starts. */
  private callStarted(id: string, data: Json, ts: number | undefined): void {
    const callId = nonEmpty(data.toolCallId);
    if (!callId || this.s.pending[callId]) return;
    const entry = this.add(data, ts, {
      sourceId: id,
      role: 'tool',
      kind: 'tool_call',
      text: callText(data.arguments),
      indexed: false,
      toolName: str(data.toolName) ?? 'tool',
      toolStatus: 'pending',
    });
    putCapped(this.s.pending, callId, { conv: this.conv(data), entry }, PENDING_CAP);
  }

  private callDone(id: string, data: Json, ts: number | undefined): void {
    const callId = nonEmpty(data.toolCallId);
    const status = data.success === false ? 'error' : 'ok';
    const call = callId ? this.s.pending[callId] : undefined;
    if (call && callId) {
      delete this.s.pending[callId];
      this.ops.push({ op: 'record', conv: call.conv, entry: { ...call.entry, toolStatus: status } });
    }
    this.add(data, ts, { sourceId: id, role: 'tool', kind: 'tool_result', text: resultText(data), indexed: false, toolName: call?.entry.toolName, toolStatus: status });
  }

  /** A sub-agent started by a task call: its conversation is named after the agent. */
  private subagent(data: Json): void {
    const callId = nonEmpty(data.toolCallId);
    if (!callId) return;
    const child = this.conv({ parentToolCallId: callId });
    const name = nonEmpty(data.agentDisplayName) ?? nonEmpty(data.agentName);
    const description = nonEmpty(data.agentDescription);
    const title = [name, description].filter(Boolean).join(': ');
    if (title) this.meta(child, { title, titleRank: 2 });
  }

  /** A checkpoint: the history before it is replaced by a summary; nothing before it stays in context. */
  private compaction(id: string, data: Json, ts: number | undefined): void {
    if (data.success === false) return;
    const checkpoint = typeof data.checkpointNumber === 'number' ? ` (checkpoint ${data.checkpointNumber})` : '';
    const text = nonEmpty(data.summaryContent) ?? `[context compacted${checkpoint}]`;
    this.add(data, ts, { sourceId: id, role: 'system', kind: 'compaction', text, indexed: false, firstKeptSourceId: id });
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
function resultText(data: Json): string {
  const result = data.result;
  if (isObject(result)) {
    const text = str(result.content) ?? str(result.detailedContent) ?? str(result.textResultForLlm);
    if (text !== undefined) return truncate(text, RESULT_MAX);
  }
  if (typeof result === 'string') return truncate(result, RESULT_MAX);
  const error = isObject(data.error) ? str(data.error.message) : str(data.error);
  return truncate(error ?? (result === undefined ? '' : (JSON.stringify(result) ?? '')), RESULT_MAX);
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
