// The rest of Settings: where sessions are read from, how agents reach Throughline, what is left out.
import { useState } from 'react';
import type { Settings, SettingsPatch, SourceSetting } from '../../../shared/api';
import type { SourceKind } from '../../../shared/types';
import { CopyButton } from '../components/states';
import { SOURCE_LABEL } from '../lib/format';
import { useStatus } from '../stores/status';
import { useSettings } from '../stores/settings';
import { call, errorMessage } from '../lib/transport';
import { AgentOptions } from '../components/AgentOptions';
import { InlineForm, SettingsList, TextField } from '../components/SettingsList';

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
  const add = () => {
    const p = path.trim();
    if (!p || settings.sources.some((s) => s.kind === kind && s.path === p)) return;
    update([...settings.sources, { kind, path: p, enabled: true }]);
    setPath('');
  };
  return (
    <section className="card" aria-labelledby="sources-title">
      <h3 id="sources-title" className="card-title">Sources</h3>
      <p className="card-lede">
        Every agent's own folders (Claude Code, Codex, pi, Gemini CLI, OpenCode, Copilot CLI, Cursor, Droid; listed under Index status) are always read, and Aider's
        history in each workspace the index knows. Add other folders here, or add a default one switched off to stop reading it. Throughline only ever reads them.
      </p>
      <SettingsList
        label="Extra sources"
        items={settings.sources}
        keyOf={(s) => `${s.kind}:${s.path}`}
        row={(s, i) => (
          <>
            <span className={`agent agent-${s.kind}`}>{SOURCE_LABEL[s.kind]}</span>
            <span className="mono grow" title={s.path}>
              {s.path}
            </span>
            <label className="check">
              <input type="checkbox" role="switch" checked={s.enabled}
                onChange={(e) => update(settings.sources.map((x, j) => (j === i ? { ...x, enabled: e.target.checked } : x)))} />
              <span>{s.enabled ? 'Reading' : 'Off'}</span>
            </label>
          </>
        )}
        removeLabel={(s) => `Remove ${s.path}`}
        onRemove={(_, i) => update(settings.sources.filter((_, j) => j !== i))}
        empty={<p className="muted small">No extra sources.</p>}
      />
      <InlineForm onSubmit={add} submit="Add source" ready={path.trim() !== ''}>
        <label className="field compact">
          <span className="visually-hidden">Agent</span>
          <select aria-label="Source agent" value={kind} onChange={(e) => setKind(e.target.value as SourceKind)}>
            <AgentOptions />
          </select>
        </label>
        <TextField label="Source folder" value={path} onChange={setPath} placeholder="/path/to/sessions" literal grow />
      </InlineForm>
    </section>
  );
}

export function AgentAccess({ settings, save }: SectionProps) {
  const socket = useStatus((s) => s.status?.socket ?? null);
  const [name, setName] = useState('');
  const [workspaces, setWorkspaces] = useState('');
  const [shown, setShown] = useState<string | null>(null);
  const create = () => {
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
      <SettingsList
        label="Agent tokens"
        items={settings.tokens}
        keyOf={(t) => t.token}
        row={(t) => (
          <>
            <strong>{t.name}</strong>
            <span className="muted grow">{t.workspaces?.length ? t.workspaces.join(', ') : 'All workspaces'}</span>
            <code className="mono">{shown === t.token ? t.token : `••••${t.token.slice(-4)}`}</code>
            <CopyButton text={t.token} label="Copy" className="button small" />
          </>
        )}
        removeText="Revoke"
        removeLabel={(t) => `Revoke ${t.name}`}
        onRemove={(_, i) => void save({ tokens: settings.tokens.filter((_, j) => j !== i) })}
      />
      <InlineForm onSubmit={create} submit="Create token" ready={name.trim() !== ''}>
        <TextField label="Token name" value={name} onChange={setName} placeholder="Name, e.g. work laptop pi" />
        <TextField label="Limit to workspaces" value={workspaces} onChange={setWorkspaces} placeholder="Limit to workspaces (comma-separated, optional)" grow />
      </InlineForm>
    </section>
  );
}

/** An exclusion typed in, waiting for the person's choice about what is already indexed from it. */
interface Pending {
  pattern: string;
  conversations: number;
  entries: number;
}

const count = (n: number, one: string, many: string) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

export function Exclusions({ settings }: SectionProps) {
  const [path, setPath] = useState('');
  const [pending, setPending] = useState<Pending | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const reload = useSettings((s) => s.load);

  // Left out in one step with what is already indexed of it: removed (the default), or kept as it is.
  const leaveOut = async (pattern: string, keepIndexed: boolean) => {
    setPending(null);
    try {
      const r = await call('exclusions.add', { pattern, keepIndexed });
      const removed = r.removed.conversations.length;
      setDone(
        removed
          ? `Left out ${r.exclusion}; removed ${count(removed, 'conversation', 'conversations')} (${count(r.removed.entries, 'entry', 'entries')}) from the index.`
          : r.kept
            ? `Left out ${r.exclusion}; kept the ${count(r.kept, 'conversation', 'conversations')} already indexed, which no longer grow.`
            : `Left out ${r.exclusion}.`,
      );
      setPath('');
    } catch (err) {
      setError(errorMessage(err));
    }
    await reload();
  };

  const add = async () => {
    const p = path.trim();
    setDone(null);
    setError(null);
    if (!p || settings.exclusions.includes(p)) return;
    try {
      const preview = await call('exclusions.preview', { pattern: p });
      if (preview.conversations === 0) await leaveOut(p, false);
      else setPending({ pattern: p, ...preview });
    } catch (err) {
      setError(errorMessage(err));
    }
  };
  const remove = async (p: string) => {
    setDone(null);
    await useSettings.getState().save({ exclusions: settings.exclusions.filter((x) => x !== p) });
  };
  return (
    <section className="card" aria-labelledby="exclusions-title">
      <h3 id="exclusions-title" className="card-title">Left out</h3>
      <p className="card-lede">
        Never indexed: session files under these folders, conversations in these workspaces (globs such as <code>/home/you/clients/**</code> work), and single conversations (
        <code>session:ID</code>). What is already indexed from one you add is removed in the same step, unless you choose to keep it. Remove an entry to let it be indexed again.
      </p>
      <SettingsList
        label="Excluded workspaces"
        items={settings.exclusions}
        keyOf={(p) => p}
        row={(p) => <span className="mono grow">{p}</span>}
        removeLabel={(p) => `Stop excluding ${p}`}
        onRemove={(p) => void remove(p)}
      />
      {pending ? (
        <div className="inline-form" role="group" aria-label="Already indexed">
          <p className="grow" data-testid="exclusion-preview">
            {count(pending.conversations, 'conversation', 'conversations')} ({count(pending.entries, 'entry', 'entries')}) from <span className="mono">{pending.pattern}</span> {pending.conversations === 1 ? 'is' : 'are'} already in
            the index.
          </p>
          <button type="button" className="button" onClick={() => void leaveOut(pending.pattern, false)}>
            Leave out and remove them
          </button>
          <button type="button" className="button subtle" onClick={() => void leaveOut(pending.pattern, true)}>
            Leave out, keep what is indexed
          </button>
          <button type="button" className="button subtle" onClick={() => setPending(null)}>
            Cancel
          </button>
        </div>
      ) : (
        <InlineForm onSubmit={() => void add()} submit="Leave out" ready={path.trim() !== ''}>
          <TextField label="Workspace to leave out" value={path} onChange={setPath} placeholder="/path/to/private/project" literal grow />
        </InlineForm>
      )}
      {done && (
        <p className="small" role="status" data-testid="exclusion-done">
          {done}
        </p>
      )}
      {error && <p className="error-text small" role="alert">{error}</p>}
    </section>
  );
}
