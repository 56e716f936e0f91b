// An Activity row of a history or recall tool, as a card like the transcript's (ToolCard.tsx): the
// query or what was read, and the conversations given, each a link with its agent and workspace.
// The log keeps the call's params summary and the ids given, not the answer, so hits carry no
// snippet or score here.
import type { ActivityItem } from '../../../shared/api';
import type { ActivityCall } from '../../../shared/tool-cards';
import { useConversationInfo } from '../lib/conversation-info';
import { ConversationFacts, entryHref, TOOL_LABEL as LABEL } from './ToolCard';
import { ToolIcon } from './icons';

/** A conversation by id or reference: its title (once known), agent and workspace. */
export function ConversationHit({ refOrId, entry = null }: { refOrId: number | string; entry?: number | null }) {
  const info = useConversationInfo(refOrId);
  const id = info?.id ?? (typeof refOrId === 'number' ? refOrId : null);
  const title = info?.title ?? (info === null ? `Conversation ${refOrId}` : `#${refOrId}`);
  return (
    <li>
      {id !== null ? (
        <a className="tool-card-hit" href={entryHref(id, entry)}>
          <span className="tool-card-line">
            <span className="tool-card-title">{title}</span>
            <ConversationFacts id={id} />
          </span>
        </a>
      ) : (
        <span className="tool-card-hit">
          <span className="tool-card-line">
            <span className="tool-card-title">{title}</span>
            <ConversationFacts id={refOrId} />
          </span>
        </span>
      )}
    </li>
  );
}

/** history_read items: the entries asked for, each a link into the conversation. */
function EntryLinks({ conversation, entries }: { conversation: string; entries: readonly number[] }) {
  const info = useConversationInfo(conversation);
  if (!info || !entries.length) return null;
  return (
    <p className="tool-card-entries" aria-label="entries asked for">
      {entries.map((n) => (
        <a key={n} className="tool-card-seq" href={entryHref(info.id, n)} title={`Entry ${n} of ${info.title}`}>
          #{n}
        </a>
      ))}
    </p>
  );
}

export function ActivityCard({ item, call }: { item: ActivityItem; call: ActivityCall }) {
  // The conversations given (recall's hits, the one read), else the one the call named.
  const given: (number | string)[] = item.conversations.length ? item.conversations : call.conversation ? [call.conversation] : [];
  return (
    <section className={`tool-card tool-card-${call.tool}`} aria-label={LABEL[call.tool]}>
      <header className="tool-card-head">
        <ToolIcon />
        <span className="tool-card-name">{LABEL[call.tool]}</span>
        {call.query !== null && <q className="tool-card-query">{call.query}</q>}
        {call.what && <span className="tool-card-what">{call.what}</span>}
        {call.tool === 'recall_conversations' && (
          <span className="muted small">
            {item.conversations.length === 1 ? '1 conversation' : `${item.conversations.length} conversations`}
          </span>
        )}
      </header>
      {given.length > 0 && (
        <ol className="tool-card-list" aria-label={call.tool === 'recall_conversations' ? 'hits' : 'conversation'}>
          {given.slice(0, 12).map((c) => (
            <ConversationHit key={String(c)} refOrId={c} />
          ))}
        </ol>
      )}
      {call.tool === 'history_read' && call.conversation && <EntryLinks conversation={call.conversation} entries={call.entries} />}
    </section>
  );
}
