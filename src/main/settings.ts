// The user's settings file, and the operator's optional defaults and pins beside it.
// A change is written at once and read by the next answer: nothing caches settings across calls.
import fs from 'node:fs';
import path from 'node:path';
import { Pins, Settings, SettingsPatch, Sensitivity, Scope, type SettingsView } from '../shared/api.js';
import * as z from 'zod';
import { NamedError } from '../shared/errors.js';
import { issueText } from '../shared/invalid-params.js';

export { configDir, defaultSettingsPath } from './paths-light.js';

/**
 * What a deployment (or a person for all their users) can ship (personal-recall-plugin.md):
 * `autoRecall: false` removes auto-recall for every user here (no user setting turns it back on, and
 * the app hides its settings); the sensitivity and scope are defaults a user may change; pins resolve
 * shipped preset ← operator ← user.
 */
export const OperatorConfig = z.object({
  autoRecall: z.boolean().optional(),
  defaultSensitivity: Sensitivity.optional(),
  defaultScope: Scope.optional(),
  pins: Pins.optional(),
});
export type OperatorConfig = z.infer<typeof OperatorConfig>;

export function defaultSettings(operator: OperatorConfig = {}): Settings {
  return {
    autoRecall: operator.autoRecall ?? true,
    autoRecallWhen: 'start',
    sensitivity: operator.defaultSensitivity ?? 'balanced',
    scope: operator.defaultScope ?? 'workspace',
    pins: {},
    sources: [],
    tokens: [],
    exclusions: [],
  };
}

export class SettingsError extends NamedError {}

function readJson(file: string): unknown {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new SettingsError(`Cannot read ${file}: ${(err as Error).message}`);
  }
}

/** The settings file: read afresh at every call (nothing is cached), written whole by set. */
export interface SettingsStore {
  /** The user's settings file (operator.json sits beside it). */
  readonly file: string;
  /** What is in force: the user's settings over the operator's defaults, with the operator's overrides. */
  get(): Settings;
  /** Writes the patch into the user's own layer (never the operator's); returns what is then in force. */
  set(patch: SettingsPatch): Settings;
  /** What is in force, with what the operator decided, for the app to show as such. */
  view(): SettingsView;
  /** The operator's defaults and pins ({} without operator.json); throws SettingsError when it is malformed. */
  operator(): OperatorConfig;
}

export function createSettingsStore(file: string): SettingsStore {
  const operatorFile = path.join(path.dirname(file), 'operator.json');

  function operator(): OperatorConfig {
    const raw = readJson(operatorFile);
    if (raw === undefined) return {};
    const parsed = OperatorConfig.safeParse(raw);
    if (!parsed.success) throw new SettingsError(`${operatorFile}: ${parsed.error.issues.map((i) => issueText(i, '(the file)').text).join('; ')}`);
    return parsed.data;
  }

  /** The user's own settings over the operator's defaults, before the operator's overrides. */
  function own(op: OperatorConfig): Settings {
    const base = defaultSettings(op);
    const raw = readJson(file);
    if (raw === undefined) return base;
    // A damaged field falls back to its default instead of losing the whole file.
    const parsed = SettingsPatch.safeParse(raw);
    const merged = { ...base, ...(parsed.success ? parsed.data : {}) };
    return Settings.parse(merged);
  }

  /** What is in force: an operator's `autoRecall: false` wins over the user's setting. */
  const inForce = (mine: Settings, op: OperatorConfig): Settings => (op.autoRecall === false ? { ...mine, autoRecall: false } : mine);

  function get(): Settings {
    const op = operator();
    return inForce(own(op), op);
  }

  /** The settings in force with what the operator decided, for the app to show as such. */
  function view(): SettingsView {
    const op = operator();
    return { ...inForce(own(op), op), operator: { autoRecallOff: op.autoRecall === false, pins: op.pins ?? {} } };
  }

  function set(patch: SettingsPatch): Settings {
    const op = operator();
    // The user's layer is written, never the operator's override: lifting it later restores the user's choice.
    const next = Settings.parse({ ...own(op), ...SettingsPatch.parse(patch) });
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    // Written to a temporary file and renamed, so a crash never leaves half a settings file.
    const tmp = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, JSON.stringify(next, null, 2) + '\n', { mode: 0o600 });
    fs.renameSync(tmp, file);
    return inForce(next, op);
  }

  return { file, get, set, view, operator };
}
