// A transcript. Opened at an entry (a search hit, a suggestion, a link) it scrolls that entry into
// view, highlights the words that led there and focuses it; older and newer entries page in as you
// scroll toward either end. Only the entries in sight are in the page (a virtual list, sizes measured
// as they render), so a conversation of thousands of entries scrolls like a short one.
import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import type { HandoffMark } from '../../../shared/api';
import type { Entry } from '../../../shared/types';
import { EntryView, Marker, markdownOf } from '../components/EntryView';
import { Empty, ErrorState, Loading } from '../components/states';
import { TranscriptHeader } from '../components/TranscriptHeader';
import { formatDateTime } from '../lib/format';
import { renderWhenIdle } from '../lib/markdown';
import { useRoute } from '../stores/route';
import { occurrenceAt, useTranscript } from '../stores/transcript';

const MARKER_KINDS = new Set(['compaction', 'branch_summary', 'reset']);
/** Within this many pixels of either end, the next page is fetched. */
const PAGE_AHEAD_PX = 800;
/** Entries on either side of those in sight whose markdown is rendered ahead, while the page is idle. */
const RENDER_AHEAD = 16;

/**
 * history_handoff notes written over MCP, the socket or the CLI, kept beside the entries: each is drawn
 * before the entry it precedes. Throughline cannot restart those agents, so the note says it was
 * written, not that a new context started.
 */
function Handoffs({ marks }: { marks: readonly HandoffMark[] }) {
  return marks.map((h, i) => (
    <Marker
      key={`${h.seq}-${i}`}
      tone="reset"
      label={`Handoff written, ${formatDateTime(h.at)} — the agent's context was not reset by it`}
      text={h.text}
      open="Show handoff note"
    />
  ));
}

function NotFound({ id }: { id: number }) {
  return (
    <Empty title="Conversation not found">
      <p>There is no conversation #{id} in the index. It may have been forgotten, left out in Settings, or the link is from another machine.</p>
      <p>
        <a href="#/conversations" className="button">
          Back to conversations
        </a>
      </p>
    </Empty>
  );
}

export function TranscriptView({ id, entry, q }: { id: number; entry?: number; q?: string }) {
  const nonce = useRoute((s) => s.nonce);
  const { entries, hasOlder, hasNewer, boundary, target, loading, paging, error, detail, notFound, find, scrollTo } = useTranscript();
  const scroller = useRef<HTMLDivElement>(null);
  const list = useRef<HTMLDivElement>(null);
  const [margin, setMargin] = useState(0);
  const handoffs = detail?.handoffs ?? [];

  useEffect(() => {
    void useTranscript.getState().open(id, entry);
  }, [id, entry, nonce]);

  // The header above the list (its height changes with the width and the find bar) is the list's margin.
  useLayoutEffect(() => {
    const el = list.current;
    if (!el) return;
    const update = () => setMargin(el.offsetTop);
    update();
    const ro = new ResizeObserver(update);
    for (const child of Array.from(scroller.current!.children)) if (child !== el.parentElement) ro.observe(child);
    return () => ro.disconnect();
  }, [detail, loading, find !== null]);

  const virtualizer = useVirtualizer({
    count: entries.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => 160,
    overscan: 4,
    scrollMargin: margin,
    getItemKey: (i) => entries[i]?.seq ?? i,
    // Entries paged in above keep the one being read where it was.
    anchorTo: 'end',
  });
  const items = virtualizer.getVirtualItems();

  const indexOf = (seq: number) => entries.findIndex((e) => e.seq === seq);

  // The entries next to those in sight, nearest first, rendered while the page is idle: scrolling
  // then mounts finished work instead of parsing and highlighting inside the frame.
  const first = items[0]?.index ?? 0;
  const last = items.at(-1)?.index ?? -1;
  useEffect(() => {
    const texts: string[] = [];
    for (let d = 1; d <= RENDER_AHEAD; d++) {
      for (const i of [last + d, first - d]) {
        const text = i >= 0 && i < entries.length ? markdownOf(entries[i]!) : null;
        if (text) texts.push(text);
      }
    }
    renderWhenIdle(texts);
  }, [first, last, entries]);

  // Reveal: once the entry is loaded, bring it to the middle, then give it focus when it is drawn.
  useLayoutEffect(() => {
    const el = scroller.current;
    if (!el || loading) return;
    if (target === null) {
      el.scrollTop = 0;
      return;
    }
    const i = indexOf(target);
    if (i < 0) return;
    virtualizer.scrollToIndex(i, { align: 'center' });
    const focus = () => el.querySelector<HTMLElement>(`#entry-${target}`)?.focus({ preventScroll: true });
    const t = setTimeout(focus, 120);
    return () => clearTimeout(t);
  }, [target, loading, id, nonce]);

  // Find: bring the entry of the current match into view (the entry scrolls to the match itself).
  useEffect(() => {
    if (!scrollTo) return;
    const i = indexOf(scrollTo.seq);
    if (i >= 0) virtualizer.scrollToIndex(i, { align: 'center' });
  }, [scrollTo]);

  // Near either end, the next page; checked on scroll and whenever a page arrives.
  const checkEnds = () => {
    const el = scroller.current;
    if (!el || loading) return;
    const { older, newer } = useTranscript.getState();
    if (el.scrollTop < margin + PAGE_AHEAD_PX) void older();
    if (el.scrollHeight - el.scrollTop - el.clientHeight < PAGE_AHEAD_PX) void newer();
  };
  useEffect(checkEnds, [entries.length, loading, hasOlder, hasNewer]);

  if (notFound) return <NotFound id={id} />;
  if (error && entries.length === 0) return <ErrorState message={error} onRetry={() => void useTranscript.getState().open(id, entry)} />;
  if (loading && entries.length === 0) return <Loading label="Opening conversation…" />;

  const current = find?.result ? occurrenceAt(find.result, find.current) : null;
  const findQuery = find?.result?.total ? find.query : undefined;
  const row = (e: Entry) => {
    const marks = handoffs.filter((h) => h.seq === e.seq);
    return (
      <>
        <Handoffs marks={marks} />
        {/* A compaction or handoff marker already shows where the agent's context starts. */}
        {boundary !== null && e.seq === boundary && boundary > 0 && !MARKER_KINDS.has(e.kind) && marks.length === 0 && (
          <div className="boundary" role="separator" aria-label="Context boundary">
            <span>Context boundary — the agent no longer sees what is above</span>
          </div>
        )}
        <EntryView
          entry={e}
          revealed={e.seq === target}
          terms={e.seq === target && e.seq === entry ? q : undefined}
          findQuery={findQuery}
          findNth={current && current.entry === e.seq ? current.nth : null}
        />
      </>
    );
  };

  return (
    <div className="transcript" ref={scroller} data-testid="transcript" tabIndex={-1} onScroll={checkEnds}>
      <TranscriptHeader />
      <div className="entries">
        <div className="page-slot">
          {hasOlder && (
            <button type="button" className="page-button" onClick={() => void useTranscript.getState().older()} disabled={paging === 'older'}>
              {paging === 'older' ? 'Loading earlier entries…' : 'Show earlier entries'}
            </button>
          )}
        </div>
        {entries.length === 0 && detail && <p className="muted center">This conversation has no entries.</p>}
        <div ref={list} className="virtual-entries" style={{ height: virtualizer.getTotalSize() }}>
          <div className="virtual-window" style={{ transform: `translateY(${(items[0]?.start ?? margin) - margin}px)` }}>
            {items.map((v) => (
              <div key={v.key} data-index={v.index} ref={virtualizer.measureElement} className="entry-row">
                {row(entries[v.index]!)}
              </div>
            ))}
          </div>
        </div>
        {/* A handoff after the last entry so far (the agent has not written its next line yet). */}
        {!hasNewer && entries.length > 0 && <Handoffs marks={handoffs.filter((h) => h.seq > entries.at(-1)!.seq)} />}
        <div className="page-slot">
          {hasNewer && (
            <button type="button" className="page-button" onClick={() => void useTranscript.getState().newer()} disabled={paging === 'newer'}>
              {paging === 'newer' ? 'Loading later entries…' : 'Show later entries'}
            </button>
          )}
        </div>
        {error && <p className="error-text" role="alert">{error}</p>}
      </div>
    </div>
  );
}
