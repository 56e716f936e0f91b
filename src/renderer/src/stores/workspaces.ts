// The workspaces people pick from (filters, compose). The api has no workspace listing, so they are
// gathered from the most recent conversations; any other path can still be typed in.
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
      const res = await call('conversations.list', { limit: 500, subagents: false });
      const seen = new Map<string, number>();
      for (const c of res.items) if (c.workspace) seen.set(c.workspace, (seen.get(c.workspace) ?? 0) + 1);
      set({ workspaces: [...seen.keys()] });
    } catch {
      set({ loaded: false });
    }
  },
}));
