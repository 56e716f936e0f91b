// Factory Droid's session file lines as Throughline reads them, declared once with the parse step that
// makes one from untrusted JSON. A field of the wrong type reads as absent; a line type not listed
// here is `other` (newer Droid versions) and is skipped.
import { toAnthropicBlocks, type AnthropicBlock } from './blocks-shapes.js';
import { isAbsolutePath, isObject, nonEmpty, parseTs, type Json } from './text.js';

export interface DroidMessage {
  role: 'user' | 'assistant';
  content: AnthropicBlock[];
  model?: string;
}

export type DroidLine =
  /** Droid names the session itself: sessionTitle, else title. */
  | { type: 'session_start'; id?: string; cwd?: string; title?: string }
  /** `message` is absent when the line's is not an object with role user or assistant. */
  | { type: 'message'; message?: DroidMessage; timestamp?: number }
  /** A line without "type": malformed. */
  | { type: 'untyped' }
  | { type: 'other' };

function toMessage(m: unknown): DroidMessage | undefined {
  if (!isObject(m) || (m.role !== 'user' && m.role !== 'assistant')) return undefined;
  return { role: m.role, content: toAnthropicBlocks(m.content), model: nonEmpty(m.model) };
}

export function toDroidLine(o: Json): DroidLine {
  switch (o.type) {
    case 'session_start':
      return { type: 'session_start', id: nonEmpty(o.id), cwd: isAbsolutePath(o.cwd) ? o.cwd : undefined, title: nonEmpty(o.sessionTitle) ?? nonEmpty(o.title) };
    case 'message':
      return { type: 'message', message: toMessage(o.message), timestamp: parseTs(o.timestamp) };
    case undefined:
      return { type: 'untyped' };
    default:
      return { type: 'other' };
  }
}
