// Activity: what agents asked Throughline for and which conversations they were given.
import { useEffect, useState } from 'react';
import type { ActivityItem } from '../../../shared/api';
import { Empty, ErrorState, Loading } from '../components/states';
import { formatBytes, formatDateTime } from '../lib/format';
import { call, errorMessage } from '../lib/transport';
import { useConversationInfo } from '../lib/conversation-info';
import { parseActivityCall } from '../../../shared/tool-cards';
import { ActivityCard } from '../components/ActivityCard';

/** A conversation link titled once its title is known (activity rows carry only ids). */
function ConversationLink({ id }: { id: number }) {
  const info = useConversationInfo(id);
  const title = info === null ? `Conversation ${id} (no longer indexed)` : info?.title;
  return (
    <a href={`#/c/${id}`} className="chip" title={title}>
      {title ?? `#${id}`}
    </a>
  );
}

/** One call. History and recall calls are cards, as in the transcript (their card lists what was given). */
function ActivityRow({ a }: { a: ActivityItem }) {
  const tool = parseActivityCall(a.method, a.params);
  return (
    <li className="activity-item">
      <div className="activity-head">
        <code className="method">{a.method}</code>
        <span className="muted">{a.client}</span>
        <time className="muted small" dateTime={new Date(a.at).toISOString()}>
          {formatDateTime(a.at)}
        </time>
      </div>
      {tool ? <ActivityCard item={a} call={tool} /> : a.params && <p className="activity-params mono">{a.params}</p>}
      <div className="activity-given">
        {a.conversations.length === 0 ? (
          <span className="muted small">Given nothing</span>
        ) : (
          <>
            <span className="muted small">
              Given {a.conversations.length === 1 ? '1 conversation' : `${a.conversations.length} conversations`} · {formatBytes(a.bytes)}
            </span>
            {!tool && a.conversations.slice(0, 12).map((id) => <ConversationLink key={id} id={id} />)}
          </>
        )}
      </div>
    </li>
  );
}

export function ActivityView() {
  const [items, setItems] = useState<ActivityItem[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const load = () =>
    call('activity', { limit: 200 })
      .then((r) => {
        setItems(r.items);
        setError(null);
      })
      .catch((err) => setError(errorMessage(err)));
  useEffect(() => {
    void load();
    const t = setInterval(() => void load(), 5000);
    return () => clearInterval(t);
  }, []);

  return (
    <div className="page activity">
      <header className="page-head">
        <h1>Activity</h1>
        <p className="lede">What your agents asked for, and which conversations they were given.</p>
      </header>
      {error && !items ? (
        <ErrorState message={error} onRetry={() => void load()} />
      ) : !items ? (
        <Loading label="Loading activity…" />
      ) : items.length === 0 ? (
        <Empty title="No agent has asked yet">
          <p>When an agent connects over the socket or MCP — for a suggestion, a search or a read — it shows up here.</p>
        </Empty>
      ) : (
        <ol className="activity-list">
          {items.map((a) => (
            <ActivityRow key={a.id} a={a} />
          ))}
        </ol>
      )}
    </div>
  );
}
