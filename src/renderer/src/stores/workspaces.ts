// The workspaces people pick from (filters, compose): those of the index's top-level conversations,
// most recently active first. Any other path can still be typed in.
import { create } from 'zustand';
import { call } from '../lib/transport';

interface State {
  workspaces: string[];
  loaded: boolean;
  load(): Promise<void>;
}

export const useWorkspaces = create<State>((set, get) => ({
  workspaces: [],
  loaded: false,
  async load() {
    if (get().loaded) return;
    set({ loaded: true });
    try {
      const res = await call('conversations.workspaces', { limit: 500 });
      set({ workspaces: res.items.map((w) => w.workspace) });
    } catch {
      set({ loaded: false });
    }
  },
}));
