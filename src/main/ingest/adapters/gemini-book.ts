// The conversation of one Gemini CLI session file, shared by the JSONL parser (gemini.ts) and the
// reader of the older whole-file JSON. Gemini keeps messages by id: a message written again (tokens
// or tool calls added) replaces the earlier copy, `{$rewindTo: id}` takes that message and all after
// it back, and `{$set: {messages}}` replaces the whole list (a resume syncing its history, an aborted
// turn rolled back, or a compression: then the list starts with the summary and keeps only the
// newest messages). Every entry is a `record` keyed by the message id, so writing one again is one entry.
import { createHash } from 'node:crypto';
import { type ConversationMeta, type IngestOp, type SourcedRecord } from '../types.js';
import {
  callStatus,
  callText,
  classifyUserText,
  contentParts,
  geminiPath,
  projectRoot,
  thoughtText,
  toolResultText,
} from './gemini-content.js';
import { toGeminiMessage, type GeminiMessage, type GeminiMetadata, type GeminiRecord } from './gemini-shapes.js';
import { baseName, isObject, preview, putCapped, SUMMARY_MAX, titleFromText, TITLE_MAX, type Json } from './text.js';

/** Title ranks: Gemini's generated session summary beats the first prompt. */
const RANK = { summary: 2, prompt: 1 } as const;
/** Tool call ids whose result sits on the call, remembered so the same result sent back as a user turn is not stored twice. */
const RESULTS_CAP = 300;

export interface GeminiState {
  v: 'gemini-1';
  key?: string;
  announced?: boolean;
  titleRank: number;
  cwd?: string;
  hash?: string;
  updatedAt?: number;
  /** Message id → short hash of what was stored for it, in session order: what follows what, and what changed. */
  msgs: Record<string, string>;
  results: Record<string, 1>;
}

export function restoreGeminiState(raw: unknown): GeminiState {
  if (isObject(raw) && raw.v === 'gemini-1' && typeof raw.titleRank === 'number' && isObject(raw.msgs) && isObject(raw.results)) {
    return structuredClone(raw) as unknown as GeminiState;
  }
  return { v: 'gemini-1', titleRank: 0, msgs: {}, results: {} };
}

type Draft = Omit<SourcedRecord, 'sourceId'>;

export class GeminiBook {
  ops: IngestOp[] = [];

  constructor(
    private readonly path: string,
    readonly s: GeminiState,
  ) {}

  /** The metadata line (or the legacy document's top level): identity, project, times, summary. */
  metadata(obj: GeminiMetadata): void {
    if (obj.sessionId && this.s.key === undefined) this.s.key = obj.sessionId;
    const conv = this.conv();
    const meta: ConversationMeta = {};
    if (obj.projectHash) this.s.hash = obj.projectHash;
    const cwd = projectRoot(this.path, this.s.hash);
    if (cwd && cwd !== this.s.cwd) meta.workspace = this.s.cwd = cwd;
    if (obj.startTime !== undefined) meta.createdAt = obj.startTime;
    this.moveUpdated(obj.lastUpdated, meta);
    const summary = obj.summary;
    if (summary) {
      meta.summary = preview(summary, SUMMARY_MAX);
      if (this.s.titleRank <= RANK.summary) {
        meta.title = preview(summary, TITLE_MAX);
        meta.titleRank = this.s.titleRank = RANK.summary;
      }
    }
    if (Object.keys(meta).length) this.meta(conv, meta);
  }

  /** One message record: stored, or stored again in place when its id is known. */
  message({ id, record }: GeminiRecord): void {
    const digest = shortHash(record);
    if (this.s.msgs[id] === digest) return;
    this.s.msgs[id] = digest;
    this.store(id, toGeminiMessage(record));
  }

  /** `{$rewindTo: id}`: that message and everything after it are gone from the session. */
  rewind(id: string): void {
    const ids = Object.keys(this.s.msgs);
    const at = ids.indexOf(id);
    // Gemini empties the session when the id is unknown (chatRecordingService.loadConversationRecord).
    for (const gone of at < 0 ? ids : ids.slice(at)) this.drop(gone);
  }

  /** `{$set: {messages}}`, or a whole legacy document: the session's message list now. */
  setMessages(messages: GeminiRecord[]): void {
    const next = messages.map((m) => m.id);
    const nextSet = new Set(next);
    const old = Object.keys(this.s.msgs);
    const oldAt = new Map(old.map((id, i) => [id, i]));
    // The oldest message left the list: a compression. What it dropped stays in the index as history;
    // the list's first message is the summary, and the first message older than it is the first kept.
    const compacted = old.length > 0 && next.length > 0 && !nextSet.has(old[0]!);
    if (!compacted) for (const id of old) if (!nextSet.has(id)) this.drop(id);
    for (const m of messages) this.message(m);
    if (compacted) {
      const summaryAt = oldAt.get(next[0]!) ?? Infinity;
      const kept = next.find((id) => (oldAt.get(id) ?? Infinity) < summaryAt);
      this.compaction(messages[0]!, kept);
    }
  }

  /** The summary message of a compression, stored as the boundary. */
  private compaction({ id, record }: GeminiRecord, firstKept: string | undefined): void {
    const m = toGeminiMessage(record);
    const text = contentParts(m.content).text.trim() || '[context compressed]';
    this.drop(id);
    const conv = this.conv();
    const entry: Draft = { role: 'system', kind: 'compaction', text, indexed: false, ts: m.timestamp, firstKeptSourceId: firstKept ?? id };
    this.ops.push({ op: 'record', conv, entry: { ...entry, sourceId: id } });
    this.s.msgs[id] = `compaction:${shortHash(record)}`;
  }

  private drop(id: string): void {
    delete this.s.msgs[id];
    this.ops.push({ op: 'drop', conv: this.conv(), sourceId: id, parts: true });
  }

  /** A message's entries: the first is keyed by the message id, the others by `<id>#<part>`. */
  private store(id: string, m: GeminiMessage): void {
    const ts = m.timestamp;
    const drafts = this.drafts(m, ts);
    const conv = this.conv();
    drafts.forEach(([suffix, draft], i) => {
      const sourceId = i === 0 ? id : `${id}#${suffix}`;
      this.ops.push({ op: 'record', conv, entry: { ts, ...draft, sourceId } });
    });
    const meta: ConversationMeta = {};
    this.moveUpdated(ts, meta);
    if (Object.keys(meta).length) this.meta(conv, meta);
  }

  private drafts(m: GeminiMessage, ts: number | undefined): [string, Draft][] {
    switch (m.type) {
      case 'user':
        return this.userDrafts(m);
      case 'gemini':
        return this.geminiDrafts(m, ts);
      case 'info':
      case 'error':
      case 'warning': {
        const text = contentParts(m.content).text.trim();
        return text ? [['notice', { role: 'system', kind: 'custom', author: m.type, text, indexed: false }]] : [];
      }
      case 'other':
        return []; // a newer message type: skipped, so the format can grow
    }
  }

  private userDrafts(m: GeminiMessage & { type: 'user' }): [string, Draft][] {
    // What the user typed (displayContent) rather than what was sent (content, with @file expansions).
    const shown = contentParts(m.displayContent ?? m.content);
    const sent = m.displayContent === undefined ? shown : contentParts(m.content);
    if (sent.responses.length > 0 && !shown.text.trim()) {
      // A tool's result sent back as a user turn: stored only when its call did not carry it.
      return sent.responses
        .filter((r) => !(r.id && this.s.results[r.id]))
        .map((r, i): [string, Draft] => [`response${i}`, { role: 'tool', kind: 'tool_result', text: r.text, indexed: false, toolName: r.name }]);
    }
    const kind = classifyUserText(shown.text);
    if (kind === 'injected' || kind === 'empty') return [];
    if (kind === 'command') return [['command', { role: 'user', kind: 'custom', text: shown.text.trim(), indexed: false }]];
    if (this.s.titleRank < RANK.prompt) {
      const title = titleFromText(shown.text);
      if (title) {
        this.s.titleRank = RANK.prompt;
        this.meta(this.conv(), { title, titleRank: RANK.prompt });
      }
    }
    return [['text', { role: 'user', kind: 'message', text: shown.text, indexed: true }]];
  }

  private geminiDrafts(m: GeminiMessage & { type: 'gemini' }, ts: number | undefined): [string, Draft][] {
    const out: [string, Draft][] = [];
    const parts = contentParts(m.content);
    const thoughts = [thoughtText(m.thoughts), ...parts.thoughts].filter((t) => t.trim()).join('\n\n');
    const model = m.model;
    if (thoughts) out.push(['thought', { role: 'assistant', kind: 'thinking', text: thoughts, indexed: false, author: model }]);
    if (parts.text.trim()) out.push(['text', { role: 'assistant', kind: 'message', text: parts.text, indexed: true, author: model }]);
    const recorded = new Set<string>();
    m.toolCalls.forEach((c, i) => {
      const callId = c.id ?? `${i}`;
      recorded.add(callId);
      const name = c.name ?? 'tool';
      const status = callStatus(c.status);
      const callTs = c.timestamp ?? ts;
      out.push([`call:${callId}`, { role: 'tool', kind: 'tool_call', text: callText(c.args), indexed: false, toolName: name, toolStatus: status, ts: callTs }]);
      const result = toolResultText(c);
      if (result !== undefined) {
        putCapped(this.s.results, callId, 1, RESULTS_CAP);
        out.push([`result:${callId}`, { role: 'tool', kind: 'tool_result', text: result, indexed: false, toolName: name, toolStatus: status, ts: callTs }]);
      }
    });
    parts.calls.forEach((c, i) => {
      if (c.id && recorded.has(c.id)) return;
      out.push([`fc${i}`, { role: 'tool', kind: 'tool_call', text: callText(c.args), indexed: false, toolName: c.name, toolStatus: 'pending' }]);
    });
    return out;
  }

  /** The session id: from the metadata, else from the file name (a file whose first line was lost). */
  conv(): string {
    if (this.s.key === undefined) this.s.key = baseName(this.path).replace(/\.jsonl?$/, '');
    if (!this.s.announced) {
      this.s.announced = true;
      const meta: ConversationMeta = { sessionId: this.s.key };
      const parent = geminiPath(this.path).parentSession;
      // A sub-agent's file sits in `chats/<parent session id>/`.
      if (parent && parent !== this.s.key) Object.assign(meta, { parentKey: parent, isSubagent: true });
      this.ops.push({ op: 'conversation', conv: this.s.key, meta });
    }
    return this.s.key;
  }

  private meta(conv: string, meta: ConversationMeta): void {
    this.ops.push({ op: 'conversation', conv, meta });
  }

  private moveUpdated(ts: number | undefined, meta: ConversationMeta): void {
    if (ts !== undefined && ts > (this.s.updatedAt ?? -Infinity)) meta.updatedAt = this.s.updatedAt = ts;
  }
}

/** A message record's hash, as written (the state keeps it: a changed parse must not read as a changed message). */
function shortHash(record: Json): string {
  return createHash('sha1').update(JSON.stringify(record)).digest('base64').slice(0, 10);
}
