// JSON-RPC 2.0 framing for the agent socket: one JSON value per line, each line bounded in size.
// Pure functions and a small line splitter, so the protocol rules are testable without a socket.
import { RPC } from '../../shared/rpc.js';

export type JsonRpcId = string | number | null;

export interface RpcErrorObject {
  code: number;
  message: string;
  data?: unknown;
}

export type RpcResponse = { jsonrpc: '2.0'; id: JsonRpcId; result: unknown } | { jsonrpc: '2.0'; id: JsonRpcId; error: RpcErrorObject };

/** A well-formed request. `notification` requests (no id) are run but never answered. */
export interface RpcRequest {
  id: JsonRpcId;
  notification: boolean;
  method: string;
  params: unknown;
}

export type Checked = { ok: true; request: RpcRequest } | { ok: false; response: RpcResponse };

export type ParsedLine =
  | { kind: 'single'; item: Checked }
  | { kind: 'batch'; items: Checked[] }
  | { kind: 'invalid'; response: RpcResponse };

export const MAX_BATCH = 100;

export function errorResponse(id: JsonRpcId, code: number, message: string, data?: unknown): RpcResponse {
  return data === undefined ? { jsonrpc: '2.0', id, error: { code, message } } : { jsonrpc: '2.0', id, error: { code, message, data } };
}

export function resultResponse(id: JsonRpcId, result: unknown): RpcResponse {
  return { jsonrpc: '2.0', id, result };
}

function isId(v: unknown): v is JsonRpcId {
  return v === null || typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v));
}

/** Checks one request object against JSON-RPC 2.0; the error echoes the id when it can be read. */
export function checkRequest(value: unknown): Checked {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { ok: false, response: errorResponse(null, RPC.INVALID_REQUEST, 'Invalid request: expected a JSON object with "jsonrpc", "method" and "id".') };
  }
  const obj = value as Record<string, unknown>;
  const hasId = Object.prototype.hasOwnProperty.call(obj, 'id');
  const id = hasId && isId(obj.id) ? obj.id : null;
  const bad = (message: string): Checked => ({ ok: false, response: errorResponse(id, RPC.INVALID_REQUEST, `Invalid request: ${message}`) });
  if (obj.jsonrpc !== '2.0') return bad('"jsonrpc" must be "2.0".');
  if (hasId && !isId(obj.id)) return bad('"id" must be a string, a number or null.');
  if (typeof obj.method !== 'string' || obj.method.length === 0) return bad('"method" must be a non-empty string.');
  if (obj.params !== undefined && (typeof obj.params !== 'object' || obj.params === null)) {
    return bad('"params" must be an object.');
  }
  if (Array.isArray(obj.params)) {
    // Every method takes named parameters; positional ones would silently mean something else.
    return { ok: false, response: errorResponse(id, RPC.INVALID_PARAMS, 'Invalid params: (params): pass params as an object with named members, not an array.', { field: '(params)' }) };
  }
  return { ok: true, request: { id, notification: !hasId, method: obj.method, params: obj.params ?? {} } };
}

/** Parses one line: a request, a batch of requests, or the error that answers it. */
export function parseLine(line: string): ParsedLine {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (err) {
    return { kind: 'invalid', response: errorResponse(null, RPC.PARSE_ERROR, `Parse error: ${(err as Error).message}. Send one JSON object per line.`) };
  }
  if (Array.isArray(value)) {
    if (value.length === 0) return { kind: 'invalid', response: errorResponse(null, RPC.INVALID_REQUEST, 'Invalid request: empty batch.') };
    if (value.length > MAX_BATCH) {
      return { kind: 'invalid', response: errorResponse(null, RPC.INVALID_REQUEST, `Invalid request: a batch holds at most ${MAX_BATCH} requests.`) };
    }
    return { kind: 'batch', items: value.map(checkRequest) };
  }
  return { kind: 'single', item: checkRequest(value) };
}

/**
 * Splits a byte stream into lines without ever holding more than `maxBytes` of one line: the rest of
 * an oversized line is dropped as it arrives and reported once. Splitting on the byte 0x0A is safe
 * in UTF-8, so a character cut between two chunks is reassembled intact.
 */
export class LineSplitter {
  private chunks: Buffer[] = [];
  private size = 0;
  private skipping = false;

  constructor(
    private readonly maxBytes: number,
    private readonly onLine: (line: Buffer) => void,
    private readonly onOversize: () => void,
  ) {}

  push(chunk: Buffer): void {
    let start = 0;
    while (start < chunk.length) {
      const nl = chunk.indexOf(0x0a, start);
      const end = nl === -1 ? chunk.length : nl;
      if (!this.skipping) {
        if (this.size + (end - start) > this.maxBytes) {
          this.chunks = [];
          this.size = 0;
          this.skipping = true;
          this.onOversize();
        } else if (end > start) {
          this.chunks.push(chunk.subarray(start, end));
          this.size += end - start;
        }
      }
      if (nl === -1) return;
      if (this.skipping) {
        this.skipping = false;
      } else {
        const line = this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks, this.size);
        this.chunks = [];
        this.size = 0;
        if (line.length) this.onLine(line);
      }
      start = nl + 1;
    }
  }

  /** Bytes of the unfinished line held right now (for tests and the bound's proof). */
  get buffered(): number {
    return this.size;
  }
}
