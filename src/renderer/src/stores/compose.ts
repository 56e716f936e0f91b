// Compose: what an agent would be given for this message, recomputed shortly after typing pauses.
import { create } from 'zustand';
import type { SuggestResult } from '../../../shared/api';
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
}

let timer: ReturnType<typeof setTimeout> | undefined;
let runSeq = 0;

export const useCompose = create<State>((set, get) => {
  const schedule = () => {
    clearTimeout(timer);
    set({ pending: true });
    timer = setTimeout(() => void get().run(), DEBOUNCE_MS);
  };
  return {
    text: '',
    workspace: '',
    result: null,
    pending: false,
    error: null,
    elapsedMs: null,
    setText(text) {
      set({ text });
      schedule();
    },
    setWorkspace(workspace) {
      set({ workspace });
      schedule();
    },
    async run() {
      const seq = ++runSeq;
      const { text, workspace } = get();
      if (!text.trim()) return set({ result: null, pending: false, error: null, elapsedMs: null });
      const started = performance.now();
      try {
        const result = await call('suggest', workspace ? { text, workspace } : { text });
        // Only the newest question's answer is shown; a slow older one never overwrites it.
        if (seq === runSeq) set({ result, pending: false, error: null, elapsedMs: Math.round(performance.now() - started) });
      } catch (err) {
        if (seq === runSeq) set({ error: errorMessage(err), pending: false });
      }
    },
  };
});
