// The window's keyboard shortcuts (listed in components/ShortcutsDialog.tsx). One listener on the
// window; keys typed into a field stay the field's, except Ctrl/Cmd+K and Ctrl/Cmd+F.
import { useEffect } from 'react';
import { useConversations } from '../stores/conversations';
import { useRoute } from '../stores/route';
import { useTranscript } from '../stores/transcript';

/** Below this width list and transcript share one pane (styles/layout.css says the same). */
const ONE_PANE = '(max-width: 899px)';

function typing(target: EventTarget | null): target is HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement {
  return target instanceof HTMLElement && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName));
}

/** Runs `fn` on the element once it is in the page (after a navigation has rendered), for a second at most. */
function whenThere(selector: string, fn: (el: HTMLElement) => void): void {
  const started = performance.now();
  const tick = () => {
    const el = document.querySelector<HTMLElement>(selector);
    if (el) fn(el);
    else if (performance.now() - started < 1000) requestAnimationFrame(tick);
  };
  tick();
}

function focusSearch(): void {
  const { route, go } = useRoute.getState();
  if (route.view !== 'conversations' || (route.id !== undefined && matchMedia(ONE_PANE).matches)) go({ view: 'conversations' });
  whenThere('#conv-search', (el) => {
    el.focus();
    (el as HTMLInputElement).select();
  });
}

/** Closes the transcript; the list gets focus on the row of the conversation that was open. */
function closeTranscript(id: number): void {
  useRoute.getState().go({ view: 'conversations' });
  const list = useConversations.getState();
  const at = list.indexOf(id);
  if (at >= 0) list.setActive(at);
  whenThere('.conv-list', (el) => el.focus());
}

/** j/k: the next or previous conversation; with a transcript open, it opens, so reading goes on. */
function move(delta: 1 | -1): void {
  const { route, go } = useRoute.getState();
  const list = useConversations.getState();
  const total = list.total ?? 0;
  if (!total) return;
  const from = route.id !== undefined && list.indexOf(route.id) >= 0 ? list.indexOf(route.id) : list.active;
  const next = Math.max(0, Math.min(total - 1, from + delta));
  list.setActive(next);
  const item = list.item(next);
  if (route.id !== undefined) {
    if (item && item.id !== route.id) go({ view: 'conversations', id: item.id });
  } else {
    whenThere('.conv-list', (el) => el.focus());
  }
}

export function useShortcuts(showHelp: () => void): void {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      // An open dialog (the shortcut list) handles its own keys, Esc included.
      if (document.querySelector('dialog[open]')) return;
      const { route } = useRoute.getState();
      const mod = (e.ctrlKey || e.metaKey) && !e.altKey && !e.shiftKey;
      const key = e.key.toLowerCase();
      if (mod && key === 'k') {
        e.preventDefault();
        return focusSearch();
      }
      if (mod && key === 'f' && route.view === 'conversations' && route.id !== undefined) {
        e.preventDefault();
        useTranscript.getState().openFind();
        return whenThere('.find-bar input', (el) => {
          el.focus();
          (el as HTMLInputElement).select();
        });
      }
      if (e.key === 'Escape' && route.view === 'conversations' && route.id !== undefined && !(typing(e.target) && e.target.value)) {
        e.preventDefault();
        return closeTranscript(route.id);
      }
      if (typing(e.target) || e.ctrlKey || e.metaKey || e.altKey) return;
      if (e.key === '?') {
        e.preventDefault();
        showHelp();
      } else if ((e.key === 'j' || e.key === 'k') && route.view === 'conversations') {
        e.preventDefault();
        move(e.key === 'j' ? 1 : -1);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [showHelp]);
}
