// The conversation list: virtual (only the rows on screen exist), fixed-height rows so scrolling
// 50,000 conversations never measures anything, pages fetched as they come into view, and a
// listbox you can drive from the keyboard (arrows, Page Up/Down, Home/End, Enter).
import { useVirtualizer } from '@tanstack/react-virtual';
import { memo, useEffect, useRef, useState, type KeyboardEvent } from 'react';
import type { ConversationListItem } from '../../../shared/api';
import { formatNumber, formatRelative, shortPath, SOURCE_LABEL } from '../lib/format';
import { stripMarkdown } from '../lib/plain';
import { Snippet } from '../lib/snippet';
import { useConversations } from '../stores/conversations';
import { useRoute } from '../stores/route';
import { useStatus } from '../stores/status';
import { Empty, ErrorState, Loading } from './states';

const ROW_HEIGHT = 80;

/** Memoized on the item, which a loaded page never replaces: scrolling renders only the rows it reveals. */
const Row = memo(function Row({ item, query }: { item: ConversationListItem; query: string }) {
  // A search hit's snippet, else the agent's summary, else Throughline's derived one, else the first reply.
  const preview = item.snippet || stripMarkdown(item.summary ?? item.derivedSummary ?? item.preview ?? '').trim();
  return (
    <>
      <div className="row-top">
        {/* Without a preview line the title may take two lines: long first messages are common titles. */}
        <span className={`row-title${preview ? '' : ' two-lines'}`}>{item.title}</span>
        <time className="row-date" dateTime={item.updatedAt ? new Date(item.updatedAt).toISOString() : undefined}>
          {formatRelative(item.updatedAt)}
        </time>
      </div>
      <div className="row-meta">
        <span className={`agent agent-${item.source}`}>{SOURCE_LABEL[item.source]}</span>
        {item.isSubagent && <span className="tag">sub-agent</span>}
        {item.missing && <span className="tag warn" title="The agent deleted this file; the index keeps it">file gone</span>}
        {item.workspace && (
          <span className="row-workspace" title={item.workspace}>
            {shortPath(item.workspace)}
          </span>
        )}
        <span className="row-count">{formatNumber(item.entryCount)} entries</span>
      </div>
      {preview && (
        <div className={`row-preview${item.snippet ? ' is-snippet' : ''}`}>
          {item.snippet ? <Snippet text={item.snippet} query={query} /> : preview}
        </div>
      )}
    </>
  );
});

/** The folders an empty index was read from, so a person can see where it looked and what was missing. */
function LookedIn() {
  const folders = useStatus((s) => s.status?.folders);
  if (!folders?.length) return null;
  return (
    <div className="looked-in">
      <p className="muted small">It looked in:</p>
      <ul>
        {folders.map((f) => (
          <li key={`${f.kind}:${f.path}`}>
            <span className="mono">{f.path}</span> <span className="muted small">{SOURCE_LABEL[f.kind]} · {f.found ? `${formatNumber(f.files)} ${f.files === 1 ? 'file' : 'files'}` : 'not found'}</span>
          </li>
        ))}
      </ul>
    </div>
  );
}

export function ConversationList() {
  const { total, pages, loading, error, active, filters } = useConversations();
  const { ensure, setActive, item, reload } = useConversations.getState();
  const route = useRoute((s) => s.route);
  const go = useRoute((s) => s.go);
  // New sessions arrive while the list is open; it offers them rather than jumping under the reader.
  const indexed = useStatus((s) => s.status?.conversations ?? null);
  const generation = useConversations((s) => s.generation);
  const [baseline, setBaseline] = useState<number | null>(null);
  useEffect(() => setBaseline(useStatus.getState().status?.conversations ?? null), [generation]);
  useEffect(() => {
    if (baseline === null && indexed !== null) setBaseline(indexed);
  }, [baseline, indexed]);
  const fresh = baseline !== null && indexed !== null ? indexed - baseline : 0;
  const parentRef = useRef<HTMLDivElement>(null);
  const count = total ?? 0;

  const virtualizer = useVirtualizer({
    count,
    getScrollElement: () => parentRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 6,
  });
  const rows = virtualizer.getVirtualItems();
  const first = rows[0]?.index ?? 0;
  const last = rows.at(-1)?.index ?? 0;

  // The keyboard-active row stays in sight, however it moved (arrows here, j/k anywhere).
  useEffect(() => {
    if (count > 0) virtualizer.scrollToIndex(active, { align: 'auto' });
  }, [active, count, virtualizer]);

  // Ask for whatever pages the visible rows fall in (cheap when they are loaded already).
  useEffect(() => {
    if (count > 0) ensure(first, last);
  }, [first, last, count, pages, ensure]);

  const open = (index: number) => {
    const it = item(index);
    if (!it) return;
    setActive(index);
    const entry = it.entry ?? undefined;
    go({ view: 'conversations', id: it.id, entry, ...(entry !== undefined && filters.query.trim() ? { q: filters.query.trim() } : {}) });
  };

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const page = Math.max(1, Math.floor((parentRef.current?.clientHeight ?? ROW_HEIGHT * 5) / ROW_HEIGHT) - 1);
    const moves: Record<string, number> = { ArrowDown: active + 1, ArrowUp: active - 1, PageDown: active + page, PageUp: active - page, Home: 0, End: count - 1 };
    if (e.key in moves) {
      e.preventDefault();
      const next = Math.max(0, Math.min(count - 1, moves[e.key]!));
      setActive(next);
      virtualizer.scrollToIndex(next, { align: 'auto' });
    } else if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      open(active);
    }
  };

  if (error) return <ErrorState message={error} onRetry={reload} />;
  if (total === null || (loading && count === 0)) return <Loading label="Loading conversations…" />;
  if (count === 0) {
    const filtered = filters.query || filters.workspace || filters.source || filters.range !== 'any';
    return filtered ? (
      <Empty title={filters.query ? `Nothing matches “${filters.query}”` : 'No conversations match these filters'}>
        <p>Try fewer words, another workspace, or a wider date range.</p>
      </Empty>
    ) : (
      <Empty title="No conversations yet">
        <p>Throughline reads your agents’ sessions as they are written. Use an agent, or add a folder in Settings.</p>
        <LookedIn />
      </Empty>
    );
  }

  return (
    <>
      {fresh > 0 && (
        <button type="button" className="new-banner" onClick={reload}>
          {fresh} new {fresh === 1 ? 'conversation' : 'conversations'} — show
        </button>
      )}
      <div
        ref={parentRef}
        className="conv-list"
        role="listbox"
        tabIndex={0}
        aria-label={filters.query ? `Search results for ${filters.query}` : 'Conversations'}
        aria-activedescendant={`conv-row-${active}`}
        onKeyDown={onKeyDown}
        data-testid="conversation-list"
      >
        <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
          {rows.map((row) => {
            const it = item(row.index);
            const selected = it !== undefined && it.id === route.id;
            return (
              <div
                key={row.key}
                id={`conv-row-${row.index}`}
                role="option"
                aria-selected={selected}
                aria-setsize={count}
                aria-posinset={row.index + 1}
                className={`conv-row${row.index === active ? ' active' : ''}${selected ? ' selected' : ''}${it ? '' : ' skeleton'}`}
                style={{ height: ROW_HEIGHT, transform: `translateY(${row.start}px)` }}
                onClick={() => open(row.index)}
                data-conversation={it?.id}
              >
                {it ? <Row item={it} query={filters.query} /> : <div className="skeleton-lines" aria-label="Loading" />}
              </div>
            );
          })}
        </div>
      </div>
    </>
  );
}
