// The daemon's socket speaks newline-delimited JSON: one JSON-RPC message a line. Both clients (the
// socket client and the hook's one-call client) read their answers through this one splitter.

/**
 * A `data` handler for a utf8 stream: each complete line, parsed, goes to `onMessage`, in order; a
 * part line waits for the rest of it, and a blank line or one that is not JSON is skipped.
 */
export function jsonLines(onMessage: (msg: unknown) => void): (chunk: string) => void {
  let buffered = '';
  return (chunk) => {
    buffered += chunk;
    let nl: number;
    while ((nl = buffered.indexOf('\n')) >= 0) {
      const line = buffered.slice(0, nl);
      buffered = buffered.slice(nl + 1);
      if (!line.trim()) continue;
      let msg: unknown;
      try {
        msg = JSON.parse(line);
      } catch {
        continue;
      }
      onMessage(msg);
    }
  };
}
