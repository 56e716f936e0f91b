// One transcript entry. Messages are sanitized markdown; history and recall tools' answers are cards
// (ToolCard.tsx); other tool calls and results, thinking and the rest are collapsed to a line; compactions, branch summaries and handoffs are markers across the page.
import { memo, useLayoutEffect, useMemo, useRef, useState, type MouseEvent, type ReactNode } from 'react';
import type { Entry } from '../../../shared/types';
import { formatBytes, formatDateTime } from '../lib/format';
import { copyCodeBlock } from '../lib/code';
import { clearMarks, literalPattern, markMatches, wordsPattern } from '../lib/marks';
import { CLIP_CHARS, renderMarkdown } from '../lib/markdown';
import { parseToolCard } from '../../../shared/tool-cards';
import { BranchIcon, ToolIcon } from './icons';
import { ToolCardView } from './ToolCard';

/** Only links the sanitizer kept (http, https, mailto, in-app) may do anything when clicked; a code block's button copies it. */
function onMarkdownClick(e: MouseEvent<HTMLElement>): void {
  const copy = (e.target as HTMLElement).closest<HTMLElement>('.code-copy');
  if (copy) return void copyCodeBlock(copy);
  const a = (e.target as HTMLElement).closest('a');
  if (!a) return;
  const href = a.getAttribute('href') ?? '';
  if (!/^(?:https?:|mailto:|#\/)/i.test(href)) e.preventDefault();
}

export function Markdown({ text }: { text: string }) {
  const ref = useRef<HTMLDivElement>(null);
  const fragment = useMemo(() => renderMarkdown(text), [text]);
  useLayoutEffect(() => {
    ref.current?.replaceChildren(fragment.cloneNode(true));
  }, [fragment]);
  return <div ref={ref} className="md" onClick={onMarkdownClick} />;
}

/** A message body: markdown, or for a huge message a clipped plain view with a way to see it all. */
function Body({ text }: { text: string }) {
  const [full, setFull] = useState(false);
  if (text.length <= CLIP_CHARS) return <Markdown text={text} />;
  return (
    <div className="clipped">
      <pre className="plain">{full ? text : text.slice(0, CLIP_CHARS)}</pre>
      <button type="button" className="link-button" onClick={() => setFull(!full)} aria-expanded={full}>
        {full ? 'Show less' : `Show the whole message (${formatBytes(new TextEncoder().encode(text).length)})`}
      </button>
    </div>
  );
}

function Collapsed({ summary, text, className }: { summary: ReactNode; text: string; className: string }) {
  return (
    <details className={`collapsed ${className}`}>
      <summary>{summary}</summary>
      {text.trim() && <pre className="plain">{text.length > CLIP_CHARS ? `${text.slice(0, CLIP_CHARS)}\n… (${formatBytes(text.length)} in all)` : text}</pre>}
    </details>
  );
}

/** The customType of a handoff written by Throughline's pi extension (ingest/adapters/pi-records.ts). */
const PI_HANDOFF_TYPE = 'throughline-handoff';

const STATUS_CLASS: Record<string, string> = { ok: 'ok', success: 'ok', completed: 'ok', error: 'err', failed: 'err', denied: 'err' };

export function Marker({ label, text, tone, open = 'Show summary' }: { label: string; text: string; tone: string; open?: string }) {
  return (
    <div className={`marker ${tone}`}>
      <div className="marker-line">
        <span>{label}</span>
      </div>
      {text.trim() && (
        <details className="marker-body">
          <summary>{open}</summary>
          <Body text={text} />
        </details>
      )}
    </div>
  );
}

function roleLabel(e: Entry): string {
  if (e.role === 'user') return e.author ?? 'You';
  if (e.role === 'assistant') return e.author ?? 'Assistant';
  return e.role === 'tool' ? 'Tool' : 'System';
}

function EntryContent({ e }: { e: Entry }) {
  switch (e.kind) {
    case 'compaction':
      return <Marker label="Compacted — earlier turns were summarised for the agent" text={e.text} tone="compaction" />;
    case 'branch_summary':
      return <Marker label="Branch summary — the agent came back from another branch" text={e.text} tone="branch" />;
    case 'reset':
      // A reset the agent itself wrote (pi's extension stores history_handoff as one; p2: the marker
      // gets the note "handoff" when it came from history_handoff).
      return (
        <Marker
          label={`Handoff${e.author === PI_HANDOFF_TYPE ? ' (history_handoff)' : ''} — the agent started afresh from here`}
          text={e.text}
          tone="reset"
          open="Show handoff note"
        />
      );
    case 'tool_call': {
      const status = e.toolStatus ?? 'called';
      return (
        <Collapsed
          className="tool"
          text={e.text}
          summary={
            <>
              <ToolIcon />
              <span className="tool-name">{e.toolName ?? 'tool'}</span>
              <span className={`tool-status ${STATUS_CLASS[status.toLowerCase()] ?? ''}`}>{status}</span>
            </>
          }
        />
      );
    }
    case 'tool_result': {
      // Our own history and recall tools' answers are cards; anything else, or an answer the card
      // cannot read (an error, another server's tool of the same name), stays the plain line.
      const card = parseToolCard(e.toolName, e.text);
      if (card) return <ToolCardView card={card} raw={e.text} />;
      return <Collapsed className="tool-result" text={e.text} summary={<span>Result{e.toolName ? ` of ${e.toolName}` : ''}{e.toolStatus ? ` · ${e.toolStatus}` : ''}</span>} />;
    }
    case 'thinking':
      return <Collapsed className="thinking" text={e.text} summary={<span>Thinking</span>} />;
    case 'bash':
      return <Collapsed className="tool" text={e.text} summary={<span className="tool-name">$ shell</span>} />;
    case 'custom':
      return <Collapsed className="thinking" text={e.text} summary={<span>{e.author ?? 'Extension'} note</span>} />;
    default: {
      const text = markdownOf(e);
      if (text !== null) return <Body text={text} />;
      return <Collapsed className="thinking" text={e.text} summary={<span>{roleLabel(e)} message</span>} />;
    }
  }
}

/** The text an entry shows as markdown (a message, a marker's summary), or null: EntryContent's rule, also used to render ahead. */
export function markdownOf(e: Entry): string | null {
  if (isMarker(e)) return e.text.trim() ? e.text : null;
  if (['tool_call', 'tool_result', 'thinking', 'bash', 'custom'].includes(e.kind)) return null;
  return e.role === 'user' || e.role === 'assistant' ? e.text : null;
}

function isMarker(e: Entry): boolean {
  return e.kind === 'compaction' || e.kind === 'branch_summary' || e.kind === 'reset';
}

interface EntryProps {
  entry: Entry;
  revealed: boolean;
  /** The words that led here, highlighted where they occur (a revealed search hit or suggestion). */
  terms?: string;
  /** Find in conversation: its text, and which of this entry's occurrences is current (null: none). */
  findQuery?: string;
  findNth?: number | null;
}

export const EntryView = memo(function EntryView({ entry: e, revealed, terms, findQuery, findNth = null }: EntryProps) {
  const ref = useRef<HTMLElement>(null);
  const message = e.kind === 'message' && (e.role === 'user' || e.role === 'assistant');
  const cls = ['entry', `role-${e.role}`, `kind-${e.kind}`, message ? 'is-message' : 'is-aux', e.offPath ? 'off-path' : '', revealed ? 'revealed' : '']
    .filter(Boolean)
    .join(' ');

  // After the body is drawn (children's layout effects run first): the words, then find's matches.
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    clearMarks(el, 'hit');
    clearMarks(el, 'find-hit');
    const words = terms ? wordsPattern(terms) : null;
    if (words) markMatches(el, words, 'hit');
    if (!findQuery) return;
    const found = markMatches(el, literalPattern(findQuery), 'find-hit');
    const current = findNth !== null ? (found[findNth] ?? found.at(-1)) : undefined;
    if (!current) return;
    current.classList.add('find-current');
    // A match inside a collapsed tool call or note: open it so the match can be seen.
    for (let d = current.closest('details'); d; d = d.parentElement?.closest('details') ?? null) d.open = true;
    current.scrollIntoView({ block: 'center' });
  }, [e.text, terms, findQuery, findNth]);

  return (
    <article
      ref={ref}
      className={cls}
      id={`entry-${e.seq}`}
      data-seq={e.seq}
      tabIndex={-1}
      aria-current={revealed ? 'true' : undefined}
      aria-label={isMarker(e) ? undefined : `${roleLabel(e)}, entry ${e.seq}`}
    >
      {!isMarker(e) && message && (
        <header className="entry-head">
          <span className="entry-role">{roleLabel(e)}</span>
          {e.offPath && (
            <span className="tag" title="On a branch the conversation later left">
              <BranchIcon /> off path
            </span>
          )}
          <span className="entry-meta">
            <a href={`#/c/${e.conversationId}?entry=${e.seq}`} className="entry-seq" aria-label={`Link to entry ${e.seq}`}>
              #{e.seq}
            </a>
            {e.ts && <time dateTime={new Date(e.ts).toISOString()}>{formatDateTime(e.ts)}</time>}
          </span>
        </header>
      )}
      <EntryContent e={e} />
    </article>
  );
});
