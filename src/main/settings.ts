// The user's settings file, and the operator's optional defaults and pins beside it.
// A change is written at once and read by the next answer: nothing caches settings across calls.
import fs from 'node:fs';
import path from 'node:path';
import { Pins, Settings, SettingsPatch, Sensitivity, Scope } from '../shared/api.js';
import { z } from 'zod';

export { configDir, defaultSettingsPath } from './paths-light.js';

/** What a deployment (or a person for all their users) can ship: defaults and pins. */
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

export class SettingsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SettingsError';
  }
}

function readJson(file: string): unknown {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new SettingsError(`Cannot read ${file}: ${(err as Error).message}`);
  }
}

export type SettingsStore = ReturnType<typeof createSettingsStore>;

export function createSettingsStore(file: string) {
  const operatorFile = path.join(path.dirname(file), 'operator.json');

  function operator(): OperatorConfig {
    const raw = readJson(operatorFile);
    if (raw === undefined) return {};
    const parsed = OperatorConfig.safeParse(raw);
    if (!parsed.success) throw new SettingsError(`${operatorFile}: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
    return parsed.data;
  }

  function get(): Settings {
    const base = defaultSettings(operator());
    const raw = readJson(file);
    if (raw === undefined) return base;
    // A damaged field falls back to its default instead of losing the whole file.
    const parsed = SettingsPatch.safeParse(raw);
    const merged = { ...base, ...(parsed.success ? parsed.data : {}) };
    return Settings.parse(merged);
  }

  function set(patch: SettingsPatch): Settings {
    const next = Settings.parse({ ...get(), ...SettingsPatch.parse(patch) });
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    // Written to a temporary file and renamed, so a crash never leaves half a settings file.
    const tmp = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, JSON.stringify(next, null, 2) + '\n', { mode: 0o600 });
    fs.renameSync(tmp, file);
    return next;
  }

  return { file, get, set, operator };
}
