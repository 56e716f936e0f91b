// One way for the views to call the api, whichever transport carries it: the preload's typed
// methods inside Electron, or POST /api/METHOD in browser mode (the cookie carries the token).
import type { Api, MethodName, MethodParams, MethodResults } from '../../../shared/api';
import { RPC } from '../../../shared/rpc';

export class CallError extends Error {
  constructor(
    message: string,
    readonly code?: number,
  ) {
    super(message);
    this.name = 'CallError';
  }
}

async function post(method: string, params: unknown): Promise<unknown> {
  let res: Response;
  try {
    res = await fetch(`/api/${encodeURIComponent(method)}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(params ?? {}),
      credentials: 'same-origin',
    });
  } catch {
    throw new CallError('Throughline is not reachable. Is `throughline serve --ui` still running?');
  }
  const body: unknown = await res.json().catch(() => null);
  if (res.ok) return body;
  const error = (body as { error?: { code?: number; message?: string } } | null)?.error;
  throw new CallError(error?.message ?? `The server answered ${res.status}.`, error?.code);
}

/** The HTTP api: any method name becomes a POST; the shared types keep calls honest. */
function httpApi(): Api {
  return new Proxy({} as Api, {
    get: (_target, name) => (params: unknown) => post(String(name), params),
  });
}

export const transportKind: 'ipc' | 'http' = typeof window !== 'undefined' && window.throughline ? 'ipc' : 'http';
const api: Api = transportKind === 'ipc' ? window.throughline! : httpApi();

export async function call<M extends MethodName>(method: M, params: MethodParams<M>): Promise<MethodResults[M]> {
  const fn = api[method] as (p: MethodParams<M>) => Promise<MethodResults[M]>;
  try {
    return await fn(params);
  } catch (err) {
    if (err instanceof CallError) throw err;
    // Errors crossing the context bridge arrive as plain Errors: drop Electron's prefix, and take the
    // JSON-RPC code off the front of the message, where the preload put it.
    const message = (err as Error).message.replace(/^Error invoking remote method '[^']+': (\w*Error: )?/, '');
    const coded = /^(-?\d+)\|([\s\S]*)$/.exec(message);
    throw coded ? new CallError(coded[2]!, Number(coded[1])) : new CallError(message);
  }
}

/** The api's "no such conversation". */
export const NOT_FOUND = RPC.NOT_FOUND;

export function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
