// The keyboard shortcuts, listed (press ?). A native modal dialog: it holds focus, and Esc closes it.
import { useEffect, useRef } from 'react';

export const SHORTCUTS: { keys: string[]; what: string }[] = [
  { keys: ['Ctrl', 'K'], what: 'Search conversations (⌘K on a Mac); / works too' },
  { keys: ['j'], what: 'Next conversation (opens it when a transcript is open)' },
  { keys: ['k'], what: 'Previous conversation' },
  { keys: ['↑', '↓'], what: 'Move in the list' },
  { keys: ['Enter'], what: 'Open the conversation' },
  { keys: ['Esc'], what: 'Close the transcript, back to its row in the list' },
  { keys: ['Ctrl', 'F'], what: 'Find in the open conversation; Enter next, Shift+Enter previous' },
  { keys: ['?'], what: 'This list' },
];

export function ShortcutsDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const d = ref.current;
    if (!d) return;
    if (open && !d.open) d.showModal();
    if (!open && d.open) d.close();
  }, [open]);
  return (
    <dialog ref={ref} className="dialog" aria-labelledby="shortcuts-title" onClose={onClose}>
      <div className="dialog-head">
        <h2 id="shortcuts-title">Keyboard shortcuts</h2>
        <button type="button" className="icon-button" onClick={onClose} aria-label="Close">
          ×
        </button>
      </div>
      <table className="shortcuts">
        <tbody>
          {SHORTCUTS.map((s) => (
            <tr key={s.what}>
              <td className="keys">
                {s.keys.map((k, i) => (
                  <span key={k}>
                    {i > 0 && (s.keys.length === 2 && s.keys[0] === 'Ctrl' ? '+' : ' ')}
                    <kbd>{k}</kbd>
                  </span>
                ))}
              </td>
              <td>{s.what}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </dialog>
  );
}
