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
} as const;
