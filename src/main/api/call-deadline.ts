// When the call being answered stops being worth answering: the socket refuses a call that runs over
// its time limit (server/call-session.ts), and a read still queued for a reader thread by then would
// only take a thread from the calls behind it. The deadline travels with the call's async context, so
// the api's methods between the two need not carry it.
import { AsyncLocalStorage } from 'node:async_hooks';

const deadlines = new AsyncLocalStorage<number>();

/** Runs `fn` as a call that is refused after `deadline` (a Date.now() value). */
export function withDeadline<T>(deadline: number, fn: () => T): T {
  return deadlines.run(deadline, fn);
}

/** The deadline of the call being answered, or null outside one (the window, the CLI, tests). */
export function callDeadline(): number | null {
  return deadlines.getStore() ?? null;
}
