// Conversations: the list on the left, the open transcript on the right; below ~900 px one of the
// two at a time (styles/layout.css), the transcript with a way back.
import { useEffect, useRef } from 'react';
import { ConversationFilters } from '../components/ConversationFilters';
import { ConversationList } from '../components/ConversationList';
import { Empty } from '../components/states';
import { useConversations } from '../stores/conversations';
import { useRoute } from '../stores/route';
import { TranscriptView } from './TranscriptView';

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
    if (useConversations.getState().total === null) useConversations.getState().reload();
  }, []);
  useTranscriptFollowsSearch();
  const open = route.id !== undefined;
  return (
    <div className={`split${open ? ' has-transcript' : ''}`}>
      <section className="list-pane" aria-label="Conversation list">
        <ConversationFilters />
        <ConversationList />
      </section>
      <section className="detail-pane" aria-label="Transcript">
        {open ? (
          <TranscriptView id={route.id!} entry={route.entry} q={route.q} />
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
