// The conversation browser's state: filters, and the list as pages fetched on demand, so 50,000
// conversations cost only the rows on screen (the virtual list asks for what it shows).
import { create } from 'zustand';
import type { ConversationListItem, ListParams } from '../../../shared/api';
import type { SourceKind } from '../../../shared/types';
import { call, errorMessage } from '../lib/transport';

export const PAGE_SIZE = 200;

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
  ensure(start: number, end: number): void;
  reload(): void;
  setActive(index: number): void;
  item(index: number): ConversationListItem | undefined;
  /** Where a conversation is in the pages loaded so far, or -1. */
  indexOf(id: number): number;
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

const inflight = new Set<string>();

export const useConversations = create<State>((set, get) => {
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
    }
  }

  return {
    filters: DEFAULT_FILTERS,
    total: null,
    relaxed: false,
    pages: {},
    generation: 0,
    loading: false,
    error: null,
    active: 0,
    setFilters(patch) {
      set((s) => ({ filters: { ...s.filters, ...patch } }));
      get().reload();
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
  };
});
