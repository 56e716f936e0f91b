// One real fixture per agent Throughline reads (besides its own import format), as a source root:
// a folder in the agent's layout, or a file (a file given as a root is read whatever its name).
import type { SourceKind } from '../../src/shared/types.js';

export const AGENT_FIXTURES: Record<Exclude<SourceKind, 'jsonl'>, string> = {
  pi: 'pi',
  'claude-code': 'claude-code',
  codex: 'codex',
  gemini: 'gemini/agent-sessions-jsonl_v040.jsonl',
  opencode: 'opencode/storage',
  copilot: 'copilot/session-state/aaaabbbb-1111-2222-3333-ccccddddeeee/events.jsonl',
  cursor: 'cursor/agent-sessions-test-session.jsonl',
  droid: 'droid',
  aider: 'aider/aider-hello-world-flask-2023-05-12.md',
};
