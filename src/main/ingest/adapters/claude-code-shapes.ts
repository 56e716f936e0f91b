// Claude Code's session file lines as Throughline reads them, declared once (after the transcript
// types in @anthropic-ai/claude-agent-sdk: SDKUserMessage, SDKAssistantMessage, the Messages API's
// content blocks), with the parse step that makes one from untrusted JSON. A field of the wrong type
// reads as absent; a line type or content block not listed here is `other` and yields nothing.
import { isAbsolutePath, isObject, nonEmpty, parseTs, str, type Json } from './text.js';

/**
 * A content block. Every object block is kept, unknown ones as `other`, because a tool call without
 * an id is named by its block's position.
 */
export type ClaudeBlock =
  | { type: 'text'; text: string }
  | { type: 'image' }
  | { type: 'document' }
  | { type: 'thinking'; thinking?: string }
  | { type: 'redacted_thinking' }
  /** tool_use, server_tool_use, mcp_tool_use. */
  | { type: 'tool_use'; id?: string; name?: string; input: unknown }
  /** tool_result (in user lines); a server tool's `*_tool_result` answers in the assistant message. */
  | { type: 'tool_result'; server: boolean; toolUseId?: string; isError: boolean; content: ClaudeBlock[] }
  | { type: 'other' };

export interface ClaudeMessage {
  id?: string;
  model?: string;
  content: ClaudeBlock[];
}

/** What conversation lines carry: their place in the tree, session, folder, time and sidechain. */
interface ClaudeLineBase {
  uuid?: string;
  parentUuid?: string;
  sessionId?: string;
  /** Only an absolute path (a scrubbed or placeholder cwd is no workspace). */
  cwd?: string;
  timestamp?: number;
  isSidechain: boolean;
  agentId?: string;
}

export type ClaudeLine = ClaudeLineBase &
  (
    /** `message` is absent when the line's is not an object. */
    | { type: 'user'; message?: ClaudeMessage; isCompactSummary: boolean; isMeta: boolean }
    | { type: 'assistant'; message?: ClaudeMessage; isApiErrorMessage: boolean }
    /** A system line of subtype compact_boundary. */
    | { type: 'compact_boundary'; logicalParentUuid?: string; content?: string }
    | { type: 'summary'; summary?: string; leafUuid?: string }
    | { type: 'custom-title' | 'ai-title'; title?: string }
    /**
     * Other system lines (api_error retries, hook summaries, turn durations), file-history-snapshot,
     * queue-operation, progress, attachment, permission-mode, pr-link, last-prompt, agent-name,
     * worktree-state and types added later: nothing for a transcript.
     */
    | { type: 'other' }
  );

function toBlock(b: Json): ClaudeBlock {
  const type = str(b.type) ?? '';
  switch (type) {
    case 'text':
      return typeof b.text === 'string' ? { type: 'text', text: b.text } : { type: 'other' };
    case 'image':
    case 'document':
    case 'redacted_thinking':
      return { type };
    case 'thinking':
      return { type: 'thinking', thinking: nonEmpty(b.thinking) };
    case 'tool_use':
    case 'server_tool_use':
    case 'mcp_tool_use':
      return { type: 'tool_use', id: str(b.id), name: str(b.name), input: b.input };
    default:
      if (type === 'tool_result' || type.endsWith('_tool_result')) {
        return { type: 'tool_result', server: type !== 'tool_result', toolUseId: str(b.tool_use_id), isError: b.is_error === true, content: toBlocks(b.content) };
      }
      return { type: 'other' };
  }
}

/** Content is either a plain string or a list of blocks; both read as blocks. */
export function toBlocks(content: unknown): ClaudeBlock[] {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  return Array.isArray(content) ? content.filter(isObject).map(toBlock) : [];
}

function toMessage(m: unknown): ClaudeMessage | undefined {
  return isObject(m) ? { id: str(m.id), model: str(m.model), content: toBlocks(m.content) } : undefined;
}

export function toClaudeLine(o: Json): ClaudeLine {
  const base: ClaudeLineBase = {
    uuid: nonEmpty(o.uuid),
    parentUuid: nonEmpty(o.parentUuid),
    sessionId: nonEmpty(o.sessionId),
    cwd: isAbsolutePath(o.cwd) ? o.cwd : undefined,
    timestamp: parseTs(o.timestamp),
    isSidechain: o.isSidechain === true,
    agentId: nonEmpty(o.agentId),
  };
  switch (o.type) {
    case 'user':
      return { ...base, type: 'user', message: toMessage(o.message), isCompactSummary: o.isCompactSummary === true, isMeta: o.isMeta === true };
    case 'assistant':
      return { ...base, type: 'assistant', message: toMessage(o.message), isApiErrorMessage: o.isApiErrorMessage === true };
    case 'system':
      if (o.subtype !== 'compact_boundary') return { ...base, type: 'other' };
      return { ...base, type: 'compact_boundary', logicalParentUuid: nonEmpty(o.logicalParentUuid), content: nonEmpty(o.content) };
    case 'summary':
      return { ...base, type: 'summary', summary: nonEmpty(o.summary), leafUuid: nonEmpty(o.leafUuid) };
    case 'custom-title':
      return { ...base, type: 'custom-title', title: str(o.customTitle) };
    case 'ai-title':
      return { ...base, type: 'ai-title', title: str(o.aiTitle) };
    default:
      return { ...base, type: 'other' };
  }
}
