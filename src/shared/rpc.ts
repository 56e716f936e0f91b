// The error codes of the protocol, shared by the server side (dispatch and the transports) and by
// clients, which must not load the api (and SQLite) to know what an answer's code means.

/** JSON-RPC 2.0 error codes, used by every transport. */
export const RPC = {
  PARSE_ERROR: -32700,
  INVALID_REQUEST: -32600,
  METHOD_NOT_FOUND: -32601,
  INVALID_PARAMS: -32602,
  INTERNAL: -32603,
  NOT_FOUND: -32004,
  FORBIDDEN: -32003,
  TIMEOUT: -32001,
  TOO_LARGE: -32005,
  /** The change was refused as things stand (e.g. an agent's config file Throughline cannot read). */
  CONFLICT: -32006,
  /** `auth` named a protocol version this server does not speak. */
  UNSUPPORTED_PROTOCOL: -32007,
} as const;

/**
 * The socket protocol's version, sent by a client in `auth` ({"protocol": 1}) and answered back by
 * the server. A client that sends another version is refused with UNSUPPORTED_PROTOCOL (the
 * connection stays open for an `auth` with a version it supports); one that sends none is taken to
 * speak this version, so scripts written before versions existed keep working. Raise it when a
 * method's params or result change in a way an older client would misread.
 */
export const PROTOCOL_VERSION = 1;
export const SUPPORTED_PROTOCOLS: readonly number[] = [PROTOCOL_VERSION];
