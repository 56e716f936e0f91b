/** An error a caller can act on: what kind, and a message that says what to do. */
export class RecallError extends Error {
  constructor(
    readonly kind: 'not-found' | 'invalid',
    message: string,
  ) {
    super(message);
    this.name = 'RecallError';
  }
}
