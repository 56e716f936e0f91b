// The rest of Settings: where sessions are read from, how agents reach Throughline, what is left out.
import { useState, type FormEvent } from 'react';
import type { Settings, SettingsPatch, SourceSetting } from '../../../shared/api';
import type { SourceKind } from '../../../shared/types';
import { CopyButton } from '../components/states';
import { SOURCE_LABEL } from '../lib/format';
import { useStatus } from '../stores/status';
import { AgentOptions } from '../components/AgentOptions';

interface SectionProps {
  settings: Settings;
  save: (patch: SettingsPatch) => Promise<void>;
}

function newAgentToken(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(24));
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

export function Sources({ settings, save }: SectionProps) {
  const [kind, setKind] = useState<SourceKind>('claude-code');
  const [path, setPath] = useState('');
  const update = (sources: SourceSetting[]) => void save({ sources });
  const add = (e: FormEvent) => {
    e.preventDefault();
    const p = path.trim();
    if (!p || settings.sources.some((s) => s.kind === kind && s.path === p)) return;
    update([...settings.sources, { kind, path: p, enabled: true }]);
    setPath('');
  };
  return (
    <section className="card" aria-labelledby="sources-title">
      <h3 id="sources-title" className="card-title">Sources</h3>
      <p className="card-lede">
        The agents' own folders (<code>~/.claude/projects</code>, <code>~/.codex/sessions</code>, <code>~/.pi/agent/sessions</code>) are always read. Add other folders here, or add a default one switched
        off to stop reading it. Throughline only ever reads them.
      </p>
      {settings.sources.length > 0 ? (
        <ul className="rows" aria-label="Extra sources">
          {settings.sources.map((s, i) => (
            <li key={`${s.kind}:${s.path}`} className="source-row">
              <span className={`agent agent-${s.kind}`}>{SOURCE_LABEL[s.kind]}</span>
              <span className="mono grow" title={s.path}>
                {s.path}
              </span>
              <label className="check">
                <input type="checkbox" role="switch" checked={s.enabled}
                  onChange={(e) => update(settings.sources.map((x, j) => (j === i ? { ...x, enabled: e.target.checked } : x)))} />
                <span>{s.enabled ? 'Reading' : 'Off'}</span>
              </label>
              <button type="button" className="button small subtle" onClick={() => update(settings.sources.filter((_, j) => j !== i))} aria-label={`Remove ${s.path}`}>
                Remove
              </button>
            </li>
          ))}
        </ul>
      ) : (
        <p className="muted small">No extra sources.</p>
      )}
      <form className="inline-form" onSubmit={add}>
        <label className="field compact">
          <span className="visually-hidden">Agent</span>
          <select aria-label="Source agent" value={kind} onChange={(e) => setKind(e.target.value as SourceKind)}>
            <AgentOptions />
          </select>
        </label>
        <label className="field compact grow">
          <span className="visually-hidden">Folder</span>
          <input aria-label="Source folder" value={path} onChange={(e) => setPath(e.target.value)} placeholder="/path/to/sessions" spellCheck={false} />
        </label>
        <button type="submit" className="button" disabled={!path.trim()}>
          Add source
        </button>
      </form>
    </section>
  );
}

export function AgentAccess({ settings, save }: SectionProps) {
  const socket = useStatus((s) => s.status?.socket ?? null);
  const [name, setName] = useState('');
  const [workspaces, setWorkspaces] = useState('');
  const [shown, setShown] = useState<string | null>(null);
  const create = (e: FormEvent) => {
    e.preventDefault();
    if (!name.trim()) return;
    const token = newAgentToken();
    const limited = workspaces.split(/[\n,]/).map((w) => w.trim()).filter(Boolean);
    void save({ tokens: [...settings.tokens, { name: name.trim(), token, ...(limited.length ? { workspaces: limited } : {}) }] });
    setShown(token);
    setName('');
    setWorkspaces('');
  };
  return (
    <section className="card" aria-labelledby="agents-title">
      <h3 id="agents-title" className="card-title">Agent access</h3>
      <div className="socket">
        <span className="muted">Agent socket</span>
        {socket ? (
          <>
            <code className="mono grow" data-testid="socket-path">
              {socket}
            </code>
            <CopyButton text={socket} label="Copy" className="button small" />
          </>
        ) : (
          <span className="grow">Not running in this window. Start the app, or <code>throughline serve</code>, for agents to connect.</span>
        )}
      </div>
      <h4>Tokens</h4>
      <p className="muted small">Without tokens, any program running as you may ask. A token limited to workspaces never sees anything outside them.</p>
      {settings.tokens.length > 0 && (
        <ul className="rows" aria-label="Agent tokens">
          {settings.tokens.map((t, i) => (
            <li key={t.token} className="source-row">
              <strong>{t.name}</strong>
              <span className="muted grow">{t.workspaces?.length ? t.workspaces.join(', ') : 'All workspaces'}</span>
              <code className="mono">{shown === t.token ? t.token : `••••${t.token.slice(-4)}`}</code>
              <CopyButton text={t.token} label="Copy" className="button small" />
              <button type="button" className="button small subtle" onClick={() => void save({ tokens: settings.tokens.filter((_, j) => j !== i) })} aria-label={`Revoke ${t.name}`}>
                Revoke
              </button>
            </li>
          ))}
        </ul>
      )}
      <form className="inline-form" onSubmit={create}>
        <label className="field compact">
          <span className="visually-hidden">Token name</span>
          <input aria-label="Token name" value={name} onChange={(e) => setName(e.target.value)} placeholder="Name, e.g. work laptop pi" />
        </label>
        <label className="field compact grow">
          <span className="visually-hidden">Limit to workspaces</span>
          <input aria-label="Limit to workspaces" value={workspaces} onChange={(e) => setWorkspaces(e.target.value)} placeholder="Limit to workspaces (comma-separated, optional)" />
        </label>
        <button type="submit" className="button" disabled={!name.trim()}>
          Create token
        </button>
      </form>
    </section>
  );
}

export function Exclusions({ settings, save }: SectionProps) {
  const [path, setPath] = useState('');
  const add = (e: FormEvent) => {
    e.preventDefault();
    const p = path.trim();
    if (!p || settings.exclusions.includes(p)) return;
    void save({ exclusions: [...settings.exclusions, p] });
    setPath('');
  };
  return (
    <section className="card" aria-labelledby="exclusions-title">
      <h3 id="exclusions-title" className="card-title">Left out</h3>
      <p className="card-lede">
        Never indexed: session files under these folders and conversations in these workspaces (globs such as <code>/home/you/clients/**</code> work). This applies from the next scan;{' '}
        <code>throughline forget</code> removes what was indexed before.
      </p>
      {settings.exclusions.length > 0 && (
        <ul className="rows" aria-label="Excluded workspaces">
          {settings.exclusions.map((p) => (
            <li key={p} className="source-row">
              <span className="mono grow">{p}</span>
              <button type="button" className="button small subtle" onClick={() => void save({ exclusions: settings.exclusions.filter((x) => x !== p) })} aria-label={`Stop excluding ${p}`}>
                Remove
              </button>
            </li>
          ))}
        </ul>
      )}
      <form className="inline-form" onSubmit={add}>
        <label className="field compact grow">
          <span className="visually-hidden">Workspace to leave out</span>
          <input aria-label="Workspace to leave out" value={path} onChange={(e) => setPath(e.target.value)} placeholder="/path/to/private/project" spellCheck={false} />
        </label>
        <button type="submit" className="button" disabled={!path.trim()}>
          Leave out
        </button>
      </form>
    </section>
  );
}
