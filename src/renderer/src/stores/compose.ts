// Compose: what an agent would be given for this message, recomputed shortly after typing pauses.
import { create } from 'zustand';
import type { SuggestResult } from '../../../shared/api';
import { debounce } from '../lib/debounce';
import { latest } from '../lib/latest';
import { call, errorMessage } from '../lib/transport';

/**
 * Short enough that the preview is there within ~100 ms of a pause (suggest itself takes a few ms),
 * long enough that a burst of keystrokes asks once; a slower answer never overwrites a newer one.
 */
export const DEBOUNCE_MS = 80;

interface State {
  text: string;
  workspace: string;
  result: SuggestResult | null;
  pending: boolean;
  error: string | null;
  elapsedMs: number | null;
  setText(text: string): void;
  setWorkspace(workspace: string): void;
  run(): Promise<void>;
  /** Back to an empty message: the pending question is not asked and an answer in flight is dropped. */
  reset(): void;
}

export const useCompose = create<State>((set, get) => {
  const runs = latest();
  const runSoon = debounce(() => void get().run(), DEBOUNCE_MS);
  const schedule = () => {
    set({ pending: true });
    runSoon();
  };
  const empty = { text: '', workspace: '', result: null, pending: false, error: null, elapsedMs: null };
  return {
    ...empty,
    setText(text) {
      set({ text });
      schedule();
    },
    setWorkspace(workspace) {
      set({ workspace });
      schedule();
    },
    async run() {
      const isCurrent = runs.begin();
      const { text, workspace } = get();
      if (!text.trim()) return set({ result: null, pending: false, error: null, elapsedMs: null });
      const started = performance.now();
      try {
        const result = await call('suggest', workspace ? { text, workspace } : { text });
        // Only the newest question's answer is shown; a slow older one never overwrites it.
        if (isCurrent()) set({ result, pending: false, error: null, elapsedMs: Math.round(performance.now() - started) });
      } catch (err) {
        if (isCurrent()) set({ error: errorMessage(err), pending: false });
      }
    },
    reset() {
      runSoon.cancel();
      runs.cancel();
      set(empty);
    },
  };
});
