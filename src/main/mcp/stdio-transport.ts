// The MCP server's stdio transport. The SDK's own reports a line it cannot read to its error
// callback and answers nothing, so a client that sent a broken line waits forever for its reply.
// This one answers every line it cannot hand on with a JSON-RPC error (echoing the id when it can
// be read), and keeps a line's size and nesting bounded before the SDK's validation walks it.
import { JSONRPCMessageSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { RPC } from '../../shared/rpc.js';

/** A line longer than this is refused unread (a handoff is at most 100,000 characters). */
export const MAX_LINE_BYTES = 4 * 1024 * 1024;
/** Deeper nesting than any tool's arguments need; the SDK's validation recurses once per level. */
export const MAX_DEPTH = 64;

type Id = string | number | null;

/** Deepest nesting of arrays and objects in a JSON text, not counting brackets inside strings. */
export function jsonDepth(text: string): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92 /* \ */) i++;
      else if (c === 34 /* " */) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 123 /* { */ || c === 91 /* [ */) max = Math.max(max, ++depth);
    else if (c === 125 /* } */ || c === 93 /* ] */) depth--;
  }
  return max;
}

function readableId(value: unknown): Id {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const id = (value as { id?: unknown }).id;
  return typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id)) ? id : null;
}

/** What one line of input is: a message for the SDK, or the error that answers it (null: ignore). */
export function readLine(line: string): { message: JSONRPCMessage } | { error: { id: Id; code: number; message: string } } | null {
  if (!line.trim()) return null;
  const depth = jsonDepth(line);
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (err) {
    return { error: { id: null, code: RPC.PARSE_ERROR, message: `Parse error: ${(err as Error).message}. Send one JSON-RPC message per line.` } };
  }
  const id = readableId(value);
  if (Array.isArray(value)) return { error: { id: null, code: RPC.INVALID_REQUEST, message: 'Invalid request: batches are not supported; send one message per line.' } };
  if (depth > MAX_DEPTH) return { error: { id, code: RPC.INVALID_REQUEST, message: `Invalid request: nested deeper than ${MAX_DEPTH} levels.` } };
  const checked = JSONRPCMessageSchema.safeParse(value);
  if (!checked.success) {
    return { error: { id, code: RPC.INVALID_REQUEST, message: 'Invalid request: expected a JSON-RPC 2.0 request, notification or response ("jsonrpc": "2.0", a "method" or a "result"/"error").' } };
  }
  return { message: checked.data };
}

export class LineStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private chunks: Buffer[] = [];
  private size = 0;
  /** Skipping the rest of an over-long line until its newline. */
  private skipping = false;
  private closed = false;

  constructor(
    private readonly input: NodeJS.ReadableStream = process.stdin,
    private readonly output: NodeJS.WritableStream = process.stdout,
  ) {}

  private readonly onData = (chunk: Buffer | string): void => {
    let buf = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    let nl: number;
    while ((nl = buf.indexOf(10)) >= 0) {
      const head = buf.subarray(0, nl);
      buf = buf.subarray(nl + 1);
      if (this.skipping) {
        this.skipping = false;
        continue;
      }
      const line = Buffer.concat([...this.chunks, head]).toString('utf8').replace(/\r$/, '');
      this.chunks = [];
      this.size = 0;
      this.handle(line);
    }
    if (this.skipping || !buf.length) return;
    this.size += buf.length;
    if (this.size > MAX_LINE_BYTES) {
      this.chunks = [];
      this.size = 0;
      this.skipping = true;
      this.reply(null, RPC.INVALID_REQUEST, `Invalid request: a message is limited to ${MAX_LINE_BYTES} bytes.`);
      return;
    }
    this.chunks.push(buf);
  };

  private readonly onError = (err: Error): void => this.onerror?.(err);

  private handle(line: string): void {
    const read = readLine(line);
    if (!read) return;
    if ('message' in read) this.onmessage?.(read.message);
    else this.reply(read.error.id, read.error.code, read.error.message);
  }

  private reply(id: Id, code: number, message: string): void {
    void this.send({ jsonrpc: '2.0', id, error: { code, message } } as unknown as JSONRPCMessage);
  }

  async start(): Promise<void> {
    this.input.on('data', this.onData);
    this.input.on('error', this.onError);
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve) => {
      if (this.closed) return resolve();
      if (this.output.write(JSON.stringify(message) + '\n')) resolve();
      else this.output.once('drain', () => resolve());
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.input.off('data', this.onData);
    this.input.off('error', this.onError);
    this.chunks = [];
    this.onclose?.();
  }
}
