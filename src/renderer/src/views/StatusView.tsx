// Index status: what is indexed, indexing progress with its rate, the lines that were skipped and why.
import { useEffect, type ReactNode } from 'react';
import { ErrorState, Loading } from '../components/states';
import { formatBytes, formatDateTime, formatNumber, formatRelative, SOURCE_LABEL } from '../lib/format';
import { useStatus } from '../stores/status';

function Stat({ label, value, hint, tone = 'warn' }: { label: string; value: string; hint?: string; tone?: 'warn' | 'muted' }) {
  return (
    <div className="stat">
      <span className="stat-value">{value}</span>
      <span className="stat-label">{label}</span>
      {hint && <span className={`stat-hint ${tone}`}>{hint}</span>}
    </div>
  );
}

/** The file name first (it says the most), its folder under it; the whole path on hover. */
function FileCell({ path }: { path: string }) {
  const cut = Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\'));
  return (
    <td className="file-cell" title={path}>
      <span className="mono file-name">{path.slice(cut + 1)}</span>
      <span className="mono file-dir">{path.slice(0, cut + 1)}</span>
    </td>
  );
}

type Column = string | { label: string; className: string };

/** A scrolling table with a header row: the watched folders and the skipped lines alike. */
function Table({ className, columns, children }: { className?: string; columns: Column[]; children: ReactNode }) {
  return (
    <div className="table-wrap">
      <table className={className ? `table ${className}` : 'table'}>
        <thead>
          <tr>
            {columns.map((c) =>
              typeof c === 'string' ? (
                <th key={c} scope="col">
                  {c}
                </th>
              ) : (
                <th key={c.label} scope="col" className={c.className}>
                  {c.label}
                </th>
              ),
            )}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}

export function StatusView() {
  const { status, error, refresh } = useStatus();
  useEffect(() => void refresh(), [refresh]);
  if (!status) return error ? <ErrorState message={error} onRetry={() => void refresh()} /> : <Loading label="Reading the index…" />;
  const ix = status.indexing?.active ? status.indexing : null;
  const pct = ix && ix.filesTotal > 0 ? Math.min(100, Math.round((ix.filesDone / ix.filesTotal) * 100)) : null;

  return (
    <div className="page status">
      <header className="page-head">
        <h1>Index status</h1>
        <p className="lede">
          {ix ? 'Indexing new sessions…' : status.lastIndexedAt ? `Up to date · last change ${formatRelative(status.lastIndexedAt)}` : 'Nothing indexed yet'}
        </p>
      </header>

      <section className="card" aria-labelledby="progress-title">
        <h2 id="progress-title">{ix ? 'Indexing' : 'Index'}</h2>
        {ix ? (
          <div className="progress-block">
            <div className="progress" role="progressbar" aria-label="Indexing progress" aria-valuemin={0} aria-valuemax={100} aria-valuenow={pct ?? undefined}>
              <div className="progress-fill" style={{ width: `${pct ?? 5}%` }} />
            </div>
            <p className="muted small">
              {formatNumber(ix.filesDone)} of {formatNumber(ix.filesTotal)} files · {formatNumber(ix.entries)} entries · {formatBytes(ix.bytes)} at {ix.rateMBps.toFixed(1)} MB/s
            </p>
          </div>
        ) : (
          <p className="muted small">Throughline watches the agents' folders and indexes each change within a moment.</p>
        )}
        <div className="stats">
          <Stat label="Conversations" value={formatNumber(status.conversations)} />
          <Stat label="Entries" value={formatNumber(status.entries)} />
          <Stat label="Session files" value={formatNumber(status.files)} hint={status.missingFiles ? `${formatNumber(status.missingFiles)} deleted by their agent, kept here` : undefined} />
          <Stat label="Last update" value={formatRelative(status.lastIndexedAt)} hint={status.lastIndexedAt ? formatDateTime(status.lastIndexedAt) : undefined} tone="muted" />
        </div>
        <dl className="facts">
          <div>
            <dt>Database</dt>
            <dd className="mono">{status.db}</dd>
          </div>
          <div>
            <dt>Schema</dt>
            <dd>version {status.schemaVersion}</dd>
          </div>
        </dl>
      </section>

      <section className="card" aria-labelledby="folders-title">
        <h2 id="folders-title">Watched folders</h2>
        <p className="muted small">Where Throughline looks for your agents’ sessions. Add or switch off folders in Settings.</p>
        <Table className="folders" columns={['Folder', 'Agent', { label: 'Session files', className: 'num' }]}>
          {status.folders.map((f) => (
            <tr key={`${f.kind}:${f.path}`} className={f.found ? '' : 'not-found'}>
              <td className="mono folder-path">{f.path}</td>
              <td className="nowrap">{SOURCE_LABEL[f.kind]}</td>
              <td className="num nowrap">{f.found ? formatNumber(f.files) : 'not found'}</td>
            </tr>
          ))}
        </Table>
      </section>

      <section className="card" aria-labelledby="errors-title">
        <h2 id="errors-title">
          Skipped lines <span className="count">{formatNumber(status.errorCount)}</span>
        </h2>
        {status.errors.length === 0 ? (
          <p className="muted small">Every line of every session file was understood.</p>
        ) : (
          <>
            <p className="muted small">A line Throughline could not read is skipped and counted; the rest of its file is still indexed.{status.errorCount > status.errors.length && ` The latest ${status.errors.length} are shown.`}</p>
            <Table columns={['File', 'Line', 'Reason', 'When']}>
              {status.errors.map((e, i) => (
                <tr key={i}>
                  <FileCell path={e.path} />
                  <td className="num">{e.line ?? '—'}</td>
                  <td>{e.reason}</td>
                  <td className="nowrap">{formatRelative(e.at)}</td>
                </tr>
              ))}
            </Table>
          </>
        )}
      </section>
    </div>
  );
}
