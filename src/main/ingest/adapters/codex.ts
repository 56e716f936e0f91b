// Codex CLI adapter. Codex writes one rollout file per session under
// `~/.codex/sessions/YYYY/MM/DD/rollout-<timestamp>-<sessionId>.jsonl`. Line handling is in
// codex-parser.ts.
import path from 'node:path';
import type { LineAdapter, LineParser } from '../types.js';
import { CodexParser } from './codex-parser.js';
import { baseName } from './text.js';

export const codexAdapter: LineAdapter = {
  kind: 'codex',

  defaultRoots(env: NodeJS.ProcessEnv, home: string): string[] {
    const codexHome = env.CODEX_HOME?.trim();
    return [codexHome ? path.join(codexHome, 'sessions') : path.join(home, '.codex', 'sessions')];
  },

  isSessionFile(file: string): boolean {
    const name = baseName(file);
    return name.startsWith('rollout-') && name.endsWith('.jsonl');
  },

  createParser(file: string, state: unknown): LineParser {
    return new CodexParser(file, state);
  },
};
