// Conversations: the list on the left, the open transcript on the right.
import { useEffect } from 'react';
import { ConversationFilters } from '../components/ConversationFilters';
import { ConversationList } from '../components/ConversationList';
import { Empty } from '../components/states';
import { useConversations } from '../stores/conversations';
import { useRoute } from '../stores/route';
import { TranscriptView } from './TranscriptView';

export function ConversationsView() {
  const route = useRoute((s) => s.route);
  useEffect(() => {
    if (useConversations.getState().total === null) useConversations.getState().reload();
  }, []);
  return (
    <div className="split">
      <section className="list-pane" aria-label="Conversation list">
        <ConversationFilters />
        <ConversationList />
      </section>
      <section className="detail-pane" aria-label="Transcript">
        {route.id !== undefined ? (
          <TranscriptView id={route.id} entry={route.entry} />
        ) : (
          <Empty title="Pick a conversation">
            <p>Search for something you worked on — a file, an error, a decision — and open it here.</p>
            <p className="hint">
              <kbd>/</kbd> search · <kbd>↑</kbd>
              <kbd>↓</kbd> move · <kbd>Enter</kbd> open
            </p>
          </Empty>
        )}
      </section>
    </div>
  );
}
