// Which folders hold which agent's sessions, and the adapter for each kind.
import os from 'node:os';
import path from 'node:path';
import type { SourceKind } from '../../shared/types.js';
import { SOURCE_KINDS } from '../../shared/types.js';
import { aiderAdapter } from './adapters/aider.js';
import { claudeCodeAdapter } from './adapters/claude-code.js';
import { codexAdapter } from './adapters/codex.js';
import { copilotAdapter } from './adapters/copilot.js';
import { cursorAdapter } from './adapters/cursor.js';
import { droidAdapter } from './adapters/droid.js';
import { opencodeAdapter } from './adapters/opencode.js';
import { geminiAdapter } from './adapters/gemini.js';
import { jsonlAdapter } from './adapters/jsonl.js';
import { piAdapter } from './adapters/pi.js';
import type { Source } from './scan.js';
import type { Adapter } from './types.js';

/** Sources found from what the index holds (Aider's histories in its workspaces), asked for after a scan's first round. */
export { aiderSources } from './aider-sources.js';

export const ADAPTERS: ReadonlyMap<SourceKind, Adapter> = new Map<SourceKind, Adapter>([
  ['pi', piAdapter],
  ['claude-code', claudeCodeAdapter],
  ['codex', codexAdapter],
  ['gemini', geminiAdapter],
  ['opencode', opencodeAdapter],
  ['copilot', copilotAdapter],
  ['cursor', cursorAdapter],
  ['droid', droidAdapter],
  ['aider', aiderAdapter],
  ['jsonl', jsonlAdapter],
]);

/** The agents' default locations under HOME, honouring each agent's own override (CODEX_HOME, GEMINI_CLI_HOME, …). */
export function defaultSources(env: NodeJS.ProcessEnv = process.env): Source[] {
  const home = env.HOME || os.homedir();
  const out: Source[] = [];
  for (const [kind, adapter] of ADAPTERS) for (const root of adapter.defaultRoots(env, home)) out.push({ kind, root });
  return out;
}

/** `KIND=PATH` as given to `--source`. */
export function parseSource(arg: string): Source {
  const eq = arg.indexOf('=');
  const kind = arg.slice(0, eq) as SourceKind;
  if (eq <= 0 || !SOURCE_KINDS.includes(kind) || eq === arg.length - 1) {
    throw new Error(`--source takes KIND=PATH with KIND one of ${SOURCE_KINDS.join(', ')} (got "${arg}")`);
  }
  return { kind, root: path.resolve(arg.slice(eq + 1)) };
}
