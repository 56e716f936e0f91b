// The renderer's one debounce: search as you type, find in conversation and Compose all ask once
// typing pauses. The store that owns a debouncer cancels it on reset, so no timer outlives a test.

export interface Debounced<A extends unknown[]> {
  /** Runs `fn` with these arguments once `ms` pass without another call; an earlier pending call is dropped. */
  (...args: A): void;
  /** Drops the pending call, if any. */
  cancel(): void;
}

export function debounce<A extends unknown[]>(fn: (...args: A) => void, ms: number): Debounced<A> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const debounced = (...args: A): void => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      timer = undefined;
      fn(...args);
    }, ms);
  };
  debounced.cancel = (): void => {
    clearTimeout(timer);
    timer = undefined;
  };
  return debounced;
}
