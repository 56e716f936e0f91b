// Errors the api's methods throw; dispatch.ts gives each its JSON-RPC code.
import { NamedError } from '../../shared/errors.js';

/** The conversation (or other thing) named does not exist: -32004. */
export class NotFoundError extends NamedError {}

/** The caller may not touch what it named (a token limited to other workspaces): -32003. */
export class ForbiddenError extends NamedError {}
