// Settings → Extensions. Each change is saved at once; the socket reads the file on its next answer.
import { create } from 'zustand';
import type { SettingsPatch, SettingsView } from '../../../shared/api';
import { call, errorMessage } from '../lib/transport';

interface State {
  settings: SettingsView | null;
  error: string | null;
  saving: boolean;
  savedAt: number | null;
  load(): Promise<void>;
  save(patch: SettingsPatch): Promise<void>;
}

export const useSettings = create<State>((set, get) => ({
  settings: null,
  error: null,
  saving: false,
  savedAt: null,
  async load() {
    try {
      set({ settings: await call('settings.get', {}), error: null });
    } catch (err) {
      set({ error: errorMessage(err) });
    }
  },
  async save(patch) {
    const before = get().settings;
    // Shown at once; put back if the save is refused.
    if (before) set({ settings: { ...before, ...patch } });
    set({ saving: true });
    try {
      set({ settings: await call('settings.set', patch), saving: false, savedAt: Date.now(), error: null });
    } catch (err) {
      set({ settings: before, saving: false, error: errorMessage(err) });
    }
  },
}));
