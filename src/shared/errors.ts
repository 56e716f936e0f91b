// The errors Throughline throws for a person (or a program) to act on, in the few shapes they come
// in, so that each kind of failure is one short class: a message that says what to do; a kind a
// program can branch on (JSON output, JSON-RPC data); a JSON-RPC code (the api's answers, on either
// side of the socket). An error's name is its class's own.

export class NamedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = new.target.name;
  }
}

export class KindError<K extends string = string> extends NamedError {
  constructor(
    readonly kind: K,
    message: string,
  ) {
    super(message);
  }
}

/** An answer with a JSON-RPC error code (src/shared/rpc.ts), and the data that goes with it. */
export class CodedError extends NamedError {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }
}
