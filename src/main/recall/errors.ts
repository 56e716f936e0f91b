import { KindError } from '../../shared/errors.js';

/** An error a caller can act on: what kind, and a message that says what to do. */
export class RecallError extends KindError<'not-found' | 'invalid'> {}
