// One open conversation: its details and a window of entries that grows older or newer on demand
// (the view renders only those in sight), and find in conversation over all of its entries.
import { create } from 'zustand';
import type { ConversationDetail, FindResult } from '../../../shared/api';
import type { Entry } from '../../../shared/types';
import { debounce } from '../lib/debounce';
import { latest } from '../lib/latest';
import { call, CallError, errorMessage, NOT_FOUND } from '../lib/transport';

export const ENTRY_PAGE = 150;
/** Find asks once typing pauses for this long. */
export const FIND_DEBOUNCE_MS = 120;

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
  /** The find bar's text as typed: shown at once, searched for once typing pauses. */
  typeFind(query: string): void;
  search(query: string): Promise<void>;
  step(delta: 1 | -1): void;
  /** Back to nothing open: requests in flight are dropped and a pending find is not asked. */
  reset(): void;
}

type Data = Omit<State, 'open' | 'older' | 'newer' | 'show' | 'openFind' | 'closeFind' | 'typeFind' | 'search' | 'step' | 'reset'>;

const EMPTY: Data = {
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
};

/**
 * The entry a page older or newer is asked from. The window must be the open conversation's: a page
 * asked of one conversation from another's position would be merged into the wrong transcript.
 */
function cursor(id: number, entries: readonly Entry[], edge: 'first' | 'last'): number | null {
  const at = edge === 'first' ? entries[0] : entries.at(-1);
  if (at && at.conversationId !== id) {
    throw new Error(`The loaded entries belong to conversation ${at.conversationId}, not to conversation ${id}: reopen the conversation.`);
  }
  return at?.seq ?? null;
}

/** The page must hold entries of the conversation it was asked of. */
function checkPage(id: number, entries: readonly Entry[]): void {
  const stray = entries.find((e) => e.conversationId !== id);
  if (stray) throw new Error(`A page of conversation ${stray.conversationId} arrived for conversation ${id}: not shown.`);
}

/** The entry holding occurrence `n`, and which occurrence of that entry it is. */
export function occurrenceAt(result: FindResult, n: number): { entry: number; nth: number } | null {
  let left = n;
  for (const m of result.matches) {
    if (left < m.count) return { entry: m.entry, nth: left };
    left -= m.count;
  }
  return null;
}

export const useTranscript = create<State>((set, get) => {
  // The store's request tokens: the newest open, the newest find, and the paging of the window as
  // it is now (an open or a reveal replaces the window, and a page asked of the old one is dropped).
  const opens = latest();
  const finds = latest();
  const pages = latest();
  const findSoon = debounce((query: string) => void get().search(query), FIND_DEBOUNCE_MS);

  /** One page older or newer, merged into the window if it is still the one it was asked from. */
  async function page(direction: 'older' | 'newer'): Promise<void> {
    const { id, entries, hasOlder, hasNewer, paging } = get();
    if (id === null || !(direction === 'older' ? hasOlder : hasNewer) || paging) return;
    const isCurrent = pages.begin();
    try {
      const edge = cursor(id, entries, direction === 'older' ? 'first' : 'last');
      set({ paging: direction });
      const params = direction === 'older' ? { conversation_id: id, before: edge ?? 0, limit: ENTRY_PAGE } : { conversation_id: id, from: (edge ?? -1) + 1, limit: ENTRY_PAGE };
      const got = await call('conversations.entries', params);
      if (!isCurrent()) return;
      checkPage(id, got.entries);
      const more = got.entries.length > 0;
      set((s) =>
        direction === 'older'
          ? { entries: [...got.entries, ...s.entries], hasOlder: more && got.hasOlder, paging: null }
          : { entries: [...s.entries, ...got.entries], hasNewer: more && got.hasNewer, paging: null },
      );
    } catch (err) {
      if (isCurrent()) set({ error: errorMessage(err), paging: null });
    }
  }

  return {
    ...EMPTY,

    async open(id, entry) {
      const isCurrent = opens.begin();
      const same = get().id === id;
      const loaded = same && entry !== undefined && get().entries.some((e) => e.seq === entry);
      if (loaded) return set({ target: entry ?? null });
      pages.cancel();
      set({ id, target: entry ?? null, loading: true, paging: null, error: null, notFound: false, ...(same ? {} : { detail: null, entries: [], find: null, scrollTo: null }) });
      if (!same) {
        finds.cancel();
        findSoon.cancel();
      }
      try {
        const [detail, page] = await Promise.all([
          same && get().detail ? Promise.resolve(get().detail!) : call('conversations.get', { conversation_id: id }),
          call('conversations.entries', entry !== undefined ? { conversation_id: id, around: entry, limit: ENTRY_PAGE } : { conversation_id: id, from: 0, limit: ENTRY_PAGE }),
        ]);
        if (!isCurrent()) return;
        set({ detail, entries: page.entries, hasOlder: page.hasOlder, hasNewer: page.hasNewer, boundary: page.boundary, loading: false });
      } catch (err) {
        if (isCurrent()) set({ error: errorMessage(err), notFound: err instanceof CallError && err.code === NOT_FOUND, loading: false });
      }
    },

    older: () => page('older'),
    newer: () => page('newer'),

    async show(seq) {
      const { id, entries } = get();
      if (id === null) return;
      if (!entries.some((e) => e.seq === seq)) {
        // Not loaded: the page around it replaces the window (as a reveal does), keeping the target.
        const isCurrent = pages.begin();
        const around = await call('conversations.entries', { conversation_id: id, around: seq, limit: ENTRY_PAGE });
        if (!isCurrent() || get().id !== id) return;
        set({ entries: around.entries, hasOlder: around.hasOlder, hasNewer: around.hasNewer, paging: null });
      }
      set((s) => ({ scrollTo: { seq, nonce: (s.scrollTo?.nonce ?? 0) + 1 } }));
    },

    openFind() {
      if (!get().find) set({ find: { query: '', result: null, current: 0 } });
    },

    closeFind() {
      finds.cancel();
      findSoon.cancel();
      set({ find: null });
    },

    typeFind(query) {
      set({ find: { query, result: null, current: 0 } });
      findSoon(query);
    },

    async search(query) {
      const { id } = get();
      const isCurrent = finds.begin();
      if (id === null) return;
      if (!query.trim()) return set({ find: { query, result: null, current: 0 } });
      set((s) => ({ find: { query, result: s.find?.result ?? null, current: 0 } }));
      try {
        const result = await call('conversations.find', { conversation_id: id, query });
        if (!isCurrent() || get().id !== id) return;
        set({ find: { query, result, current: 0 } });
        const first = occurrenceAt(result, 0);
        if (first) await get().show(first.entry);
      } catch (err) {
        if (isCurrent()) set({ error: errorMessage(err) });
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

    reset() {
      opens.cancel();
      finds.cancel();
      pages.cancel();
      findSoon.cancel();
      set(EMPTY);
    },
  };
});
