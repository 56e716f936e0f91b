// Entries of one conversation written as Anthropic-style content blocks (text, thinking, tool_use,
// tool_result), shared by the Factory Droid and Cursor adapters: their lines carry a role and a list
// of blocks, much as Claude Code's do. Each entry is a `record` named by its line and block, so a file
// read again (Cursor sometimes rewrites its transcript) yields the same entries.
import type { ConversationMeta, IngestOp, SourcedRecord } from '../types.js';
import type { AnthropicBlock } from './blocks-shapes.js';
import { resultText } from './claude-code-content.js';
import { argSummary, putCapped, titleFromText } from './text.js';

/** Tool-call arguments are a transcript aid, never indexed: a short summary is enough. */
const CALL_TEXT_MAX = 500;

/** Calls waiting for their result; older ones stay 'pending' (an interrupted turn). */
const PENDING_CAP = 300;

export interface BlocksState {
  titleRank: number;
  updatedAt?: number;
  /** tool_use id → the call's record, until its tool_result arrives. */
  pending: Record<string, SourcedRecord>;
}

export const newBlocksState = (): BlocksState => ({ titleRank: 0, pending: {} });

/** Turns a user's text into what is stored: null to skip it (only context the agent injected). */
export type UserText = (text: string) => string | null;

export class BlocksBook {
  ops: IngestOp[] = [];

  constructor(
    private readonly conv: string,
    private readonly s: BlocksState,
    private readonly userText: UserText,
  ) {}

  meta(meta: ConversationMeta): void {
    this.ops.push({ op: 'conversation', conv: this.conv, meta });
  }

  private add(entry: SourcedRecord): void {
    this.ops.push({ op: 'record', conv: this.conv, entry });
    if (entry.ts !== undefined && entry.ts > (this.s.updatedAt ?? -Infinity)) {
      this.s.updatedAt = entry.ts;
      this.meta({ updatedAt: entry.ts });
    }
  }

  /** One message: `id` names its entries (`<id>#<block>`). */
  message(id: string, role: 'user' | 'assistant', content: AnthropicBlock[], ts: number | undefined, author?: string): void {
    const texts: string[] = [];
    let textAt = 0; // the block the pending text started at: the entry is named after it
    const flush = () => {
      const at = textAt;
      const joined = texts.splice(0).join('\n').trim();
      if (!joined) return;
      const text = role === 'user' ? this.userText(joined) : joined;
      if (text === null || !text.trim()) return;
      this.add({ sourceId: `${id}#${at}`, role, kind: 'message', text, indexed: true, ts, author });
      if (role === 'user' && this.s.titleRank === 0) {
        const title = titleFromText(text);
        if (title) {
          this.s.titleRank = 1;
          this.meta({ title, titleRank: 1 });
        }
      }
    };
    content.forEach((block, i) => {
      switch (block.type) {
        case 'text':
          if (texts.length === 0) textAt = i;
          texts.push(block.text);
          return;
        case 'thinking': {
          flush();
          const text = block.text;
          if (text) this.add({ sourceId: `${id}#${i}`, role: 'assistant', kind: 'thinking', text, indexed: false, ts, author });
          return;
        }
        case 'tool_use': {
          flush();
          const call: SourcedRecord = {
            sourceId: `${id}#${i}`,
            role: 'tool',
            kind: 'tool_call',
            text: argSummary(block.input, CALL_TEXT_MAX),
            indexed: false,
            toolName: block.name,
            toolStatus: 'pending',
            ts,
          };
          this.add(call);
          const callId = block.id;
          if (callId) putCapped(this.s.pending, callId, call, PENDING_CAP);
          return;
        }
        case 'tool_result': {
          flush();
          const callId = block.toolUseId;
          const call = callId ? this.s.pending[callId] : undefined;
          const status = block.isError ? 'error' : 'ok';
          if (call && callId) {
            delete this.s.pending[callId];
            this.ops.push({ op: 'record', conv: this.conv, entry: { ...call, toolStatus: status } });
          }
          const toolName = call?.toolName ?? block.name;
          this.add({ sourceId: `${id}#${i}`, role: 'tool', kind: 'tool_result', text: resultText(block.content), indexed: false, toolName, toolStatus: status, ts });
          return;
        }
        default:
          if (block.text !== undefined) {
            if (texts.length === 0) textAt = i;
            texts.push(block.text);
          }
      }
    });
    flush();
  }

  /** A notice of the run (an error, an interrupted turn): kept for the transcript, never indexed. */
  notice(id: string, text: string, ts: number | undefined, author: string): void {
    this.add({ sourceId: id, role: 'system', kind: 'custom', text, indexed: false, ts, author });
  }
}
