// One open conversation: its details and a window of entries that grows older or newer on demand
// (the view renders only those in sight), and find in conversation over all of its entries.
import { create } from 'zustand';
import type { ConversationDetail, FindResult } from '../../../shared/api';
import type { Entry } from '../../../shared/types';
import { call, CallError, errorMessage, NOT_FOUND } from '../lib/transport';

export const ENTRY_PAGE = 150;

export interface FindState {
  query: string;
  result: FindResult | null;
  /** Which occurrence is current, counted over the whole conversation (0-based). */
  current: number;
}

interface State {
  id: number | null;
  detail: ConversationDetail | null;
  entries: Entry[];
  hasOlder: boolean;
  hasNewer: boolean;
  boundary: number | null;
  /** The entry being revealed (scrolled to, highlighted). */
  target: number | null;
  /** An entry to bring into view (find), with a counter so the same one can be asked for twice. */
  scrollTo: { seq: number; nonce: number } | null;
  loading: boolean;
  paging: 'older' | 'newer' | null;
  error: string | null;
  /** The conversation is not in the index (a stale link, a forgotten conversation). */
  notFound: boolean;
  /** null: the find bar is closed. */
  find: FindState | null;
  open(id: number, entry?: number): Promise<void>;
  older(): Promise<void>;
  newer(): Promise<void>;
  /** Brings an entry into view, loading the page around it first when it is not loaded. */
  show(seq: number): Promise<void>;
  openFind(): void;
  closeFind(): void;
  search(query: string): Promise<void>;
  step(delta: 1 | -1): void;
}

let openSeq = 0;
let findSeq = 0;
let nonce = 0;

/** The entry holding occurrence `n`, and which occurrence of that entry it is. */
export function occurrenceAt(result: FindResult, n: number): { entry: number; nth: number } | null {
  let left = n;
  for (const m of result.matches) {
    if (left < m.count) return { entry: m.entry, nth: left };
    left -= m.count;
  }
  return null;
}

export const useTranscript = create<State>((set, get) => ({
  id: null,
  detail: null,
  entries: [],
  hasOlder: false,
  hasNewer: false,
  boundary: null,
  target: null,
  scrollTo: null,
  loading: false,
  paging: null,
  error: null,
  notFound: false,
  find: null,

  async open(id, entry) {
    const seq = ++openSeq;
    const same = get().id === id;
    const loaded = same && entry !== undefined && get().entries.some((e) => e.seq === entry);
    if (loaded) return set({ target: entry ?? null });
    set({ id, target: entry ?? null, loading: true, error: null, notFound: false, ...(same ? {} : { detail: null, entries: [], find: null, scrollTo: null }) });
    try {
      const [detail, page] = await Promise.all([
        same && get().detail ? Promise.resolve(get().detail!) : call('conversations.get', { conversation_id: id }),
        call('conversations.entries', entry !== undefined ? { conversation_id: id, around: entry, limit: ENTRY_PAGE } : { conversation_id: id, from: 0, limit: ENTRY_PAGE }),
      ]);
      if (seq !== openSeq) return;
      set({ detail, entries: page.entries, hasOlder: page.hasOlder, hasNewer: page.hasNewer, boundary: page.boundary, loading: false });
    } catch (err) {
      if (seq === openSeq) set({ error: errorMessage(err), notFound: err instanceof CallError && err.code === NOT_FOUND, loading: false });
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

  async show(seq) {
    const { id, entries } = get();
    if (id === null) return;
    if (!entries.some((e) => e.seq === seq)) {
      // Not loaded: the page around it replaces the window (as a reveal does), keeping the target.
      const page = await call('conversations.entries', { conversation_id: id, around: seq, limit: ENTRY_PAGE });
      if (get().id !== id) return;
      set({ entries: page.entries, hasOlder: page.hasOlder, hasNewer: page.hasNewer });
    }
    set({ scrollTo: { seq, nonce: ++nonce } });
  },

  openFind() {
    if (!get().find) set({ find: { query: '', result: null, current: 0 } });
  },

  closeFind() {
    findSeq++;
    set({ find: null });
  },

  async search(query) {
    const { id } = get();
    const seq = ++findSeq;
    if (id === null) return;
    if (!query.trim()) return set({ find: { query, result: null, current: 0 } });
    set((s) => ({ find: { query, result: s.find?.result ?? null, current: 0 } }));
    try {
      const result = await call('conversations.find', { conversation_id: id, query });
      if (seq !== findSeq || get().id !== id) return;
      set({ find: { query, result, current: 0 } });
      const first = occurrenceAt(result, 0);
      if (first) await get().show(first.entry);
    } catch (err) {
      if (seq === findSeq) set({ error: errorMessage(err) });
    }
  },

  step(delta) {
    const find = get().find;
    if (!find?.result || find.result.total === 0) return;
    const current = (find.current + delta + find.result.total) % find.result.total;
    set({ find: { ...find, current } });
    const at = occurrenceAt(find.result, current);
    if (at) void get().show(at.entry);
  },
}));
