// Index status, polled: every second while indexing, every few seconds otherwise.
import { create } from 'zustand';
import type { IndexStatus } from '../../../shared/api';
import { call, errorMessage } from '../lib/transport';

interface State {
  status: IndexStatus | null;
  error: string | null;
  refresh(): Promise<void>;
}

export const useStatus = create<State>((set) => ({
  status: null,
  error: null,
  async refresh() {
    try {
      set({ status: await call('status', {}), error: null });
    } catch (err) {
      set({ error: errorMessage(err) });
    }
  },
}));

let polling: ReturnType<typeof setTimeout> | undefined;

export function startStatusPolling(): () => void {
  const tick = async () => {
    await useStatus.getState().refresh();
    polling = setTimeout(tick, useStatus.getState().status?.indexing?.active ? 1000 : 5000);
  };
  void tick();
  return () => clearTimeout(polling);
}
