// Turns the lines of one Claude Code session file into ingest ops. Line shapes are read by the pure
// helpers in claude-code-content.ts and conversations are kept by claude-code-convs.ts; this file
// keeps what spans lines within a conversation: assistant messages split over lines, tool calls
// waiting for their result, and the compaction boundary waiting for its summary.
import { LineError, type EntryRecord, type IngestOp, type LineParser } from '../types.js';
import { blocksOf, callText, classifyUserText, resultText, type FileInfo } from './claude-code-content.js';
import { Conversations, RANK, type LineCtx } from './claude-code-convs.js';
import { PENDING_CAP, restoreState, type ClaudeState, type Part } from './claude-code-state.js';
import { isObject, nonEmpty, parseJsonObject, preview, putCapped, str, SUMMARY_MAX, titleFromText, type Json } from './text.js';

export class ClaudeParser implements LineParser {
  private readonly s: ClaudeState;
  private readonly book: Conversations;

  constructor(
    info: FileInfo,
    /** agentType from a sub-agent's .meta.json, if any. */
    private readonly agentType: string | undefined,
    state: unknown,
  ) {
    this.s = restoreState(state);
    this.book = new Conversations(this.s, info, agentType);
  }

  state(): unknown {
    return structuredClone(this.s);
  }

  line(text: string, lineNo: number): IngestOp[] {
    const obj = parseJsonObject(text);
    if (typeof obj === 'string') throw new LineError(obj);
    this.book.ops = [];
    switch (obj.type) {
      case 'user':
        this.user(obj, lineNo);
        break;
      case 'assistant':
        this.assistant(obj, lineNo);
        break;
      case 'system':
        if (obj.subtype === 'compact_boundary') this.boundary(obj, lineNo);
        // Other system lines (api_error retries, hook summaries, turn durations, refusals) are
        // bookkeeping about the run, not conversation.
        break;
      case 'summary':
        this.book.summaryLine(obj);
        break;
      case 'custom-title':
        this.book.namedTitle(obj, str(obj.customTitle), RANK.custom);
        break;
      case 'ai-title':
        this.book.namedTitle(obj, str(obj.aiTitle), RANK.ai);
        break;
      // file-history-snapshot, queue-operation, progress, attachment, permission-mode, pr-link,
      // last-prompt, agent-name, worktree-state and types added later: nothing for a transcript.
    }
    return this.book.ops;
  }

  // ---- user lines ----------------------------------------------------------------------------

  private user(obj: Json, lineNo: number): void {
    const msg = obj.message;
    if (!isObject(msg)) throw new LineError('user line without a message object');
    const c = this.book.ctx(obj, lineNo);
    if (obj.isCompactSummary === true) {
      this.compactSummary(c, resultText(msg.content, Infinity));
      return;
    }
    this.s.compaction = undefined;
    const parts: string[] = [];
    for (const block of blocksOf(msg.content)) {
      if (block.type === 'tool_result') this.toolResult(c, block);
      // isMeta text is injected by Claude Code (skill bodies, caveats), not typed by the user.
      else if (obj.isMeta === true) continue;
      else if (block.type === 'text' && typeof block.text === 'string') parts.push(block.text);
      else if (block.type === 'image') parts.push('[image]');
      else if (block.type === 'document') parts.push('[document]');
    }
    if (parts.length > 0) this.userText(c, parts.join('\n'));
  }

  private userText(c: LineCtx, raw: string): void {
    const t = classifyUserText(raw);
    switch (t.kind) {
      case 'prompt':
        this.book.add(c, { role: 'user', kind: 'message', text: t.text, indexed: true });
        if (!c.cs.prompted) this.firstPrompt(c, t.text);
        return;
      case 'command':
        this.book.add(c, { role: 'user', kind: 'message', text: t.text, indexed: true });
        return;
      case 'bash':
        this.book.add(c, { role: t.role, kind: 'bash', text: t.text, indexed: false });
        return;
      case 'notice':
        this.book.add(c, { role: 'system', kind: 'custom', text: t.text, indexed: false });
        return;
    }
  }

  /** A sub-agent with a known type is titled "<type>: <task>", which tells siblings apart. */
  private firstPrompt(c: LineCtx, text: string): void {
    c.cs.prompted = true;
    const title = titleFromText(text);
    if (this.agentType && c.conv === this.s.key && title) this.book.setTitle(c.conv, c.cs, `${this.agentType}: ${title}`, RANK.summary);
    else this.book.setTitle(c.conv, c.cs, title, RANK.prompt);
  }

  private toolResult(c: LineCtx, block: Json): void {
    const status = block.is_error === true ? 'error' : 'ok';
    const callId = str(block.tool_use_id);
    const call = callId !== undefined ? this.s.pending[callId] : undefined;
    if (call && callId !== undefined) {
      delete this.s.pending[callId];
      this.book.emit(call.conv, { ...call.entry, toolStatus: status });
    }
    const text = resultText(block.content);
    this.book.add(c, { role: 'tool', kind: 'tool_result', text, indexed: false, toolName: call?.entry.toolName, toolStatus: status });
  }

  // ---- assistant lines -----------------------------------------------------------------------

  private assistant(obj: Json, lineNo: number): void {
    const msg = obj.message;
    if (!isObject(msg)) throw new LineError('assistant line without a message object');
    const c = this.book.ctx(obj, lineNo);
    this.s.compaction = undefined;
    // Claude writes one line per content block, all with the same message.id: they are one message.
    const id = str(msg.id) ?? c.uuid ?? `line:${lineNo}`;
    if (c.cs.msg?.id !== id) c.cs.msg = { id };
    // API errors and "No response requested." are written as assistant messages by Claude Code itself.
    const synthetic = msg.model === '<synthetic>' || obj.isApiErrorMessage === true;
    blocksOf(msg.content).forEach((block, i) => this.assistantBlock(c, block, i, synthetic));
  }

  private assistantBlock(c: LineCtx, block: Json, index: number, synthetic: boolean): void {
    const type = str(block.type) ?? '';
    if (type === 'text' && typeof block.text === 'string') {
      if (synthetic) this.book.add(c, { role: 'system', kind: 'custom', text: block.text, indexed: false });
      else this.appendText(c, block.text);
    } else if (type === 'image') this.appendText(c, '[image]');
    else if (type === 'thinking' && nonEmpty(block.thinking)) this.appendThinking(c, String(block.thinking));
    else if (type === 'redacted_thinking') this.appendThinking(c, '[redacted thinking]');
    else if (type === 'tool_use' || type === 'server_tool_use' || type === 'mcp_tool_use') this.toolCall(c, block, index);
    else if (type.endsWith('_tool_result')) this.toolResult(c, block); // server tools answer in the same message
  }

  /** Grows one part of the open message, allocating its seq on first use, and re-emits it. */
  private grow(c: LineCtx, which: 'text' | 'think', body: string): Part {
    const msg = c.cs.msg!;
    let part = msg[which];
    if (!part) {
      part = { seq: c.cs.seq++, body: '', sourceId: c.uuid, parentSourceId: c.parentUuid, ts: c.ts };
      msg[which] = part;
    }
    part.body = part.body ? `${part.body}\n\n${body}` : body;
    return part;
  }

  private appendText(c: LineCtx, body: string): void {
    const before = c.cs.msg?.text?.body.length ?? 0;
    const part = this.grow(c, 'text', body);
    this.book.emit(c.conv, { ...partFields(part), role: 'assistant', kind: 'message', text: part.body, indexed: true });
    // Preview: the first assistant reply, while it still grows within the preview length.
    const msgId = c.cs.msg!.id;
    const first = c.cs.summaryRank === 0 || (c.cs.summaryRank === 1 && c.cs.summaryMsg === msgId);
    if (first && before < SUMMARY_MAX) {
      c.cs.summaryRank = 1;
      c.cs.summaryMsg = msgId;
      this.book.meta(c.conv, { summary: preview(part.body, SUMMARY_MAX) });
    }
  }

  private appendThinking(c: LineCtx, body: string): void {
    const part = this.grow(c, 'think', body);
    this.book.emit(c.conv, { ...partFields(part), role: 'assistant', kind: 'thinking', text: part.body, indexed: false });
  }

  private toolCall(c: LineCtx, block: Json, index: number): void {
    const entry = this.book.add(c, {
      role: 'tool',
      kind: 'tool_call',
      text: callText(block),
      indexed: false,
      toolName: str(block.name),
      toolStatus: 'pending',
    });
    const callId = str(block.id) ?? `${c.uuid ?? `line:${c.lineNo}`}#${index}`;
    putCapped(this.s.pending, callId, { conv: c.conv, entry }, PENDING_CAP);
  }

  // ---- compaction ----------------------------------------------------------------------------

  /**
   * compact_boundary opens a compaction entry at once (so a boundary without a summary still shows)
   * and the isCompactSummary line that follows fills in its text. Claude keeps nothing verbatim
   * across a compaction: the summary itself is the first thing in the new context, so the first kept
   * entry is the compaction entry, and firstKeptSourceId is its own sourceId (the boundary line's
   * uuid), which the store resolves within the same batch.
   */
  private boundary(obj: Json, lineNo: number): void {
    const c = this.book.ctx(obj, lineNo);
    const parent = nonEmpty(obj.logicalParentUuid) ?? c.parentUuid;
    const sourceId = c.uuid ?? `line:${lineNo}`;
    const text = nonEmpty(obj.content) ?? 'Conversation compacted';
    const fields = { sourceId, parentSourceId: parent, firstKeptSourceId: sourceId };
    const entry = this.book.add(c, { ...fields, role: 'system', kind: 'compaction', text, indexed: false });
    this.s.compaction = { conv: c.conv, entry };
  }

  private compactSummary(c: LineCtx, text: string): void {
    const open = this.s.compaction;
    this.s.compaction = undefined;
    if (open) {
      this.book.emit(open.conv, { ...open.entry, text });
      return;
    }
    const sourceId = c.uuid ?? `line:${c.lineNo}`;
    this.book.add(c, { sourceId, role: 'system', kind: 'compaction', text, indexed: false, firstKeptSourceId: sourceId });
  }
}

function partFields(part: Part): Pick<EntryRecord, 'seq' | 'sourceId' | 'parentSourceId' | 'ts'> {
  return { seq: part.seq, sourceId: part.sourceId, parentSourceId: part.parentSourceId, ts: part.ts };
}
