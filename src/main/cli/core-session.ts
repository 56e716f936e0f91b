// The CLI's one way into the index, the same as the socket's and MCP's: the core, read-only unless
// the command writes, and dispatch, which validates every call and maps every failure. The api's
// answers become the CLI's error kinds and exit codes here, once.
import type { MethodName, MethodParams, MethodResults } from '../../shared/api.js';
import { RPC } from '../../shared/rpc.js';
import { createCore, type Core } from '../api/core.js';
import { dispatch, toApiError, type ApiError } from '../api/dispatch.js';
import type { Source } from '../api/indexing.js';
import { defaultSettingsPath } from '../settings.js';
import { CliError, dbPathFrom, type CliIO } from './command.js';

/** One api call, validated and mapped by dispatch as the socket's are, with full access (the person's own shell). */
export type Call = <M extends MethodName>(method: M, params: MethodParams<M>) => Promise<MethodResults[M]>;

export interface Session {
  call: Call;
  /** For what is no api call: the index's own word matching, to highlight a person's query. */
  core: Core;
}

export interface SessionOptions {
  /** Open the index for writing (created if absent); read-only otherwise. */
  write?: boolean;
  /**
   * What a scan reads (only `index` scans): these sources, or null for the core's own (each agent's
   * folder, the folders added in Settings, the Aider histories found). None when not given.
   */
  sources?: Source[] | null;
}

/** Opens the core on the index for one command, runs `fn`, closes it. Nothing is watched. */
export async function withCore<T>(values: { db?: string | boolean }, io: CliIO, fn: (s: Session) => Promise<T>, options: SessionOptions = {}): Promise<T> {
  let core: Core;
  try {
    core = createCore({
      dbPath: dbPathFrom(values, io.env),
      settingsPath: defaultSettingsPath(io.env),
      env: io.env,
      sources: options.sources === undefined ? [] : (options.sources ?? undefined),
      readonly: !options.write,
      explicitRequests: true,
    });
  } catch (err) {
    throw toApiError(err, 'opening the index');
  }
  const call = ((method: MethodName, params: unknown) => dispatch(core.api, method, params)) as Call;
  try {
    return await fn({ call, core });
  } catch (err) {
    // What the core throws outside a call (a scan's full disk, say) is mapped as dispatch maps it.
    throw err instanceof CliError ? err : toApiError(err, 'the command');
  } finally {
    core.close();
  }
}

/**
 * The CLI's error for an api answer: its kind (the store's or installer's own, else the code's), exit
 * code 2 for a request the api refused as malformed. Null for an internal error of no known kind,
 * which main() reports with its cause's stack.
 */
export function cliErrorOf(err: ApiError): CliError | null {
  const kind = (err.data as { kind?: unknown } | undefined)?.kind;
  if (typeof kind === 'string') return new CliError(kind, err.message, 1);
  switch (err.code) {
    case RPC.INVALID_PARAMS:
    case RPC.METHOD_NOT_FOUND:
      return new CliError('usage', err.message, 2);
    case RPC.NOT_FOUND:
      return new CliError('not-found', err.message, 1);
    case RPC.FORBIDDEN:
      return new CliError('forbidden', err.message, 1);
    case RPC.CONFLICT:
      return new CliError('conflict', err.message, 1);
    default:
      return null;
  }
}
