// Who is calling on one connection, and how each of its calls is answered: the auth handshake, the
// access policy, the time limit, and the note for the activity view.
import type { Api } from '../../shared/api.js';
import { withDeadline } from '../api/call-deadline.js';
import { ApiError } from '../api/dispatch.js';
import { RPC } from '../../shared/rpc.js';
import { authAnswer, authenticate, guardedCall, localUser, parseAuth, summarizeParams, type AuthParams, type Principal } from '../api/access-policy.js';
import { errorResponse, resultResponse, type Checked, type JsonRpcId, type RpcResponse } from './json-rpc.js';

export type LogFn = (level: 'info' | 'warn' | 'error', message: string) => void;

/** Where each answered call is noted for the activity view (the store's activity log). */
export interface ActivityRecorder {
  record(client: string, method: string, paramsSummary: string, conversations: number[], bytes: number): void;
}

export interface CallContext {
  api: Api;
  activity: ActivityRecorder | null;
  log: LogFn;
  /** A call still waiting this long after it arrived is refused. */
  timeoutMs: number;
}

/**
 * A connection starts as this user's own (local); `auth` makes it a token's, once. A wrong token
 * leaves it refused: every later call is, until the client opens a new connection.
 */
type Standing = 'local' | 'authed' | 'rejected';

export class CallSession {
  private principal: Principal = localUser();
  private standing: Standing = 'local';

  constructor(private readonly context: CallContext) {}

  /**
   * The answer to one checked request that arrived at `at`, as the JSON text to send, or null for a
   * notification. Serialized here once: the activity note counts its bytes, the connection sends it.
   */
  async answer(checked: Checked, at: number): Promise<string | null> {
    if (!checked.ok) return JSON.stringify(checked.response);
    const req = checked.request;
    const reply = (r: RpcResponse): string | null => (req.notification ? null : JSON.stringify(r));
    const { timeoutMs } = this.context;
    const waited = Date.now() - at;
    if (waited > timeoutMs) {
      return reply(errorResponse(req.id, RPC.TIMEOUT, `Refused: the request waited ${waited} ms, over the ${timeoutMs} ms limit. The server is busy; retry.`));
    }
    if (req.method === 'auth') return reply(await this.auth(req.id, req.params));
    if (this.standing === 'rejected') return reply(errorResponse(req.id, RPC.FORBIDDEN, 'This connection gave a wrong token; open a new connection.'));
    const started = Date.now();
    let response: RpcResponse;
    let conversations: number[] = [];
    try {
      // The deadline reaches the read pool, which drops the call if it is still queued by then.
      const call = withDeadline(at + timeoutMs, () => guardedCall(this.context.api, this.principal, req.method, req.params));
      const outcome = await withTimeout(call, timeoutMs - waited, req.method);
      conversations = outcome.conversations;
      response = resultResponse(req.id, outcome.result);
    } catch (err) {
      response = toErrorResponse(req.id, err, this.context.log);
    }
    const text = req.notification ? null : JSON.stringify(response);
    this.note(req.method, req.params, response, conversations, text === null ? 0 : Buffer.byteLength(text));
    const ms = Date.now() - started;
    if (ms > 1000) this.context.log('warn', `${req.method} took ${ms} ms`);
    return text;
  }

  /** Notes the call for the activity view: every call but the view's own and unknown methods. */
  private note(method: string, params: unknown, response: RpcResponse, conversations: number[], bytes: number): void {
    if (method === 'activity' || ('error' in response && response.error.code === RPC.METHOD_NOT_FOUND)) return;
    try {
      this.context.activity?.record(this.principal.client, method, summarizeParams(method, params), conversations, bytes);
    } catch (err) {
      this.context.log('warn', `activity not recorded: ${(err as Error).message}`);
    }
  }

  private async auth(id: JsonRpcId, params: unknown): Promise<RpcResponse> {
    if (this.standing !== 'local') return errorResponse(id, RPC.FORBIDDEN, 'This connection is already authenticated; open a new connection to change who it is.');
    // Bad params or a protocol version not spoken here: refused, and the client may try again.
    let request: AuthParams;
    try {
      request = parseAuth(params);
    } catch (err) {
      return toErrorResponse(id, err, this.context.log);
    }
    try {
      this.principal = await authenticate(this.context.api, request.token, request.client);
      this.standing = 'authed';
      return resultResponse(id, authAnswer(this.principal));
    } catch (err) {
      this.standing = 'rejected';
      return toErrorResponse(id, err, this.context.log);
    }
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number, method: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new ApiError(RPC.TIMEOUT, `Refused: ${method} ran over the time limit.`)), Math.max(1, ms));
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

function toErrorResponse(id: JsonRpcId, err: unknown, log: LogFn): RpcResponse {
  if (err instanceof ApiError) return errorResponse(id, err.code, err.message, err.data);
  log('error', `internal error: ${(err as Error).stack ?? String(err)}`);
  return errorResponse(id, RPC.INTERNAL, `Internal error: ${(err as Error).message}`);
}
