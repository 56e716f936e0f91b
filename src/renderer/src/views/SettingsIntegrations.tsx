// Settings → Extensions → Agent integrations: for each agent `throughline install` knows, whether its
// hook, MCP server or extension is in place, with Install / Remove running the same installer.
import { useEffect, useState } from 'react';
import type { IntegrationChange, IntegrationInfo } from '../../../shared/api';
import { call, errorMessage } from '../lib/transport';

const STATE_LABEL: Record<IntegrationInfo['state'], string> = {
  installed: 'Installed',
  partial: 'Partly installed',
  absent: 'Not installed',
  unreadable: 'Cannot tell',
};

function plural(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** What an install or removal did, in a line: the files it changed and what to do next. */
function outcome(verb: 'install' | 'uninstall', c: IntegrationChange): string {
  const did = c.changed.length
    ? `${verb === 'install' ? 'Installed' : 'Removed'}: ${plural(c.changed.length, 'file', 'files')} changed${c.backups.length ? `, ${plural(c.backups.length, 'backup', 'backups')} kept beside them` : ''}.`
    : `Nothing to change: it was already ${verb === 'install' ? 'installed' : 'removed'}.`;
  return [did, ...c.notes].join(' ');
}

function IntegrationRow({ item, onChange }: { item: IntegrationInfo; onChange: (next: IntegrationInfo) => void }) {
  const [busy, setBusy] = useState<'install' | 'uninstall' | null>(null);
  const [message, setMessage] = useState<{ text: string; error: boolean } | null>(null);
  const run = async (verb: 'install' | 'uninstall') => {
    setBusy(verb);
    setMessage(null);
    try {
      const change = await call(verb === 'install' ? 'integrations.install' : 'integrations.uninstall', { id: item.id });
      onChange(change.integration);
      setMessage({ text: outcome(verb, change), error: false });
    } catch (err) {
      setMessage({ text: errorMessage(err), error: true });
    } finally {
      setBusy(null);
    }
  };
  return (
    <li className="integration" data-testid={`integration-${item.id}`}>
      <div className="integration-main">
        <div className="integration-head">
          <strong>{item.agent}</strong>
          <span className={`pill state-${item.state}`} data-testid="integration-state">
            {STATE_LABEL[item.state]}
          </span>
        </div>
        <p className="muted small">Adds {item.adds}.</p>
        {item.problem ? (
          <p className="error-text small">{item.problem}</p>
        ) : (
          <p className="integration-files mono" title={item.files.join('\n')}>
            {item.files.join(' · ')}
          </p>
        )}
        {message && (
          <p className={`small ${message.error ? 'error-text' : 'ok-text'}`} role={message.error ? 'alert' : 'status'}>
            {message.text}
          </p>
        )}
      </div>
      <div className="integration-actions">
        {item.state !== 'installed' && (
          <button type="button" className="button small primary" disabled={busy !== null} onClick={() => void run('install')} aria-label={`Install for ${item.agent}`}>
            {busy === 'install' ? 'Installing…' : 'Install'}
          </button>
        )}
        {item.state !== 'absent' && (
          <button type="button" className="button small" disabled={busy !== null} onClick={() => void run('uninstall')} aria-label={`Remove from ${item.agent}`}>
            {busy === 'uninstall' ? 'Removing…' : 'Remove'}
          </button>
        )}
      </div>
    </li>
  );
}

export function Integrations() {
  const [items, setItems] = useState<IntegrationInfo[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    call('integrations.list', {})
      .then((r) => setItems(r.items))
      .catch((err) => setError(errorMessage(err)));
  }, []);
  return (
    <section className="card" aria-labelledby="integrations-title">
      <h3 id="integrations-title" className="card-title">Agent integrations</h3>
      <p className="card-lede">
        Connects each agent to Throughline, as <code>throughline install</code> does. Every file is backed up before it changes; Remove takes out only what Install added.
      </p>
      {error && <p className="error-text small" role="alert">{error}</p>}
      {!items && !error && <p className="muted small">Looking at each agent’s configuration…</p>}
      {items && (
        <ul className="rows integrations" aria-label="Agent integrations">
          {items.map((item) => (
            <IntegrationRow key={item.id} item={item} onChange={(next) => setItems((all) => all?.map((x) => (x.id === next.id ? next : x)) ?? null)} />
          ))}
        </ul>
      )}
    </section>
  );
}
