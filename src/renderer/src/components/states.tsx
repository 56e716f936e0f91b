// The empty, loading and error states every view shares, so they look and read the same everywhere.
import { useState, type ReactNode } from 'react';

export function Loading({ label = 'Loading…' }: { label?: string }) {
  return (
    <div className="state" role="status" aria-live="polite">
      <span className="spinner" aria-hidden="true" />
      <span>{label}</span>
    </div>
  );
}

export function Empty({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="state empty">
      <p className="state-title">{title}</p>
      {children && <div className="state-body">{children}</div>}
    </div>
  );
}

export function ErrorState({ message, onRetry }: { message: string; onRetry?: () => void }) {
  return (
    <div className="state error" role="alert">
      <p className="state-title">Something went wrong</p>
      <p className="state-body">{message}</p>
      {onRetry && (
        <button type="button" className="button" onClick={onRetry}>
          Try again
        </button>
      )}
    </div>
  );
}

/** Copies text, saying so for a moment (and to screen readers). */
export function CopyButton({ text, label, className = 'button' }: { text: string; label: string; className?: string }) {
  const [done, setDone] = useState<'' | 'Copied' | 'Copy failed'>('');
  return (
    <button
      type="button"
      className={className}
      onClick={async () => {
        try {
          await navigator.clipboard.writeText(text);
          setDone('Copied');
        } catch {
          setDone('Copy failed');
        }
        setTimeout(() => setDone(''), 1500);
      }}
    >
      <span aria-live="polite">{done || label}</span>
    </button>
  );
}
