// A transcript. Opened at an entry (a search hit, a suggestion, a link) it scrolls that entry into
// view, highlights and focuses it; older and newer entries page in as you scroll toward either end.
import { Fragment, useEffect, useLayoutEffect, useRef } from 'react';
import type { HandoffMark } from '../../../shared/api';
import { EntryView, Marker } from '../components/EntryView';
import { CopyButton, ErrorState, Loading } from '../components/states';
import { formatDateTime, formatNumber, SOURCE_LABEL } from '../lib/format';
import { useRoute } from '../stores/route';
import { useTranscript } from '../stores/transcript';

const MARKER_KINDS = new Set(['compaction', 'branch_summary', 'reset']);

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

function Header() {
  const detail = useTranscript((s) => s.detail);
  if (!detail) return null;
  const c = detail.conversation;
  return (
    <>
      {/* The bar stays in view while reading, so the title and resume are always one glance away. */}
      <header className="transcript-bar">
        <h1 className="transcript-title" title={c.title}>
          {c.title}
        </h1>
        <div className="transcript-actions">
          {detail.resumeCommand && <CopyButton text={detail.resumeCommand} label="Copy resume command" className="button primary" />}
          <CopyButton text={c.path} label="Copy file path" />
        </div>
      </header>
      <section className="transcript-info" aria-label="About this conversation">
        <dl className="facts">
          <div>
            <dt>Agent</dt>
            <dd>
              <span className={`agent agent-${c.source}`}>{SOURCE_LABEL[c.source]}</span>
            </dd>
          </div>
          {c.workspace && (
            <div>
              <dt>Workspace</dt>
              <dd className="mono">{c.workspace}</dd>
            </div>
          )}
          <div>
            <dt>Updated</dt>
            <dd>{formatDateTime(c.updatedAt)}</dd>
          </div>
          <div>
            <dt>Entries</dt>
            <dd>{formatNumber(c.entryCount)}</dd>
          </div>
          {c.missing && (
            <div>
              <dt>Source</dt>
              <dd className="warn-text">The agent deleted this file; Throughline kept what it indexed.</dd>
            </div>
          )}
        </dl>
        {detail.resumeCommand && (
          <p className="resume mono" aria-label="Resume command">
            {detail.resumeCommand}
          </p>
        )}
        {(c.parentId !== null || detail.children.length > 0) && (
          <nav className="related" aria-label="Related conversations">
            {c.parentId !== null && (
              <a href={`#/c/${c.parentId}`} className="chip">
                ↑ Parent conversation
              </a>
            )}
            {detail.children.map((child) => (
              <a key={child.id} href={`#/c/${child.id}`} className="chip" title={child.title}>
                {child.isSubagent ? 'Sub-agent' : 'Fork'}: {child.title}
              </a>
            ))}
          </nav>
        )}
      </section>
    </>
  );
}

export function TranscriptView({ id, entry }: { id: number; entry?: number }) {
  const nonce = useRoute((s) => s.nonce);
  const { entries, hasOlder, hasNewer, boundary, target, loading, paging, error, detail } = useTranscript();
  const scroller = useRef<HTMLDivElement>(null);
  const topSentinel = useRef<HTMLButtonElement>(null);
  const bottomSentinel = useRef<HTMLButtonElement>(null);
  const keep = useRef<{ first: number; fromBottom: number } | null>(null);
  const handoffs = detail?.handoffs ?? [];

  useEffect(() => {
    void useTranscript.getState().open(id, entry);
  }, [id, entry, nonce]);

  // Reveal: once the entry is on the page, bring it to the middle and give it focus.
  useLayoutEffect(() => {
    const el = scroller.current;
    if (!el || loading) return;
    if (target === null) {
      if (!keep.current) el.scrollTop = 0;
      return;
    }
    const node = el.querySelector<HTMLElement>(`#entry-${target}`);
    if (node) {
      node.scrollIntoView({ block: 'center' });
      node.focus({ preventScroll: true });
    }
  }, [target, loading, id, nonce]);

  // Older entries arrive above: keep what the reader was looking at where it was.
  useLayoutEffect(() => {
    const el = scroller.current;
    if (el && keep.current && entries[0] && entries[0].seq < keep.current.first) {
      el.scrollTop = el.scrollHeight - keep.current.fromBottom;
      keep.current = null;
    }
  }, [entries]);

  const loadOlder = () => {
    const el = scroller.current;
    if (!el || !entries[0]) return;
    keep.current = { first: entries[0].seq, fromBottom: el.scrollHeight - el.scrollTop };
    void useTranscript.getState().older();
  };

  useEffect(() => {
    const root = scroller.current;
    if (!root || loading) return;
    const io = new IntersectionObserver(
      (seen) => {
        for (const s of seen) {
          if (!s.isIntersecting) continue;
          if (s.target === topSentinel.current) loadOlder();
          if (s.target === bottomSentinel.current) void useTranscript.getState().newer();
        }
      },
      { root, rootMargin: '400px 0px' },
    );
    if (topSentinel.current) io.observe(topSentinel.current);
    if (bottomSentinel.current) io.observe(bottomSentinel.current);
    return () => io.disconnect();
    // Re-armed after each page so a sentinel still in view keeps loading.
  }, [loading, entries.length, hasOlder, hasNewer]);

  if (error && entries.length === 0) return <ErrorState message={error} onRetry={() => void useTranscript.getState().open(id, entry)} />;
  if (loading && entries.length === 0) return <Loading label="Opening conversation…" />;

  return (
    <div className="transcript" ref={scroller} data-testid="transcript">
      <Header />
      <div className="entries">
        {hasOlder && (
          <button type="button" ref={topSentinel} className="page-button" onClick={loadOlder} disabled={paging === 'older'}>
            {paging === 'older' ? 'Loading earlier entries…' : 'Show earlier entries'}
          </button>
        )}
        {entries.length === 0 && detail && <p className="muted center">This conversation has no entries.</p>}
        {entries.map((e) => {
          const marks = handoffs.filter((h) => h.seq === e.seq);
          return (
            <Fragment key={e.seq}>
              <Handoffs marks={marks} />
              {/* A compaction or handoff marker already shows where the agent's context starts. */}
              {boundary !== null && e.seq === boundary && boundary > 0 && !MARKER_KINDS.has(e.kind) && marks.length === 0 && (
                <div className="boundary" role="separator" aria-label="Context boundary">
                  <span>Context boundary — the agent no longer sees what is above</span>
                </div>
              )}
              <EntryView entry={e} revealed={e.seq === target} />
            </Fragment>
          );
        })}
        {/* A handoff after the last entry so far (the agent has not written its next line yet). */}
        {!hasNewer && entries.length > 0 && <Handoffs marks={handoffs.filter((h) => h.seq > entries.at(-1)!.seq)} />}
        {hasNewer && (
          <button type="button" ref={bottomSentinel} className="page-button" onClick={() => void useTranscript.getState().newer()} disabled={paging === 'newer'}>
            {paging === 'newer' ? 'Loading later entries…' : 'Show later entries'}
          </button>
        )}
        {error && <p className="error-text" role="alert">{error}</p>}
      </div>
    </div>
  );
}
