// One open conversation: its details and a window of entries that grows older or newer on demand.
import { create } from 'zustand';
import type { ConversationDetail } from '../../../shared/api';
import type { Entry } from '../../../shared/types';
import { call, errorMessage } from '../lib/transport';

export const ENTRY_PAGE = 80;

interface State {
  id: number | null;
  detail: ConversationDetail | null;
  entries: Entry[];
  hasOlder: boolean;
  hasNewer: boolean;
  boundary: number | null;
  /** The entry being revealed (scrolled to, highlighted). */
  target: number | null;
  loading: boolean;
  paging: 'older' | 'newer' | null;
  error: string | null;
  open(id: number, entry?: number): Promise<void>;
  older(): Promise<void>;
  newer(): Promise<void>;
}

let openSeq = 0;

export const useTranscript = create<State>((set, get) => ({
  id: null,
  detail: null,
  entries: [],
  hasOlder: false,
  hasNewer: false,
  boundary: null,
  target: null,
  loading: false,
  paging: null,
  error: null,

  async open(id, entry) {
    const seq = ++openSeq;
    const same = get().id === id;
    const loaded = same && entry !== undefined && get().entries.some((e) => e.seq === entry);
    if (loaded) return set({ target: entry ?? null });
    set({ id, target: entry ?? null, loading: true, error: null, ...(same ? {} : { detail: null, entries: [] }) });
    try {
      const [detail, page] = await Promise.all([
        same && get().detail ? Promise.resolve(get().detail!) : call('conversations.get', { conversation_id: id }),
        call('conversations.entries', entry !== undefined ? { conversation_id: id, around: entry, limit: ENTRY_PAGE } : { conversation_id: id, from: 0, limit: ENTRY_PAGE }),
      ]);
      if (seq !== openSeq) return;
      set({ detail, entries: page.entries, hasOlder: page.hasOlder, hasNewer: page.hasNewer, boundary: page.boundary, loading: false });
    } catch (err) {
      if (seq === openSeq) set({ error: errorMessage(err), loading: false });
    }
  },

  async older() {
    const { id, entries, hasOlder, paging } = get();
    if (id === null || !hasOlder || paging) return;
    set({ paging: 'older' });
    try {
      const page = await call('conversations.entries', { conversation_id: id, before: entries[0]?.seq ?? 0, limit: ENTRY_PAGE });
      if (get().id !== id) return;
      set((s) => ({ entries: [...page.entries, ...s.entries], hasOlder: page.entries.length > 0 && page.hasOlder, paging: null }));
    } catch (err) {
      set({ error: errorMessage(err), paging: null });
    }
  },

  async newer() {
    const { id, entries, hasNewer, paging } = get();
    if (id === null || !hasNewer || paging) return;
    set({ paging: 'newer' });
    try {
      const from = (entries.at(-1)?.seq ?? -1) + 1;
      const page = await call('conversations.entries', { conversation_id: id, from, limit: ENTRY_PAGE });
      if (get().id !== id) return;
      set((s) => ({ entries: [...s.entries, ...page.entries], hasNewer: page.entries.length > 0 && page.hasNewer, paging: null }));
    } catch (err) {
      set({ error: errorMessage(err), paging: null });
    }
  },
}));
