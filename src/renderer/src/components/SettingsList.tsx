// Settings' lists of things a person adds (sources, agent tokens, left-out folders): the rows, each
// with its remove button, and the inline form under them that adds one.
import type { FormEvent, ReactNode } from 'react';

interface SettingsListProps<T> {
  /** The list's accessible name. */
  label: string;
  items: readonly T[];
  keyOf(item: T): string;
  /** A row's content, before its remove button. */
  row(item: T, index: number): ReactNode;
  /** The remove button's text (Remove, Revoke) and accessible name. */
  removeText?: string;
  removeLabel(item: T): string;
  onRemove(item: T, index: number): void;
  /** Shown when there are no items. */
  empty?: ReactNode;
}

export function SettingsList<T>({ label, items, keyOf, row, removeText = 'Remove', removeLabel, onRemove, empty = null }: SettingsListProps<T>) {
  if (!items.length) return <>{empty}</>;
  return (
    <ul className="rows" aria-label={label}>
      {items.map((item, i) => (
        <li key={keyOf(item)} className="source-row">
          {row(item, i)}
          <button type="button" className="button small subtle" onClick={() => onRemove(item, i)} aria-label={removeLabel(item)}>
            {removeText}
          </button>
        </li>
      ))}
    </ul>
  );
}

interface InlineFormProps {
  onSubmit(): void;
  /** The submit button's text; it is off until `ready`. */
  submit: string;
  ready: boolean;
  children: ReactNode;
}

/** The form that adds one: its fields in a row, then its submit button. */
export function InlineForm({ onSubmit, submit, ready, children }: InlineFormProps) {
  const submitted = (e: FormEvent) => {
    e.preventDefault();
    onSubmit();
  };
  return (
    <form className="inline-form" onSubmit={submitted}>
      {children}
      <button type="submit" className="button" disabled={!ready}>
        {submit}
      </button>
    </form>
  );
}

interface TextFieldProps {
  /** The field's accessible name (it has no visible label: the placeholder says what it takes). */
  label: string;
  value: string;
  onChange(value: string): void;
  placeholder: string;
  /** A path or a pattern: no spelling marks. */
  literal?: boolean;
  grow?: boolean;
}

export function TextField({ label, value, onChange, placeholder, literal = false, grow = false }: TextFieldProps) {
  return (
    <label className={grow ? 'field compact grow' : 'field compact'}>
      <span className="visually-hidden">{label}</span>
      <input aria-label={label} value={value} onChange={(e) => onChange(e.target.value)} placeholder={placeholder} {...(literal ? { spellCheck: false } : {})} />
    </label>
  );
}
