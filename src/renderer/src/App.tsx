// The window: a left nav and the current view. Views are chosen by the URL hash (stores/route.ts).
import { Suspense, useCallback, useEffect, useState, type ReactNode } from 'react';
import { ActivityIcon, ChatIcon, ComposeIcon, Logo, SettingsIcon, StatusIcon } from './components/icons';
import { ShortcutsDialog } from './components/ShortcutsDialog';
import { Loading } from './components/states';
import { formatNumber } from './lib/format';
import { useShortcuts } from './lib/shortcuts';
import { firstPageAnswered } from './stores/conversations';
import { useRoute, type View } from './stores/route';
import { useStatus } from './stores/status';
import { ConversationsView } from './views/ConversationsView';
import { ActivityView, ComposeView, SettingsView, StatusView } from './views/lazy';

const NAV: { view: View; label: string; icon: ReactNode }[] = [
  { view: 'conversations', label: 'Conversations', icon: <ChatIcon /> },
  { view: 'compose', label: 'Compose', icon: <ComposeIcon /> },
  { view: 'activity', label: 'Activity', icon: <ActivityIcon /> },
  { view: 'status', label: 'Index status', icon: <StatusIcon /> },
  { view: 'settings', label: 'Settings', icon: <SettingsIcon /> },
];

function IndexBadge() {
  const status = useStatus((s) => s.status);
  const go = useRoute((s) => s.go);
  if (!status) return null;
  const indexing = status.indexing?.active ? status.indexing : null;
  const pct = indexing && indexing.filesTotal > 0 ? Math.round((indexing.filesDone / indexing.filesTotal) * 100) : null;
  return (
    <button type="button" className="nav-index" onClick={() => go({ view: 'status' })} title={`${formatNumber(status.conversations)} conversations — index status`}>
      <span className={`dot ${indexing ? 'busy' : status.errorCount ? 'warn' : 'ok'}`} aria-hidden="true" />
      <span>
        {indexing ? `Indexing${pct !== null ? ` · ${pct}%` : '…'}` : `${formatNumber(status.conversations)} conversations`}
        <small>{indexing ? `${formatNumber(indexing.entries)} entries` : status.errorCount ? `${formatNumber(status.errorCount)} skipped ${status.errorCount === 1 ? 'line' : 'lines'}` : 'Index up to date'}</small>
      </span>
    </button>
  );
}

function Nav({ current }: { current: View }) {
  return (
    <nav className="nav" aria-label="Main">
      <div className="brand">
        <Logo />
        <span>Throughline</span>
      </div>
      <ul>
        {NAV.map((n) => (
          <li key={n.view}>
            <a href={`#/${n.view}`} className="nav-link" aria-current={current === n.view ? 'page' : undefined} title={n.label}>
              {n.icon}
              <span>{n.label}</span>
            </a>
          </li>
        ))}
      </ul>
      <div className="nav-foot">
        <IndexBadge />
      </div>
    </nav>
  );
}

/** How long the status waits for the list's first page at most (a slow list must not hide the index's state). */
const STATUS_WAITS_MS = 2000;

/**
 * Polls the index status, starting once the list's first page is in when the window opens on it (the
 * status counts the whole index: on a large one it takes the daemon longer than the list); returns
 * the function that stops it.
 */
function startStatusAfterList(): () => void {
  let stop: (() => void) | null = null;
  let stopped = false;
  const start = (): void => {
    if (!stopped && !stop) stop = useStatus.getState().poll();
  };
  if (useRoute.getState().route.view !== 'conversations') start();
  else {
    void firstPageAnswered.then(start);
    setTimeout(start, STATUS_WAITS_MS);
  }
  return () => {
    stopped = true;
    stop?.();
  };
}

export function App() {
  const route = useRoute((s) => s.route);
  const [help, setHelp] = useState(false);
  const showHelp = useCallback(() => setHelp(true), []);
  useShortcuts(showHelp);
  useEffect(() => startStatusAfterList(), []);
  useEffect(() => {
    const titles: Record<View, string> = { conversations: 'Conversations', compose: 'Compose', activity: 'Activity', status: 'Index status', settings: 'Settings' };
    document.title = `${titles[route.view]} · Throughline`;
  }, [route.view]);
  return (
    <div className="app">
      {/* A button, not an anchor: "#main" would be read as a route. */}
      <button type="button" className="skip-link" onClick={() => document.getElementById('main')?.focus()}>
        Skip to content
      </button>
      <Nav current={route.view} />
      <main id="main" className="main" tabIndex={-1}>
        <Suspense fallback={<Loading />}>
          {route.view === 'conversations' && <ConversationsView />}
          {route.view === 'compose' && <ComposeView />}
          {route.view === 'activity' && <ActivityView />}
          {route.view === 'status' && <StatusView />}
          {route.view === 'settings' && <SettingsView />}
        </Suspense>
      </main>
      <ShortcutsDialog open={help} onClose={() => setHelp(false)} />
    </div>
  );
}
