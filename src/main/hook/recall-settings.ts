// The two settings a hook needs before it does anything, read straight from the files: whether
// auto-recall is on, and whether it runs on every message. Read raw, without zod, because the hook
// runs on every prompt; the daemon applies the full, validated settings to whatever it is asked.
import { fs, path } from '../builtins.js';

export interface RecallSwitches {
  autoRecall: boolean;
  every: boolean;
}

function readObject(file: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(fs.readFileSync(file, 'utf8'));
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {}; // missing or damaged: the defaults, as the settings store does
  }
}

export function readRecallSwitches(settingsFile: string): RecallSwitches {
  const user = readObject(settingsFile);
  // The operator's file beside it can switch auto-recall off for everyone.
  const operator = readObject(path.join(path.dirname(settingsFile), 'operator.json'));
  const autoRecall = operator.autoRecall !== false && user.autoRecall !== false;
  return { autoRecall, every: user.autoRecallWhen === 'every' };
}
