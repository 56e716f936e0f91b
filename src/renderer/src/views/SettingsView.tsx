// Settings → Extensions: Personal Recall (on/off, how eagerly, where to look, pins), then sources
// and agent access (SettingsSections.tsx). Every change is saved at once and used by the next answer.
import { useEffect, useId, useState } from 'react';
import type { AutoRecallWhen, Pins, Scope, Sensitivity } from '../../../shared/api';
import { ErrorState, Loading } from '../components/states';
import { useSettings } from '../stores/settings';
import { Integrations } from './SettingsIntegrations';
import { AgentAccess, Exclusions, Sources } from './SettingsSections';

const SENSITIVITIES: { value: Sensitivity; label: string; hint: string }[] = [
  { value: 'focused', label: 'Focused', hint: 'Only strong matches' },
  { value: 'balanced', label: 'Balanced', hint: 'The default' },
  { value: 'broad', label: 'Broad', hint: 'More suggestions, more noise' },
];

const SCOPES: { value: Scope; label: string; hint: string }[] = [
  { value: 'workspace', label: 'This workspace only', hint: 'Conversations from the folder the agent works in' },
  { value: 'everywhere', label: 'All my workspaces', hint: 'Every conversation Throughline has indexed' },
];

const WHEN: { value: AutoRecallWhen; label: string; hint: string }[] = [
  { value: 'start', label: 'At the start', hint: 'Before a conversation’s first message' },
  { value: 'every', label: 'Every message', hint: 'Never the same conversation twice in one chat' },
];

/** The shipped presets (personal-recall-plugin), shown as what an empty pin falls back to. */
const PRESETS: Record<Sensitivity, Required<Pins>> = {
  focused: { dfCeiling: 10, rareDf: 2, maxHits: 2, tokenBudget: 250, halfLifeDays: 60 },
  balanced: { dfCeiling: 25, rareDf: 3, maxHits: 3, tokenBudget: 400, halfLifeDays: 60 },
  broad: { dfCeiling: 60, rareDf: 5, maxHits: 5, tokenBudget: 700, halfLifeDays: 60 },
};

const PIN_FIELDS: { key: keyof Pins; label: string; hint: string; min: number; max?: number; step?: number }[] = [
  { key: 'dfCeiling', label: 'Distinctive-word ceiling', hint: 'A word in more conversations than this is too common to count.', min: 1 },
  { key: 'rareDf', label: 'Lone-word rarity', hint: 'A single word may recall on its own only when this rare.', min: 1 },
  { key: 'maxHits', label: 'Conversations listed', hint: 'At most this many in one note.', min: 1, max: 10 },
  { key: 'tokenBudget', label: 'Token budget', hint: 'Ceiling on the note, in estimated tokens.', min: 50 },
  { key: 'halfLifeDays', label: 'Recency half-life (days)', hint: 'How fast older conversations fade.', min: 0.1, step: 0.1 },
];

function RadioGroup<T extends string>({ legend, name, value, options, onChange, disabled }: {
  legend: string;
  name: string;
  value: T;
  options: { value: T; label: string; hint: string }[];
  onChange: (v: T) => void;
  disabled?: boolean;
}) {
  return (
    <fieldset className="radio-group" disabled={disabled}>
      <legend>{legend}</legend>
      <div className="segmented">
        {options.map((o) => (
          <label key={o.value} className={`segment${value === o.value ? ' checked' : ''}`}>
            <input type="radio" name={name} value={o.value} checked={value === o.value} onChange={() => onChange(o.value)} />
            <span className="segment-label">{o.label}</span>
            <span className="segment-hint">{o.hint}</span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}

/** An empty pin field follows the operator's pin when there is one, else the shipped preset. */
function PinField({ field, value, preset, operator, onSave }: {
  field: (typeof PIN_FIELDS)[number];
  value: number | undefined;
  preset: number;
  operator: number | undefined;
  onSave: (v: number | undefined) => void;
}) {
  const id = useId();
  const [draft, setDraft] = useState(value === undefined ? '' : String(value));
  useEffect(() => setDraft(value === undefined ? '' : String(value)), [value]);
  const commit = () => {
    const n = draft.trim() === '' ? undefined : Number(draft);
    if (n !== undefined && (!Number.isFinite(n) || n < field.min || (field.max !== undefined && n > field.max))) return setDraft(value === undefined ? '' : String(value));
    const normal = n !== undefined && field.key !== 'halfLifeDays' ? Math.round(n) : n;
    if (normal !== value) onSave(normal);
  };
  return (
    <div className="pin">
      <label htmlFor={id}>{field.label}</label>
      <input id={id} type="number" inputMode="decimal" min={field.min} max={field.max} step={field.step ?? 1}
        placeholder={operator !== undefined ? `${operator} (operator's pin)` : `${preset} (preset)`} value={draft}
        onChange={(e) => setDraft(e.target.value)} onBlur={commit} onKeyDown={(e) => e.key === 'Enter' && commit()} aria-describedby={`${id}-hint`} />
      <small id={`${id}-hint`}>
        {value === undefined && operator !== undefined && <strong className="pinned-by">Pinned by the operator. </strong>}
        {field.hint}
      </small>
    </div>
  );
}

export function SettingsView() {
  const { settings, error, saving, savedAt, save } = useSettings();
  useEffect(() => void useSettings.getState().load(), []);
  if (!settings) return error ? <ErrorState message={error} onRetry={() => void useSettings.getState().load()} /> : <Loading label="Loading settings…" />;
  const preset = PRESETS[settings.sensitivity];
  const operatorPins = settings.operator.pins;
  const pinned = PIN_FIELDS.filter((f) => settings.pins[f.key] !== undefined || operatorPins[f.key] !== undefined).length;

  return (
    <div className="page settings">
      <header className="page-head">
        <h1>Settings</h1>
        <p className="lede">What your agents are offered, what Throughline reads, and who may ask.</p>
        <p className="save-state" role="status" aria-live="polite">
          {error ? <span className="error-text">{error}</span> : saving ? 'Saving…' : savedAt ? 'Saved — agents get the change on their next message' : ''}
        </p>
      </header>

      <h2 className="section-label">Extensions</h2>
      <section className="card" aria-labelledby="recall-title">
        <h3 id="recall-title" className="card-title">Personal Recall</h3>
        <p className="card-lede">Before your agent reads a message, Throughline can offer it a short list of your earlier conversations on the same thing. Only you see what it reads; nothing leaves this machine.</p>
        {settings.operator.autoRecallOff ? (
          // personal-recall-plugin.md: an operator's auto_recall_enabled false "removes it for every user here and hides its settings".
          <p className="notice" data-testid="auto-recall-operator-off">
            Automatic recall is turned off for everyone on this machine by its operator (<code>operator.json</code>). Agents can still search your history with their tools.
          </p>
        ) : (
          <>
            <div className="switch-row">
              <div>
                <label htmlFor="auto-recall" className="switch-label">
                  Recall earlier conversations automatically
                </label>
                <p className="muted small" id="auto-recall-hint">When off, agents can still search your history with their tools; nothing is pushed to them.</p>
              </div>
              <input id="auto-recall" type="checkbox" role="switch" className="switch" checked={settings.autoRecall} aria-describedby="auto-recall-hint"
                onChange={(e) => void save({ autoRecall: e.target.checked })} />
            </div>
            <RadioGroup legend="When to recall" name="auto-recall-when" value={settings.autoRecallWhen} options={WHEN} onChange={(v) => void save({ autoRecallWhen: v })} disabled={!settings.autoRecall} />
            <RadioGroup legend="How eagerly to recall" name="sensitivity" value={settings.sensitivity} options={SENSITIVITIES} onChange={(v) => void save({ sensitivity: v })} disabled={!settings.autoRecall} />
            <RadioGroup legend="Where to look" name="scope" value={settings.scope} options={SCOPES} onChange={(v) => void save({ scope: v })} disabled={!settings.autoRecall} />
            <details className="advanced">
              <summary>
                Advanced: pins{pinned > 0 && <span className="pill">{pinned} pinned</span>}
              </summary>
              <p className="muted small">A pin overrides one number for every sensitivity. Leave a field empty to follow the preset (or the operator's pin) — usually the better choice.</p>
              <div className="pins">
                {PIN_FIELDS.map((f) => (
                  <PinField key={f.key} field={f} value={settings.pins[f.key]} preset={preset[f.key]} operator={operatorPins[f.key]} onSave={(v) => {
                    const pins = { ...settings.pins, [f.key]: v };
                    if (v === undefined) delete pins[f.key];
                    void save({ pins });
                  }} />
                ))}
              </div>
            </details>
          </>
        )}
      </section>

      <Integrations />

      <h2 className="section-label">Agents</h2>
      <AgentAccess settings={settings} save={save} />
      <h2 className="section-label">Data</h2>
      <Sources settings={settings} save={save} />
      <Exclusions settings={settings} save={save} />
    </div>
  );
}
