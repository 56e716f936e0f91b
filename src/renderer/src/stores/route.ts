// Where the window is, kept in the URL hash so links (`#/c/12?entry=40`), reloads and the
// browser's back button all work, in Electron and in browser mode alike.
import { create } from 'zustand';

export type View = 'conversations' | 'compose' | 'settings' | 'status' | 'activity';

export interface Route {
  view: View;
  /** An open conversation (conversations view). */
  id?: number;
  /** The entry to reveal in it. */
  entry?: number;
  /** The words that led there (a search, a suggestion): highlighted in the revealed entry. */
  q?: string;
}

const VIEWS: readonly View[] = ['conversations', 'compose', 'settings', 'status', 'activity'];

export function parseHash(hash: string): Route {
  const [pathPart = '', query = ''] = hash.replace(/^#/, '').split('?');
  const parts = pathPart.split('/').filter(Boolean);
  if (parts[0] === 'c' && /^\d+$/.test(parts[1] ?? '')) {
    const params = new URLSearchParams(query);
    const entry = params.get('entry');
    const q = params.get('q')?.trim().slice(0, 500);
    return { view: 'conversations', id: Number(parts[1]), entry: entry !== null && /^\d+$/.test(entry) ? Number(entry) : undefined, ...(q ? { q } : {}) };
  }
  const view = VIEWS.find((v) => v === parts[0]);
  return { view: view ?? 'conversations' };
}

export function routeHash(route: Route): string {
  if (route.view === 'conversations' && route.id !== undefined) {
    const params = new URLSearchParams();
    if (route.entry !== undefined) params.set('entry', String(route.entry));
    if (route.entry !== undefined && route.q) params.set('q', route.q);
    const query = params.toString();
    return `#/c/${route.id}${query ? `?${query}` : ''}`;
  }
  return `#/${route.view}`;
}

interface RouteState {
  route: Route;
  /** Bumped on every navigation, so opening the same entry twice reveals it again. */
  nonce: number;
  go(route: Route): void;
}

export const useRoute = create<RouteState>((set) => ({
  route: parseHash(typeof location === 'undefined' ? '' : location.hash),
  nonce: 0,
  go(route) {
    const hash = routeHash(route);
    if (location.hash !== hash) location.hash = hash;
    else set((s) => ({ route, nonce: s.nonce + 1 }));
  },
}));

if (typeof window !== 'undefined') {
  window.addEventListener('hashchange', () => useRoute.setState((s) => ({ route: parseHash(location.hash), nonce: s.nonce + 1 })));
}
