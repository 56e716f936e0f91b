// Cursor's agent transcript lines as Throughline reads them, declared once with the parse step that
// makes one from untrusted JSON. Lines carry no times or ids. A field of the wrong type reads as
// absent; a line type not listed here is `other` (newer Cursor builds) and is skipped.
import { toAnthropicBlocks, type AnthropicBlock } from './blocks-shapes.js';
import { isObject, nonEmpty, type Json } from './text.js';

export type CursorLine =
  /** The end of a turn; only an error or an abort is worth a notice. */
  | { type: 'turn_ended'; status: 'error' | 'aborted' | 'other'; error?: string }
  | { type: 'metadata'; overview?: string }
  | { type: 'message'; role: 'user' | 'assistant'; content: AnthropicBlock[] }
  /** A message object without role user or assistant, or a role without a message object. */
  | { type: 'malformed' }
  | { type: 'other' };

export function toCursorLine(o: Json): CursorLine {
  if (o.type === 'turn_ended') {
    const status = o.status === 'error' || o.status === 'aborted' ? o.status : 'other';
    return { type: 'turn_ended', status, error: nonEmpty(o.error) };
  }
  if (o.type === 'metadata' && isObject(o.metadata)) return { type: 'metadata', overview: nonEmpty(o.metadata.overview) };
  const message = isObject(o.message) ? o.message : undefined;
  if (message && (o.role === 'user' || o.role === 'assistant')) return { type: 'message', role: o.role, content: toAnthropicBlocks(message.content) };
  if (message || o.role !== undefined) return { type: 'malformed' };
  return { type: 'other' };
}
