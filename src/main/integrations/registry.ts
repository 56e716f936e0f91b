// Every agent integration `throughline install` knows, in one list. The CLI (install/uninstall) and
// Settings → Extensions in the window both read it, so an installer added here shows up in both and
// both run the same code.
import { claudeState, installClaude, uninstallClaude } from './claude-install.js';
import { codexState, installCodex, uninstallCodex } from './codex-install.js';
import type { InstallReport, InstallState } from './files.js';
import { JSON_MCP_AGENTS } from './json-mcp-agents.js';
import { installJsonMcp, jsonMcpState, uninstallJsonMcp, type JsonMcpAgent } from './json-mcp-install.js';
import { installPi, piState, uninstallPi } from './pi-install.js';

/** An agent that reads MCP servers (and, Gemini CLI, a turn-start hook) from a JSON settings file. */
const fromSettingsFile = (spec: JsonMcpAgent): Integration => ({
  id: spec.id,
  agent: spec.agent,
  adds: spec.hook
    ? 'a hook that offers earlier conversations before a session’s first prompt, and the MCP server with the recall and history tools'
    : 'the MCP server with the recall and history tools',
  install: (env, o) => installJsonMcp(spec, { env, ...o }),
  uninstall: (env, o) => uninstallJsonMcp(spec, { env, ...o }),
  state: (env) => jsonMcpState(spec, env),
});

export interface Integration {
  /** The CLI's name for it: `throughline install <id>`. */
  id: string;
  /** The agent, as people call it. */
  agent: string;
  /** What install adds, in a few plain words. */
  adds: string;
  install(env: NodeJS.ProcessEnv, options?: { dryRun?: boolean }): InstallReport;
  uninstall(env: NodeJS.ProcessEnv, options?: { dryRun?: boolean }): InstallReport;
  /** What is installed now. Throws InstallError when a file it must read is unreadable. */
  state(env: NodeJS.ProcessEnv): InstallState;
}

export const INTEGRATIONS: readonly Integration[] = [
  {
    id: 'claude',
    agent: 'Claude Code',
    adds: 'a hook that offers earlier conversations on a session’s first prompt, and the MCP server with the history tools',
    install: (env, o) => installClaude({ env, ...o }),
    uninstall: (env, o) => uninstallClaude({ env, ...o }),
    state: (env) => claudeState(env),
  },
  {
    id: 'codex',
    agent: 'Codex',
    adds: 'a hook that offers earlier conversations before a session’s first prompt (trust it in Codex’s /hooks), and the MCP server with the recall and history tools',
    install: (env, o) => installCodex({ env, ...o }),
    uninstall: (env, o) => uninstallCodex({ env, ...o }),
    state: (env) => codexState(env),
  },
  {
    id: 'pi',
    agent: 'pi',
    adds: 'an extension that offers earlier conversations and adds the history tools',
    install: (env, o) => installPi({ env, ...o }),
    uninstall: (env, o) => uninstallPi({ env, ...o }),
    state: (env) => piState(env),
  },
  ...JSON_MCP_AGENTS.map(fromSettingsFile),
];

export function findIntegration(id: string): Integration | undefined {
  return INTEGRATIONS.find((i) => i.id === id);
}
