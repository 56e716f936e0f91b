// Request tokens: only the newest request of a kind may change what is shown. A slower answer to an
// older question (a search typed over, a conversation left) is dropped when it arrives.

export interface Latest {
  /** Starts a request; the function says whether it is still the newest when its answer comes. */
  begin(): () => boolean;
  /** Makes every request in flight stale (a reset, a new window replacing the old one). */
  cancel(): void;
}

export function latest(): Latest {
  let newest = 0;
  return {
    begin() {
      const mine = ++newest;
      return () => mine === newest;
    },
    cancel() {
      newest++;
    },
  };
}
