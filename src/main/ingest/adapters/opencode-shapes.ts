// OpenCode's session, message and part objects as Throughline reads them, declared once (after
// sst/opencode packages/opencode/src/session/message-v2.ts: Session.Info, MessageV2.Info,
// MessageV2.Part), each with the parse step that makes one from untrusted JSON. A field of the wrong
// type reads as absent; a part type not listed here is `other` and yields nothing.
import { isAbsolutePath, isObject, nonEmpty, parseJsonObject, parseTs, str, type Json } from './text.js';

export interface OcSession {
  id?: string;
  title?: string;
  /** Only an absolute path: a scrubbed or placeholder directory is no workspace. */
  directory?: string;
  /** A sub-agent's (task tool) session names the session that started it. */
  parentID?: string;
  time: { created?: number; updated?: number };
}

export interface OcMessage {
  id?: string;
  role?: 'user' | 'assistant';
  /** An assistant message written by a compaction (`summary: true`); a user message's summary object is not. */
  summary: boolean;
  time: { created?: number };
  model?: string;
  sessionID?: string;
}

interface PartBase {
  id?: string;
  messageID?: string;
  sessionID?: string;
  time: { start?: number; end?: number };
}

export type OcPart = PartBase &
  (
    | { type: 'text'; text: string; synthetic: boolean; ignored: boolean }
    | { type: 'reasoning'; text?: string }
    | { type: 'tool'; tool?: string; state: OcToolState }
    | { type: 'compaction' }
    | { type: 'file'; filename?: string; url?: string }
    | { type: 'subtask' | 'agent'; description?: string; prompt?: string; name?: string; agent?: string }
    /** step-start, step-finish, snapshot, patch, retry and types added later: bookkeeping. */
    | { type: 'other' }
  );

export interface OcToolState {
  status?: unknown;
  input?: unknown;
  output?: unknown;
  error?: unknown;
}

const objectOr = (v: unknown): Json => (isObject(v) ? v : {});

export function toSession(o: Json): OcSession {
  const time = objectOr(o.time);
  return {
    id: nonEmpty(o.id),
    title: nonEmpty(o.title),
    directory: isAbsolutePath(o.directory) ? o.directory : undefined,
    parentID: nonEmpty(o.parentID),
    time: { created: parseTs(time.created), updated: parseTs(time.updated) },
  };
}

export function toMessage(o: Json): OcMessage {
  const role = o.role === 'user' || o.role === 'assistant' ? o.role : undefined;
  const model = str(o.modelID) ?? (isObject(o.model) ? str(o.model.modelID) : undefined);
  return { id: str(o.id), role, summary: o.summary === true, time: { created: parseTs(objectOr(o.time).created) }, model, sessionID: str(o.sessionID) };
}

/** A message from its JSON text, or undefined when it is not a JSON object. */
export function parseMessage(text: string): OcMessage | undefined {
  const o = parseJsonObject(text);
  return typeof o === 'string' ? undefined : toMessage(o);
}

export function toPart(o: Json): OcPart {
  const time = objectOr(o.time);
  const base: PartBase = { id: nonEmpty(o.id), messageID: nonEmpty(o.messageID), sessionID: nonEmpty(o.sessionID), time: { start: parseTs(time.start), end: parseTs(time.end) } };
  switch (o.type) {
    case 'text':
      return { ...base, type: 'text', text: str(o.text) ?? '', synthetic: o.synthetic === true, ignored: o.ignored === true };
    case 'reasoning':
      return { ...base, type: 'reasoning', text: nonEmpty(o.text) };
    case 'tool': {
      const s = objectOr(o.state);
      return { ...base, type: 'tool', tool: str(o.tool), state: { status: s.status, input: s.input, output: s.output, error: s.error } };
    }
    case 'compaction':
      return { ...base, type: 'compaction' };
    case 'file':
      return { ...base, type: 'file', filename: nonEmpty(o.filename), url: nonEmpty(o.url) };
    case 'subtask':
    case 'agent':
      return { ...base, type: o.type, description: nonEmpty(o.description), prompt: nonEmpty(o.prompt), name: str(o.name), agent: str(o.agent) };
    default:
      return { ...base, type: 'other' };
  }
}
