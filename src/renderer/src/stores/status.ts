// Index status, polled: every second while indexing, every few seconds otherwise.
import { create } from 'zustand';
import type { IndexStatus } from '../../../shared/api';
import { latest } from '../lib/latest';
import { call, errorMessage } from '../lib/transport';

interface State {
  status: IndexStatus | null;
  error: string | null;
  refresh(): Promise<void>;
  /** Starts polling (stopping any earlier polling); returns the function that stops it. */
  poll(): () => void;
  /** No status, no polling. */
  reset(): void;
}

export const useStatus = create<State>((set, get) => {
  // The polling loop's token and timer: a loop whose token is stale schedules nothing more, even if it
  // was waiting for an answer when it was stopped.
  const loops = latest();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const stop = (): void => {
    loops.cancel();
    clearTimeout(timer);
  };
  return {
    status: null,
    error: null,
    async refresh() {
      try {
        set({ status: await call('status', {}), error: null });
      } catch (err) {
        set({ error: errorMessage(err) });
      }
    },
    poll() {
      stop();
      const isCurrent = loops.begin();
      const tick = async (): Promise<void> => {
        await get().refresh();
        if (isCurrent()) timer = setTimeout(() => void tick(), get().status?.indexing?.active ? 1000 : 5000);
      };
      void tick();
      return () => {
        if (isCurrent()) stop();
      };
    },
    reset() {
      stop();
      set({ status: null, error: null });
    },
  };
});
