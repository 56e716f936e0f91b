// Conversations: the list on the left, the open transcript on the right; below ~900 px one of the
// two at a time (styles/layout.css), the transcript with a way back.
import { Suspense, useEffect, useRef } from 'react';
import { ConversationFilters } from '../components/ConversationFilters';
import { ConversationList } from '../components/ConversationList';
import { Empty, Loading } from '../components/states';
import { useConversations } from '../stores/conversations';
import { useRoute } from '../stores/route';
import { prefetchTranscript, TranscriptView } from './lazy';

/**
 * A new search must not leave an unrelated transcript beside its results: once the first page of
 * results is in, the open conversation stays (selected in the list) if it is among them, and is
 * closed otherwise.
 */
function useTranscriptFollowsSearch(): void {
  const query = useConversations((s) => s.filters.query.trim());
  const firstPage = useConversations((s) => s.pages[0]);
  const settled = useRef(query);
  useEffect(() => {
    if (!firstPage || query === settled.current) return;
    settled.current = query;
    const { route, go } = useRoute.getState();
    if (!query || route.id === undefined) return;
    const at = firstPage.findIndex((c) => c.id === route.id);
    if (at >= 0) useConversations.getState().setActive(at);
    else go({ view: 'conversations' });
  }, [query, firstPage]);
}

export function ConversationsView() {
  const route = useRoute((s) => s.route);
  useEffect(() => {
    // main.tsx may have asked for the list already, before the first render.
    const { total, loading, reload } = useConversations.getState();
    if (total === null && !loading) reload();
  }, []);
  useTranscriptFollowsSearch();
  // Once the list is in, the transcript's code is fetched while the person reads it.
  const listed = useConversations((s) => s.pages[0] !== undefined);
  useEffect(() => {
    if (listed) prefetchTranscript();
  }, [listed]);
  const open = route.id !== undefined;
  return (
    <div className={`split${open ? ' has-transcript' : ''}`}>
      <section className="list-pane" aria-label="Conversation list">
        <ConversationFilters />
        <ConversationList />
      </section>
      <section className="detail-pane" aria-label="Transcript">
        {open ? (
          <Suspense fallback={<Loading />}>
            <TranscriptView id={route.id!} entry={route.entry} q={route.q} />
          </Suspense>
        ) : (
          <Empty title="Pick a conversation">
            <p>Search for something you worked on — a file, an error, a decision — and open it here.</p>
            <p className="hint">
              <kbd>Ctrl</kbd>+<kbd>K</kbd> search · <kbd>j</kbd> <kbd>k</kbd> move · <kbd>Enter</kbd> open · <kbd>?</kbd> all shortcuts
            </p>
          </Empty>
        )}
      </section>
    </div>
  );
}
