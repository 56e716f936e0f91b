// A history or recall tool's answer drawn as a card (p2-history-tools-spec.md §5): search and recall
// hits listed, each a link that opens that conversation at the entry; reads list the entries they
// read; inspect and handoff say what they did. The card comes from the stored result text
// (src/shared/tool-cards.ts); what it cannot read stays the plain tool line (EntryView).
import type { ReactNode } from 'react';
import type { EntryRef, RecallCardHit, ToolCard } from '../../../shared/tool-cards';
import { useConversationInfo } from '../lib/conversation-info';
import { shortPath, SOURCE_LABEL } from '../lib/format';
import { Snippet } from '../lib/snippet';
import { ToolIcon } from './icons';

export const TOOL_LABEL: Record<ToolCard['tool'], string> = {
  recall_conversations: 'Recall',
  read_conversation: 'Read conversation',
  conversation_inspect: 'Inspect conversation',
  history_search: 'History search',
  history_read: 'History read',
  history_handoff: 'Handoff',
};

export const entryHref = (conversation: number, entry: number | null) => `#/c/${conversation}${entry !== null ? `?entry=${entry}` : ''}`;

function Head({ card, children }: { card: ToolCard; children?: ReactNode }) {
  return (
    <header className="tool-card-head">
      <ToolIcon />
      <span className="tool-card-name">{TOOL_LABEL[card.tool]}</span>
      {children}
    </header>
  );
}

/** The agent and workspace of a hit's conversation, once known (the answer text names neither agent). */
export function ConversationFacts({ id, workspace }: { id: number | string; workspace?: string | null }) {
  const info = useConversationInfo(id);
  const ws = workspace ?? info?.workspace ?? null;
  return (
    <>
      {info && <span className={`agent agent-${info.source}`}>{SOURCE_LABEL[info.source]}</span>}
      {info === null && <span className="muted small">no longer indexed</span>}
      {ws && (
        <span className="tool-card-ws" title={ws}>
          {shortPath(ws)}
        </span>
      )}
    </>
  );
}

function RecallHit({ hit, query }: { hit: RecallCardHit; query: string | null }) {
  return (
    <li>
      <a className="tool-card-hit" href={entryHref(hit.id, hit.entry)}>
        <span className="tool-card-line">
          <span className="tool-card-title">{hit.title}</span>
          <ConversationFacts id={hit.id} workspace={hit.workspace} />
          {hit.date && <span className="muted small">{hit.date}</span>}
        </span>
        {hit.snippet && (
          <span className="tool-card-snippet">
            <Snippet text={hit.snippet} query={query ?? undefined} />
          </span>
        )}
        {hit.why && <span className="tool-card-why">matched: {hit.why}</span>}
      </a>
    </li>
  );
}

function EntryLink({ conversation, e }: { conversation: number; e: EntryRef }) {
  const who = e.author ? `${e.role} (${e.author})` : e.role;
  return (
    <li className={e.match ? 'is-match' : undefined}>
      <a className="tool-card-entry" href={entryHref(conversation, e.entry)}>
        <span className="tool-card-seq">#{e.entry}</span>
        <span className="tool-card-kind">
          {who}
          {e.kind !== 'message' ? ` · ${e.kind}` : ''}
        </span>
        {e.text && <span className="tool-card-text">{e.text}</span>}
      </a>
    </li>
  );
}

function Entries({ conversation, entries, label }: { conversation: number; entries: readonly EntryRef[]; label: string }) {
  if (!entries.length) return <p className="muted small">{label === 'hits' ? 'No hits.' : 'No entries.'}</p>;
  return (
    <ol className="tool-card-list" aria-label={label}>
      {entries.map((e, i) => (
        <EntryLink key={`${e.entry}-${i}`} conversation={conversation} e={e} />
      ))}
    </ol>
  );
}

function Cut({ shown, of }: { shown: number; of?: number | null }) {
  return (
    <p className="muted small">
      The stored answer was cut short{of ? `: ${shown} of ${of} shown` : ''}.
    </p>
  );
}

function OtherConversation({ id, title, workspace }: { id: number; title: string; workspace: string | null }) {
  return (
    <span className="tool-card-line">
      <a href={entryHref(id, null)} className="tool-card-title">
        {title}
      </a>
      <ConversationFacts id={id} workspace={workspace} />
    </span>
  );
}

function Body({ card }: { card: ToolCard }) {
  switch (card.tool) {
    case 'recall_conversations':
      return (
        <>
          <Head card={card}>
            {card.query !== null && <q className="tool-card-query">{card.query}</q>}
            <span className="muted small">
              {card.count ?? card.hits.length} conversation{(card.count ?? card.hits.length) === 1 ? '' : 's'}
              {card.more ? ', more available' : ''}
            </span>
          </Head>
          {card.note && <p className="tool-card-note">{card.note}</p>}
          {card.hits.length ? (
            <ol className="tool-card-list" aria-label="hits">
              {card.hits.map((h, i) => (
                <RecallHit key={`${h.id}-${i}`} hit={h} query={card.query} />
              ))}
            </ol>
          ) : (
            <p className="muted small">Nothing found.</p>
          )}
          {card.cut && <Cut shown={card.hits.length} of={card.count} />}
        </>
      );
    case 'history_search':
      return (
        <>
          <Head card={card}>
            <q className="tool-card-query">{card.query}</q>
            <span className="muted small">
              before #{card.before} · {card.count} hit{card.count === 1 ? '' : 's'}
              {card.more ? ', more available' : ''}
            </span>
          </Head>
          {card.note && <p className="tool-card-note">{card.note}</p>}
          <Entries conversation={card.conversation} entries={card.hits} label="hits" />
          {card.cut && <Cut shown={card.hits.length} of={card.count} />}
        </>
      );
    case 'history_read':
      return (
        <>
          <Head card={card}>
            <span className="tool-card-what">{card.what}</span>
            <span className="muted small">{card.entries.length === 1 ? '1 entry' : `${card.entries.length} entries`}</span>
          </Head>
          <Entries conversation={card.conversation} entries={card.entries} label="entries read" />
          {card.foot && <p className="muted small">{card.foot}</p>}
          {card.cut && !card.foot && <Cut shown={card.entries.length} />}
        </>
      );
    case 'read_conversation':
    case 'conversation_inspect':
      return (
        <>
          <Head card={card}>
            <span className="tool-card-what">{card.what}</span>
          </Head>
          <OtherConversation id={card.conversation} title={card.title} workspace={card.workspace} />
          <Entries conversation={card.conversation} entries={card.entries} label={card.tool === 'read_conversation' ? 'entries read' : 'matches'} />
          {card.foot && <p className="muted small">{card.foot}</p>}
        </>
      );
    case 'history_handoff':
      return (
        <>
          <Head card={card}>
            <span className="tool-card-what">
              {card.reset
                ? 'New context started; earlier history stays searchable'
                : `Handoff written${card.after !== null ? ` after entry #${card.after}` : ''} — the agent's context was not reset`}
            </span>
          </Head>
          {card.text && (
            <details className="tool-card-handoff">
              <summary>Show handoff text</summary>
              <pre className="plain">{card.text}</pre>
            </details>
          )}
        </>
      );
  }
}

export function ToolCardView({ card, raw }: { card: ToolCard; raw: string }) {
  return (
    <section className={`tool-card tool-card-${card.tool}`} aria-label={TOOL_LABEL[card.tool]}>
      <Body card={card} />
      <details className="tool-card-raw">
        <summary>What the agent was given</summary>
        <pre className="plain">{raw}</pre>
      </details>
    </section>
  );
}
