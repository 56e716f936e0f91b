// Gemini CLI's session records as Throughline reads them, declared once (after google-gemini/gemini-cli
// packages/core/src/services/chatRecordingTypes.ts: ConversationRecord, MessageRecord, ToolCallRecord,
// and @google/genai's Part), with the parse steps that make them from untrusted JSON. A field of the
// wrong type reads as absent; a record, message type or part not listed here is `unknown`, `other`
// (or left out) and yields nothing.
import { isAbsolutePath, isObject, nonEmpty, parseTs, str, type Json } from './text.js';

/** One part of a PartListUnion. Parts that say nothing Throughline shows (executable code…) are left out. */
export type GeminiPart =
  | { kind: 'text'; text: string; thought: boolean }
  | { kind: 'call'; id?: string; name?: string; args: unknown }
  /** `output`: the response's output, error or content (the first that is a string); else the free-form `response` is shown as JSON. */
  | { kind: 'response'; id?: string; name?: string; output?: string; response: unknown }
  /** inlineData or fileData: shown as a marker. */
  | { kind: 'file'; mimeType?: string };

/** A thought summary of a gemini message (trimmed; blank reads as absent). */
export interface GeminiThought {
  subject?: string;
  description?: string;
}

export interface GeminiToolCall {
  id?: string;
  name?: string;
  args: unknown;
  /** Gemini's scheduler status (success, error, cancelled…), when a non-empty string. */
  status?: string;
  timestamp?: number;
  /** The result as shown to the user, when it is text with something in it. */
  resultDisplay?: string;
  /** The function responses sent back to the model; absent when the call has none yet. */
  result?: GeminiPart[];
}

interface GeminiMessageBase {
  timestamp?: number;
  /** Every message type has content (a compression's summary is read from whichever comes first). */
  content: GeminiPart[];
}

export type GeminiMessage = GeminiMessageBase &
  (
    /** displayContent: what the user typed, when it differs from what was sent (@file expansions). */
    | { type: 'user'; displayContent?: GeminiPart[] }
    | { type: 'gemini'; thoughts: GeminiThought[]; model?: string; toolCalls: GeminiToolCall[] }
    | { type: 'info' | 'error' | 'warning' }
    /** A newer message type: skipped, so the format can grow. */
    | { type: 'other' }
  );

/**
 * A message record by its id, kept as written: most records a session repeats (a message written
 * again, a `$set` of the whole list) are unchanged, told apart by a hash of the record, and read as
 * a GeminiMessage (toGeminiMessage) only when stored.
 */
export interface GeminiRecord {
  id: string;
  record: Json;
}

/** The metadata line, a `$set`, or a legacy document's top level. */
export interface GeminiMetadata {
  sessionId?: string;
  projectHash?: string;
  startTime?: number;
  lastUpdated?: number;
  /** Gemini's generated summary of the session, trimmed. */
  summary?: string;
}

/** One JSONL line, told apart as chatRecordingService.loadConversationRecord does. */
export type GeminiLine =
  | { kind: 'rewind'; to: string }
  | { kind: 'message'; message: GeminiRecord }
  /** `messages`: the session's whole message list now, when the line carries one. */
  | { kind: 'metadata'; meta: GeminiMetadata; messages?: GeminiRecord[] }
  | { kind: 'unknown' };

/** A whole legacy `.json` session: one ConversationRecord. */
export interface GeminiDocument {
  meta: GeminiMetadata;
  messages: GeminiRecord[];
}

/** The parts of a PartListUnion: a string, one part, or a list of strings and parts. */
export function toGeminiParts(content: unknown): GeminiPart[] {
  const out: GeminiPart[] = [];
  for (const p of Array.isArray(content) ? content : [content]) {
    if (typeof p === 'string') out.push({ kind: 'text', text: p, thought: false });
    else if (isObject(p)) {
      const part = toPart(p);
      if (part) out.push(part);
    }
  }
  return out;
}

function toPart(p: Json): GeminiPart | undefined {
  const text = str(p.text);
  if (text !== undefined) return { kind: 'text', text, thought: p.thought === true };
  const call = p.functionCall;
  if (isObject(call)) return { kind: 'call', id: nonEmpty(call.id), name: str(call.name), args: call.args };
  const response = p.functionResponse;
  if (isObject(response)) return { kind: 'response', id: nonEmpty(response.id), name: str(response.name), output: responseOutput(response.response), response: response.response };
  const inline = isObject(p.inlineData) ? p.inlineData : undefined;
  const file = isObject(p.fileData) ? p.fileData : undefined;
  if (inline || file) return { kind: 'file', mimeType: str(inline?.mimeType) ?? str(file?.mimeType) };
  return undefined;
}

function responseOutput(response: unknown): string | undefined {
  return isObject(response) ? (str(response.output) ?? str(response.error) ?? str(response.content)) : undefined;
}

function toThought(t: Json): GeminiThought {
  return { subject: nonEmpty(t.subject)?.trim(), description: nonEmpty(t.description)?.trim() };
}

function toToolCall(c: Json): GeminiToolCall {
  const display = c.resultDisplay;
  return {
    id: nonEmpty(c.id),
    name: str(c.name),
    args: c.args,
    status: typeof c.status === 'string' && c.status ? c.status : undefined,
    timestamp: parseTs(c.timestamp),
    resultDisplay: typeof display === 'string' && display.trim() ? display : undefined,
    result: c.result === undefined || c.result === null ? undefined : toGeminiParts(c.result),
  };
}

const objects = (v: unknown): Json[] => (Array.isArray(v) ? v.filter(isObject) : []);

// Object literals, not a spread of shared fields: one message a line, and a spread costs more than the rest of the parse.
export function toGeminiMessage(m: Json): GeminiMessage {
  const timestamp = parseTs(m.timestamp);
  const content = toGeminiParts(m.content);
  switch (m.type) {
    case 'user':
      return { type: 'user', timestamp, content, displayContent: m.displayContent === undefined || m.displayContent === null ? undefined : toGeminiParts(m.displayContent) };
    case 'gemini':
      return { type: 'gemini', timestamp, content, thoughts: objects(m.thoughts).map(toThought), model: str(m.model), toolCalls: objects(m.toolCalls).map(toToolCall) };
    case 'info':
    case 'error':
    case 'warning':
      return { type: m.type, timestamp, content };
    default:
      return { type: 'other', timestamp, content };
  }
}

function toMetadata(obj: Json): GeminiMetadata {
  return {
    sessionId: nonEmpty(obj.sessionId),
    projectHash: nonEmpty(obj.projectHash),
    startTime: parseTs(obj.startTime),
    lastUpdated: parseTs(obj.lastUpdated),
    summary: nonEmpty(obj.summary)?.trim() || undefined,
  };
}

/** The records of a message list that have an id (Gemini keeps messages by id; one without is no message). */
function toRecords(list: unknown[]): GeminiRecord[] {
  const out: GeminiRecord[] = [];
  for (const m of list) {
    const id = isObject(m) ? nonEmpty(m.id) : undefined;
    if (id !== undefined) out.push({ id, record: m as Json });
  }
  return out;
}

export function toGeminiLine(obj: Json): GeminiLine {
  if (typeof obj.$rewindTo === 'string') return { kind: 'rewind', to: obj.$rewindTo };
  const id = nonEmpty(obj.id);
  if (id !== undefined) return { kind: 'message', message: { id, record: obj } };
  // A `$set` updates the metadata, and may replace the list; a legacy record written on one line carries its messages too.
  const meta = isObject(obj.$set) ? obj.$set : nonEmpty(obj.sessionId) !== undefined ? obj : undefined;
  if (!meta) return { kind: 'unknown' };
  return { kind: 'metadata', meta: toMetadata(meta), messages: Array.isArray(meta.messages) ? toRecords(meta.messages) : undefined };
}

/** A legacy document: undefined when it is not a ConversationRecord (no object, or no sessionId). */
export function toGeminiDocument(doc: unknown): GeminiDocument | undefined {
  if (!isObject(doc) || nonEmpty(doc.sessionId) === undefined) return undefined;
  return { meta: toMetadata(doc), messages: Array.isArray(doc.messages) ? toRecords(doc.messages) : [] };
}

/** `projects.json`'s registry (ProjectRegistry): project root → slug, the roots that are absolute paths. */
export function toGeminiProjects(registry: unknown): { root: string; slug?: string }[] {
  const projects = isObject(registry) && isObject(registry.projects) ? registry.projects : {};
  return Object.entries(projects).flatMap(([root, slug]) => (isAbsolutePath(root) ? [{ root, slug: str(slug) }] : []));
}
