// Activity: what agents asked Throughline for and which conversations they were given.
import { useEffect, useState } from 'react';
import type { ActivityItem } from '../../../shared/api';
import { Empty, ErrorState, Loading } from '../components/states';
import { formatBytes, formatDateTime } from '../lib/format';
import { call, errorMessage } from '../lib/transport';

const titles = new Map<number, string>();

/** A conversation link titled lazily (activity rows carry only ids). */
function ConversationLink({ id }: { id: number }) {
  const [title, setTitle] = useState(titles.get(id));
  useEffect(() => {
    if (title !== undefined) return;
    let live = true;
    call('conversations.get', { conversation_id: id })
      .then((d) => {
        titles.set(id, d.conversation.title);
        if (live) setTitle(d.conversation.title);
      })
      .catch(() => live && setTitle(`Conversation ${id} (no longer indexed)`));
    return () => {
      live = false;
    };
  }, [id, title]);
  return (
    <a href={`#/c/${id}`} className="chip" title={title}>
      {title ?? `#${id}`}
    </a>
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
            <li key={a.id} className="activity-item">
              <div className="activity-head">
                <code className="method">{a.method}</code>
                <span className="muted">{a.client}</span>
                <time className="muted small" dateTime={new Date(a.at).toISOString()}>
                  {formatDateTime(a.at)}
                </time>
              </div>
              {a.params && <p className="activity-params mono">{a.params}</p>}
              <div className="activity-given">
                {a.conversations.length === 0 ? (
                  <span className="muted small">Given nothing</span>
                ) : (
                  <>
                    <span className="muted small">Given {a.conversations.length === 1 ? '1 conversation' : `${a.conversations.length} conversations`} · {formatBytes(a.bytes)}</span>
                    {a.conversations.slice(0, 12).map((id) => (
                      <ConversationLink key={id} id={id} />
                    ))}
                  </>
                )}
              </div>
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}
