// Claude Code adapter. Claude writes one JSONL file per session under
// `~/.claude/projects/<encoded-cwd>/<sessionId>.jsonl`, and sub-agent (Task tool) transcripts either
// beside it as `agent-<id>.jsonl` (older versions) or under `<sessionId>/subagents/agent-<id>.jsonl`
// with an `agent-<id>.meta.json` describing the agent. Line handling is in claude-code-parser.ts.
import path from 'node:path';
import type { LineAdapter, LineParser } from '../types.js';
import { agentTypeFromMeta, fileInfo } from './claude-code-content.js';
import { ClaudeParser } from './claude-code-parser.js';
import { readRegularFile } from '../regular-file.js';

export const claudeCodeAdapter: LineAdapter = {
  kind: 'claude-code',

  defaultRoots(env: NodeJS.ProcessEnv, home: string): string[] {
    const configDir = env.CLAUDE_CONFIG_DIR?.trim();
    return [configDir ? path.join(configDir, 'projects') : path.join(home, '.claude', 'projects')];
  },

  isSessionFile(file: string): boolean {
    return file.endsWith('.jsonl');
  },

  createParser(file: string, state: unknown): LineParser {
    const info = fileInfo(file);
    return new ClaudeParser(info, info.agentId !== undefined ? readAgentType(file) : undefined, state);
  },
};

/** The sub-agent's type from `agent-<id>.meta.json` beside its transcript; absent is normal. */
function readAgentType(file: string): string | undefined {
  const meta = readRegularFile(file.replace(/\.jsonl$/, '.meta.json'));
  try {
    return meta === undefined ? undefined : agentTypeFromMeta(meta);
  } catch {
    return undefined;
  }
}
