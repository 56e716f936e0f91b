// Compose: type as you would to an agent and watch what Throughline would hand it — the exact
// pointer block, each suggestion with its score and signals — or why it would hand it nothing.
import { useEffect, useState } from 'react';
import type { Suggestion, SuggestResult } from '../../../shared/api';
import { CopyButton } from '../components/states';
import { explainResult, signalInWords, signalNumbers } from '../lib/explain';
import { formatRelative, shortPath, SOURCE_LABEL } from '../lib/format';
import { stripMarkdown } from '../lib/plain';
import { call } from '../lib/transport';
import { useCompose } from '../stores/compose';
import { useRoute } from '../stores/route';
import { useSettings } from '../stores/settings';
import { useWorkspaces } from '../stores/workspaces';

const SENSITIVITY_LABEL = { focused: 'Focused', balanced: 'Balanced', broad: 'Broad' } as const;

const words = (s: string) => ` ${s.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ')} `;

/**
 * The entry to open a suggestion at: the engine's own best-matching entry for the distinctive words
 * (recall_conversations), else the entry of that conversation holding most of them.
 */
async function bestEntry(s: Suggestion, result: SuggestResult, text: string): Promise<number | undefined> {
  const terms = result.salientTerms?.length ? result.salientTerms : [];
  const query = (terms.length ? terms.join(' ') : text).slice(0, 500);
  try {
    const recalled = await call('recall_conversations', { query, workspace: 'all', limit: 50, includeSubagents: true });
    const hit = recalled.hits.find((h) => h.id === s.id);
    if (hit && hit.entry !== null) return hit.entry;
    const found = await call('conversation_inspect', { conversation_id: s.id, query, limit: 20 });
    let best: { entry: number; count: number } | undefined;
    for (const b of found.blocks.filter((x) => x.match)) {
      const body = words(b.text);
      const count = terms.filter((t) => body.includes(words(t))).length;
      if (!best || count > best.count) best = { entry: b.entry, count };
    }
    return best?.entry;
  } catch {
    // Nothing inside matches (the title did): open at the start.
    return undefined;
  }
}

function SuggestionCard({ s, rank, onOpen }: { s: Suggestion; rank: number; onOpen: () => void }) {
  return (
    <li className="suggestion" data-testid="suggestion">
      <div className="suggestion-head">
        <span className="rank" aria-hidden="true">
          {rank}
        </span>
        <button type="button" className="suggestion-title" onClick={onOpen}>
          {s.title}
        </button>
      </div>
      <div className="row-meta">
        <span className={`agent agent-${s.source}`}>{SOURCE_LABEL[s.source]}</span>
        {s.workspace && <span title={s.workspace}>{shortPath(s.workspace)}</span>}
        <span>{formatRelative(s.updatedAt)}</span>
      </div>
      {s.preview && <p className="suggestion-preview">{stripMarkdown(s.preview).trim()}</p>}
      <ul className="signals" aria-label="Why it was suggested">
        {s.signals.map((sig, i) => (
          <li key={i} className="signal" data-testid="signal">
            {signalInWords(sig, s)}
          </li>
        ))}
      </ul>
      {/* The engine's numbers, for whoever tunes it. */}
      <details className="score-detail">
        <summary>Score {Number.isInteger(s.score) ? s.score : s.score.toFixed(2)}</summary>
        <p className="mono" data-testid="score-detail">
          #{s.id} · {s.signals.map(signalNumbers).join(' · ')}
        </p>
      </details>
    </li>
  );
}

function Result() {
  const { result, pending, error, elapsedMs, text } = useCompose();
  const go = useRoute((s) => s.go);
  const [opening, setOpening] = useState<number | null>(null);
  if (error) return <p className="error-text" role="alert">{error}</p>;
  if (!text.trim()) {
    return (
      <div className="compose-empty">
        <p className="state-title">Nothing typed yet</p>
        <p>Write the first message of a task, the way you would to an agent. Most messages recall nothing — by design: only distinctive words that your earlier conversations share make a match.</p>
      </div>
    );
  }
  if (!result) return <p className="muted" role="status">Looking…</p>;
  const explained = explainResult(result);
  const open = async (s: Suggestion) => {
    setOpening(s.id);
    const entry = await bestEntry(s, result, text);
    setOpening(null);
    go({ view: 'conversations', id: s.id, entry, ...(result.salientTerms?.length ? { q: result.salientTerms.join(' ') } : {}) });
  };
  return (
    <div className={`compose-result${pending ? ' stale' : ''}`} aria-busy={pending}>
      <div className="result-line" role="status" aria-live="polite" data-testid="suggest-reason">
        <p className="result-head">
          <strong>{result.suggestions.length === 0 ? 'Nothing would be suggested' : `${result.suggestions.length} ${result.suggestions.length === 1 ? 'conversation' : 'conversations'} would be suggested`}</strong>
          {elapsedMs !== null && <span className="muted small">{elapsedMs} ms</span>}
        </p>
        <p className="result-reason muted">
          <span className="visually-hidden"> — </span>
          {explained.sentence}
        </p>
        {explained.detail && (
          <details className="score-detail">
            <summary>Details</summary>
            <p className="mono" data-testid="reason-detail">
              {explained.detail}
            </p>
          </details>
        )}
      </div>
      {result.salientTerms && result.salientTerms.length > 0 && (
        <p className="terms">
          <span className="muted">Distinctive words:</span>
          {result.salientTerms.map((t) => (
            <code key={t} className="term">
              {t}
            </code>
          ))}
        </p>
      )}
      {result.suggestions.length > 0 && (
        <ol className="suggestions">
          {result.suggestions.map((s, i) => (
            <SuggestionCard key={s.id} s={s} rank={i + 1} onOpen={() => void open(s)} />
          ))}
        </ol>
      )}
      {opening !== null && <p className="muted small" role="status">Opening…</p>}
      {result.block && (
        <section className="block" aria-labelledby="block-title">
          <div className="block-head">
            <h3 id="block-title">Pointer block the agent gets</h3>
            <CopyButton text={result.block} label="Copy" className="button small" />
          </div>
          <pre className="block-text" data-testid="pointer-block">
            {result.block}
          </pre>
        </section>
      )}
    </div>
  );
}

export function ComposeView() {
  const { text, workspace, setText, setWorkspace } = useCompose();
  const workspaces = useWorkspaces((s) => s.workspaces);
  const settings = useSettings((s) => s.settings);
  useEffect(() => {
    void useWorkspaces.getState().load();
    void useSettings.getState().load();
  }, []);
  return (
    <div className="page compose">
      <header className="page-head">
        <h1>Compose</h1>
        <p className="lede">See what your agent would be reminded of before it reads your message.</p>
      </header>
      <div className="compose-grid">
        <section className="compose-input" aria-label="Draft">
          {/* Labels by id, not by wrapping: a wrapped field's typed value would join its accessible name. */}
          <div className="field">
            <label htmlFor="compose-text">Message</label>
            <textarea
              id="compose-text"
              value={text}
              onChange={(e) => setText(e.target.value)}
              rows={9}
              placeholder="e.g. The sqlite migration from last week fails on the FTS trigger again"
              spellCheck
              data-testid="compose-text"
            />
          </div>
          <div className="field">
            <label htmlFor="compose-workspace">Workspace</label>
            <input id="compose-workspace" list="compose-workspaces" value={workspace} onChange={(e) => setWorkspace(e.target.value)} placeholder="The agent's working directory" data-testid="compose-workspace" />
            <datalist id="compose-workspaces">
              {workspaces.map((w) => (
                <option key={w} value={w} />
              ))}
            </datalist>
          </div>
          {settings && (
            <p className="settings-line">
              <span className={`pill ${settings.autoRecall ? 'on' : 'off'}`}>{settings.autoRecall ? 'Auto-recall on' : 'Auto-recall off'}</span>
              <span className="pill">{SENSITIVITY_LABEL[settings.sensitivity]}</span>
              <span className="pill">{settings.scope === 'workspace' ? 'This workspace only' : 'All my workspaces'}</span>
              <a href="#/settings">Change</a>
            </p>
          )}
        </section>
        <section className="compose-output" aria-label="Preview">
          <Result />
        </section>
      </div>
    </div>
  );
}
