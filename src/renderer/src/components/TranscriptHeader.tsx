// A transcript's header: a bar that stays in view (back, the title, find) and, below it, what the
// conversation is (agent, workspace, dates), how to resume it and its related conversations.
import { useEffect, useRef } from 'react';
import { formatDateTime, formatNumber, SOURCE_LABEL } from '../lib/format';
import { useRoute } from '../stores/route';
import { useTranscript } from '../stores/transcript';
import { BackIcon, SearchIcon } from './icons';
import { CopyButton } from './states';

export function FindBar() {
  const find = useTranscript((s) => s.find);
  const input = useRef<HTMLInputElement>(null);
  const open = find !== null;
  useEffect(() => {
    if (open) input.current?.focus();
  }, [open]);
  if (!find) return null;
  const { step, closeFind } = useTranscript.getState();
  const total = find.result?.total ?? 0;
  const count = !find.query.trim() ? '' : !find.result ? 'Finding…' : total === 0 ? 'No matches' : `${formatNumber(find.current + 1)} of ${formatNumber(total)}`;
  return (
    <div className="find-bar" role="search" aria-label="Find in conversation">
      <SearchIcon />
      <input
        ref={input}
        type="text"
        aria-label="Find in conversation"
        placeholder="Find in conversation"
        spellCheck={false}
        value={find.query}
        onChange={(e) => useTranscript.getState().typeFind(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter') {
            e.preventDefault();
            step(e.shiftKey ? -1 : 1);
          } else if (e.key === 'Escape') {
            // Closes the find bar only, not the transcript.
            e.preventDefault();
            e.stopPropagation();
            closeFind();
            document.querySelector<HTMLElement>('.transcript')?.focus();
          }
        }}
      />
      <span className="find-count" aria-live="polite" data-testid="find-count">
        {count}
      </span>
      <button type="button" className="icon-button" onClick={() => step(-1)} disabled={total === 0} aria-label="Previous match" title="Previous match (Shift+Enter)">
        ↑
      </button>
      <button type="button" className="icon-button" onClick={() => step(1)} disabled={total === 0} aria-label="Next match" title="Next match (Enter)">
        ↓
      </button>
      <button type="button" className="icon-button" onClick={closeFind} aria-label="Close find" title="Close (Esc)">
        ×
      </button>
    </div>
  );
}

export function TranscriptHeader() {
  const detail = useTranscript((s) => s.detail);
  const findOpen = useTranscript((s) => s.find !== null);
  const go = useRoute((s) => s.go);
  if (!detail) return null;
  const c = detail.conversation;
  return (
    <>
      {/* The bar stays in view while reading: the way back, the whole title, find. */}
      <header className="transcript-bar">
        <div className="bar-row">
          <button type="button" className="icon-button back-button" onClick={() => go({ view: 'conversations' })} aria-label="Back to the list" title="Back to the list (Esc)">
            <BackIcon />
          </button>
          <h1 className="transcript-title" title={c.title}>
            {c.title}
          </h1>
          <button type="button" className="icon-button" aria-pressed={findOpen} onClick={() => useTranscript.getState().openFind()} aria-label="Find in conversation" title="Find in conversation (Ctrl+F)">
            <SearchIcon />
          </button>
        </div>
        <FindBar />
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
        <div className="transcript-actions">
          {detail.resumeCommand && (
            <div className="resume-row">
              <p className="resume mono" aria-label="Resume command">
                {detail.resumeCommand}
              </p>
              <CopyButton text={detail.resumeCommand} label="Copy resume command" className="button small primary" />
            </div>
          )}
          <CopyButton text={c.path} label="Copy file path" className="button small" />
        </div>
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
