// Validates a call against the api contract and runs it. Every transport goes through here,
// so a bad request gets the same error (naming the field) whichever way it came in.
import { METHODS, type Access, type Api, type MethodName, type MethodParams, type MethodResults } from '../../shared/api.js';
import { StoreError } from '../store/db.js';
import { ForbiddenError, NotFoundError } from './errors.js';
import { RecallError } from '../recall/errors.js';
import { InstallError } from '../integrations/files.js';
import { RPC } from '../../shared/rpc.js';
import { invalidParams } from '../../shared/invalid-params.js';
import { CodedError } from '../../shared/errors.js';
import type { z } from 'zod';

/** An api call refused or failed, with its JSON-RPC code: what every transport answers. */
export class ApiError extends CodedError {}

export function isMethod(name: string): name is MethodName {
  return Object.prototype.hasOwnProperty.call(METHODS, name);
}

/** A call whose params passed its method's schema. */
export interface Call<M extends MethodName = MethodName> {
  method: M;
  params: MethodParams<M>;
}

/** Checks params against the method's schema; the error names the offending field. */
export function validate(method: string, params: unknown): Call {
  if (!isMethod(method)) throw new ApiError(RPC.METHOD_NOT_FOUND, `Unknown method "${method}".`);
  return validateCall(method, params);
}

/** The same for a method known by its name in the code. */
export function validateCall<M extends MethodName>(method: M, params: unknown): Call<M> {
  return { method, params: parseParams(method, params) };
}

/** METHODS seen per method, so a schema looked up by a method's name parses to that method's params. */
const SCHEMAS: { [M in MethodName]: z.ZodType<MethodParams<M>> } = METHODS;

function parseParams<M extends MethodName>(method: M, params: unknown): MethodParams<M> {
  const schema = SCHEMAS[method];
  const parsed = schema.safeParse(params ?? {});
  if (!parsed.success) {
    const { field, message } = invalidParams(parsed.error);
    throw new ApiError(RPC.INVALID_PARAMS, message, { field });
  }
  return parsed.data;
}

export async function dispatch(api: Api, method: string, params: unknown, access?: Access): Promise<unknown> {
  return callApi(api, validate(method, params), access);
}

/** Runs a validated call (on the whole api, or the part of it that has the method); every failure becomes an ApiError with its JSON-RPC code. */
export async function callApi<M extends MethodName>(api: Pick<Api, M>, call: Call<M>, access?: Access): Promise<MethodResults[M]> {
  const method: Api[M] = api[call.method];
  try {
    return await method(call.params, access);
  } catch (err) {
    throw toApiError(err, call.method);
  }
}

/**
 * The one mapping of what the core throws to an answer with a JSON-RPC code, for every transport
 * (the CLI too, for a failure to open the index). An error of no known kind keeps its cause.
 */
export function toApiError(err: unknown, what: string): ApiError {
  if (err instanceof ApiError) return err;
  if (err instanceof NotFoundError) return new ApiError(RPC.NOT_FOUND, err.message);
  if (err instanceof ForbiddenError) return new ApiError(RPC.FORBIDDEN, err.message);
  if (err instanceof RecallError) return new ApiError(err.kind === 'not-found' ? RPC.NOT_FOUND : RPC.INVALID_PARAMS, err.message);
  if (err instanceof InstallError) return new ApiError(RPC.CONFLICT, err.message, { kind: err.kind });
  if (err instanceof StoreError) return new ApiError(RPC.INTERNAL, err.message, { kind: err.kind });
  const internal = new ApiError(RPC.INTERNAL, `Internal error in ${what}: ${(err as Error)?.message ?? String(err)}`);
  internal.cause = err;
  return internal;
}
