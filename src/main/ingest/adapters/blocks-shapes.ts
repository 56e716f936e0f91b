// The Anthropic-style content blocks that Factory Droid and Cursor write (text, thinking, tool_use or
// tool_call, tool_result or tool-result), declared once with the parse step that makes them from
// untrusted JSON; blocks-book.ts turns them into entries. A field of the wrong type reads as absent.
import { toBlocks, type ClaudeBlock } from './claude-code-shapes.js';
import { isObject, nonEmpty, str, type Json } from './text.js';

/** One block. Every object block is kept, unknown ones as `other`: entries are named by position. */
export type AnthropicBlock =
  | { type: 'text'; text: string }
  | { type: 'thinking'; text?: string }
  | { type: 'tool_use'; id?: string; name: string; input: unknown }
  | { type: 'tool_result'; toolUseId?: string; isError: boolean; name?: string; content: ClaudeBlock[] }
  /** A newer block type; its text, when it has one, is kept (images, documents have none). */
  | { type: 'other'; text?: string };

function toBlock(b: Json): AnthropicBlock {
  switch (b.type) {
    case 'text':
      return { type: 'text', text: str(b.text) ?? '' };
    case 'thinking':
      return { type: 'thinking', text: nonEmpty(b.thinking) ?? nonEmpty(b.text) };
    case 'tool_use':
    case 'tool_call':
      return { type: 'tool_use', id: nonEmpty(b.id), name: str(b.name) ?? str(b.tool) ?? 'tool', input: b.input };
    case 'tool_result':
    case 'tool-result':
      return { type: 'tool_result', toolUseId: nonEmpty(b.tool_use_id), isError: b.is_error === true, name: str(b.name), content: toBlocks(b.content ?? b.output) };
    default:
      return { type: 'other', text: str(b.text) };
  }
}

/** Content is a plain string or a list of blocks; both read as blocks. */
export function toAnthropicBlocks(content: unknown): AnthropicBlock[] {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  return Array.isArray(content) ? content.filter(isObject).map(toBlock) : [];
}
