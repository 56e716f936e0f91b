// GitHub Copilot CLI's session events (events.jsonl) as Throughline reads them, declared once with the
// parse step that makes one from untrusted JSON: `{type, id, timestamp, data}`, the data's fields by
// type. A field of the wrong type reads as absent; an event type not listed here is `other` (model
// changes, hooks, usage, system prompts, turn markers, shutdown) and yields nothing.
import { isAbsolutePath, isObject, nonEmpty, parseTs, str, type Json } from './text.js';

export interface CopilotToolRequest {
  toolCallId?: string;
  name?: string;
  /** The tool's own arguments (any shape, or a JSON string). */
  arguments: unknown;
}

interface CopilotEventBase {
  timestamp?: number;
  /** Set on a sub-agent's events: the task call that started it. */
  parentToolCallId?: string;
}

export type CopilotEvent = CopilotEventBase &
  (
    | { type: 'session.start' | 'session.resume'; sessionId?: string; startTime?: number; cwd?: string }
    /** `content` is what the user typed; `transformedContent` (not read) adds what Copilot injected. */
    | { type: 'user.message'; content: string; attachments: number }
    | { type: 'assistant.message'; model?: string; reasoningText?: string; content?: string; toolRequests: CopilotToolRequest[] }
    | { type: 'assistant.reasoning'; content?: string }
    | { type: 'tool.execution_start'; toolCallId?: string; toolName?: string; arguments: unknown }
    /** `result.text`: its content (or detailedContent, textResultForLlm), or the result when a string. */
    | { type: 'tool.execution_complete'; toolCallId?: string; failed: boolean; result: { text?: string; raw: unknown }; error?: string }
    | { type: 'subagent.started'; toolCallId?: string; agentName?: string; agentDescription?: string }
    | { type: 'session.compaction_complete'; failed: boolean; checkpointNumber?: number; summaryContent?: string }
    | { type: 'session.error' | 'abort'; message?: string }
    | { type: 'other' }
  );

function toResult(result: unknown): { text?: string; raw: unknown } {
  if (isObject(result)) return { text: str(result.content) ?? str(result.detailedContent) ?? str(result.textResultForLlm), raw: result };
  return { text: str(result), raw: result };
}

function toRequests(v: unknown): CopilotToolRequest[] {
  if (!Array.isArray(v)) return [];
  return v.filter(isObject).map((req) => ({ toolCallId: nonEmpty(req.toolCallId), name: str(req.name), arguments: req.arguments }));
}

/** An event from one parsed line whose `type` is a non-empty string. */
export function toCopilotEvent(type: string, o: Json): CopilotEvent {
  const d = isObject(o.data) ? o.data : {};
  const base: CopilotEventBase = { timestamp: parseTs(o.timestamp), parentToolCallId: nonEmpty(d.parentToolCallId) };
  switch (type) {
    case 'session.start':
    case 'session.resume': {
      const cwd = isObject(d.context) ? d.context.cwd : undefined;
      return { ...base, type, sessionId: nonEmpty(d.sessionId), startTime: parseTs(d.startTime), cwd: isAbsolutePath(cwd) ? cwd : undefined };
    }
    case 'user.message':
      return { ...base, type, content: str(d.content) ?? '', attachments: Array.isArray(d.attachments) ? d.attachments.length : 0 };
    case 'assistant.message':
      return { ...base, type, model: str(d.model), reasoningText: nonEmpty(d.reasoningText), content: nonEmpty(d.content), toolRequests: toRequests(d.toolRequests) };
    case 'assistant.reasoning':
      return { ...base, type, content: nonEmpty(d.content) };
    case 'tool.execution_start':
      return { ...base, type, toolCallId: nonEmpty(d.toolCallId), toolName: str(d.toolName), arguments: d.arguments };
    case 'tool.execution_complete':
      return { ...base, type, toolCallId: nonEmpty(d.toolCallId), failed: d.success === false, result: toResult(d.result), error: isObject(d.error) ? str(d.error.message) : str(d.error) };
    case 'subagent.started':
      return { ...base, type, toolCallId: nonEmpty(d.toolCallId), agentName: nonEmpty(d.agentDisplayName) ?? nonEmpty(d.agentName), agentDescription: nonEmpty(d.agentDescription) };
    case 'session.compaction_complete':
      return { ...base, type, failed: d.success === false, checkpointNumber: typeof d.checkpointNumber === 'number' ? d.checkpointNumber : undefined, summaryContent: nonEmpty(d.summaryContent) };
    case 'session.error':
    case 'abort':
      return { ...base, type, message: nonEmpty(d.message) ?? nonEmpty(d.reason) };
    default:
      return { ...base, type: 'other' };
  }
}
