// Turns the lines of one Claude Code session file into ingest ops. Line shapes are declared in
// claude-code-shapes.ts, read into text by claude-code-content.ts, and conversations are kept by
// claude-code-convs.ts; this file
// keeps what spans lines within a conversation: assistant messages split over lines, tool calls
// waiting for their result, and the compaction boundary waiting for its summary.
import { LineError, type EntryRecord, type IngestOp, type LineParser } from '../types.js';
import { callText, classifyUserText, resultText, type FileInfo } from './claude-code-content.js';
import { Conversations, RANK, type LineCtx } from './claude-code-convs.js';
import { PENDING_CAP, restoreState, type ClaudeState, type Part } from './claude-code-state.js';
import { toClaudeLine, type ClaudeBlock, type ClaudeLine } from './claude-code-shapes.js';
import { parseJsonObject, preview, putCapped, SUMMARY_MAX, titleFromText } from './text.js';

type Line<T extends ClaudeLine['type']> = Extract<ClaudeLine, { type: T }>;

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
    const line = toClaudeLine(obj);
    switch (line.type) {
      case 'user':
        this.user(line, lineNo);
        break;
      case 'assistant':
        this.assistant(line, lineNo);
        break;
      case 'compact_boundary':
        this.boundary(line, lineNo);
        break;
      case 'summary':
        this.book.summaryLine(line);
        break;
      case 'custom-title':
        this.book.namedTitle(line, line.title, RANK.custom);
        break;
      case 'ai-title':
        this.book.namedTitle(line, line.title, RANK.ai);
        break;
    }
    return this.book.ops;
  }

  // ---- user lines ----------------------------------------------------------------------------

  private user(line: Line<'user'>, lineNo: number): void {
    const msg = line.message;
    if (!msg) throw new LineError('user line without a message object');
    const c = this.book.ctx(line, lineNo);
    if (line.isCompactSummary) {
      this.compactSummary(c, resultText(msg.content, Infinity));
      return;
    }
    this.s.compaction = undefined;
    const parts: string[] = [];
    for (const block of msg.content) {
      if (block.type === 'tool_result' && !block.server) this.toolResult(c, block);
      // isMeta text is injected by Claude Code (skill bodies, caveats), not typed by the user.
      else if (line.isMeta) continue;
      else if (block.type === 'text') parts.push(block.text);
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

  private toolResult(c: LineCtx, block: Extract<ClaudeBlock, { type: 'tool_result' }>): void {
    const status = block.isError ? 'error' : 'ok';
    const callId = block.toolUseId;
    const call = callId !== undefined ? this.s.pending[callId] : undefined;
    if (call && callId !== undefined) {
      delete this.s.pending[callId];
      this.book.emit(call.conv, { ...call.entry, toolStatus: status });
    }
    const text = resultText(block.content);
    this.book.add(c, { role: 'tool', kind: 'tool_result', text, indexed: false, toolName: call?.entry.toolName, toolStatus: status });
  }

  // ---- assistant lines -----------------------------------------------------------------------

  private assistant(line: Line<'assistant'>, lineNo: number): void {
    const msg = line.message;
    if (!msg) throw new LineError('assistant line without a message object');
    const c = this.book.ctx(line, lineNo);
    this.s.compaction = undefined;
    // Claude writes one line per content block, all with the same message.id: they are one message.
    const id = msg.id ?? c.uuid ?? `line:${lineNo}`;
    if (c.cs.msg?.id !== id) c.cs.msg = { id };
    // API errors and "No response requested." are written as assistant messages by Claude Code itself.
    const synthetic = msg.model === '<synthetic>' || line.isApiErrorMessage;
    msg.content.forEach((block, i) => this.assistantBlock(c, block, i, synthetic));
  }

  private assistantBlock(c: LineCtx, block: ClaudeBlock, index: number, synthetic: boolean): void {
    if (block.type === 'text') {
      if (synthetic) this.book.add(c, { role: 'system', kind: 'custom', text: block.text, indexed: false });
      else this.appendText(c, block.text);
    } else if (block.type === 'image') this.appendText(c, '[image]');
    else if (block.type === 'thinking' && block.thinking) this.appendThinking(c, block.thinking);
    else if (block.type === 'redacted_thinking') this.appendThinking(c, '[redacted thinking]');
    else if (block.type === 'tool_use') this.toolCall(c, block, index);
    else if (block.type === 'tool_result' && block.server) this.toolResult(c, block); // server tools answer in the same message
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

  private toolCall(c: LineCtx, block: Extract<ClaudeBlock, { type: 'tool_use' }>, index: number): void {
    const entry = this.book.add(c, {
      role: 'tool',
      kind: 'tool_call',
      text: callText(block),
      indexed: false,
      toolName: block.name,
      toolStatus: 'pending',
    });
    const callId = block.id ?? `${c.uuid ?? `line:${c.lineNo}`}#${index}`;
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
  private boundary(line: Line<'compact_boundary'>, lineNo: number): void {
    const c = this.book.ctx(line, lineNo);
    const parent = line.logicalParentUuid ?? c.parentUuid;
    const sourceId = c.uuid ?? `line:${lineNo}`;
    const text = line.content ?? 'Conversation compacted';
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
