// The conversation browser's state: filters, and the list as pages fetched on demand, so 50,000
// conversations cost only the rows on screen (the virtual list asks for what it shows).
import { create } from 'zustand';
import type { ConversationListItem, ListParams } from '../../../shared/api';
import type { SourceKind } from '../../../shared/types';
import { debounce } from '../lib/debounce';
import { call, errorMessage } from '../lib/transport';

export const PAGE_SIZE = 200;
/** Search as you type asks once typing pauses for this long. */
export const SEARCH_DEBOUNCE_MS = 150;

export type DateRange = 'any' | '1d' | '7d' | '30d' | '365d';
const RANGE_DAYS: Record<Exclude<DateRange, 'any'>, number> = { '1d': 1, '7d': 7, '30d': 30, '365d': 365 };

export interface Filters {
  query: string;
  workspace: string;
  source: SourceKind | '';
  range: DateRange;
  subagents: boolean;
  sort: 'recent' | 'relevance';
}

export const DEFAULT_FILTERS: Filters = { query: '', workspace: '', source: '', range: 'any', subagents: false, sort: 'relevance' };

interface State {
  filters: Filters;
  total: number | null;
  /** A search that found no conversation holding every word: these hold some of them. */
  relaxed: boolean;
  pages: Record<number, ConversationListItem[]>;
  generation: number;
  loading: boolean;
  error: string | null;
  /** The keyboard-active row. */
  active: number;
  setFilters(patch: Partial<Filters>): void;
  /** The search box's text as typed: searched for once typing pauses (Enter searches at once). */
  searchSoon(query: string): void;
  ensure(start: number, end: number): void;
  reload(): void;
  setActive(index: number): void;
  item(index: number): ConversationListItem | undefined;
  /** Where a conversation is in the pages loaded so far, or -1. */
  indexOf(id: number): number;
  /** The default filters and no pages: a pending search is not asked, answers in flight are dropped. */
  reset(): void;
}

export function listParams(f: Filters, offset: number, limit: number): ListParams {
  const p: ListParams = { offset, limit, subagents: f.subagents };
  if (f.query.trim()) {
    p.query = f.query.trim();
    p.sort = f.sort;
  }
  if (f.workspace) p.workspace = f.workspace;
  if (f.source) p.source = f.source;
  if (f.range !== 'any') p.since = new Date(Date.now() - RANGE_DAYS[f.range] * 86_400_000).toISOString();
  return p;
}

let listAnswered: () => void = () => {};
/**
 * Settles once a first page of the list has been answered (or has failed). The calls the window does
 * not need for its first paint (the workspaces, the index status) wait for it: the daemon answers a
 * window's calls one after another, so each one sent before the list would delay it.
 */
export const firstPageAnswered = new Promise<void>((resolve) => (listAnswered = resolve));

export const useConversations = create<State>((set, get) => {
  // Pages being fetched, by generation and page: the list asks for a page on every scroll frame.
  const inflight = new Set<string>();
  const search = debounce((query: string) => {
    if (query !== get().filters.query) get().setFilters({ query });
  }, SEARCH_DEBOUNCE_MS);
  async function loadPage(page: number, generation: number): Promise<void> {
    const key = `${generation}:${page}`;
    if (inflight.has(key)) return;
    inflight.add(key);
    if (get().total === null) set({ loading: true, error: null });
    try {
      const res = await call('conversations.list', listParams(get().filters, page * PAGE_SIZE, PAGE_SIZE));
      // A reply for filters the person has already changed is dropped.
      if (get().generation !== generation) return;
      set((s) => ({ total: res.total, relaxed: page === 0 ? res.relaxed === true : s.relaxed, pages: { ...s.pages, [page]: res.items }, loading: false }));
    } catch (err) {
      if (get().generation === generation) set({ error: errorMessage(err), loading: false });
    } finally {
      inflight.delete(key);
      if (page === 0) listAnswered();
    }
  }

  const empty = { filters: DEFAULT_FILTERS, total: null, relaxed: false, pages: {}, loading: false, error: null, active: 0 };
  return {
    ...empty,
    generation: 0,
    setFilters(patch) {
      if (patch.query !== undefined) search.cancel();
      set((s) => ({ filters: { ...s.filters, ...patch } }));
      get().reload();
    },
    searchSoon(query) {
      search(query);
    },
    reload() {
      const generation = get().generation + 1;
      set({ generation, total: null, relaxed: false, pages: {}, active: 0, error: null, loading: true });
      void loadPage(0, generation);
    },
    ensure(start, end) {
      const { pages, generation } = get();
      for (let page = Math.floor(start / PAGE_SIZE); page <= Math.floor(end / PAGE_SIZE); page++) {
        if (!pages[page]) void loadPage(page, generation);
      }
    },
    setActive(index) {
      const total = get().total ?? 0;
      set({ active: Math.max(0, Math.min(index, total - 1)) });
    },
    item(index) {
      return get().pages[Math.floor(index / PAGE_SIZE)]?.[index % PAGE_SIZE];
    },
    indexOf(id) {
      for (const [page, items] of Object.entries(get().pages)) {
        const i = items.findIndex((c) => c.id === id);
        if (i >= 0) return Number(page) * PAGE_SIZE + i;
      }
      return -1;
    },
    reset() {
      search.cancel();
      // A new generation: a page in flight for the old filters is dropped when it arrives.
      set((s) => ({ ...empty, generation: s.generation + 1 }));
    },
  };
});
