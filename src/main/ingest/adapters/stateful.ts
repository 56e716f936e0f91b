// The parsers and readers that keep their state as one plain object: restored from what the previous
// one left at the committed offset, handed back as a copy for the pipeline to store with the offset.

export abstract class Stateful<S> {
  protected s: S;

  constructor(
    /** The session file (or database) this parser or reader is for. */
    protected readonly file: string,
    state: unknown,
    restore: (state: unknown) => S,
  ) {
    this.s = restore(state);
  }

  state(): unknown {
    return structuredClone(this.s);
  }
}
