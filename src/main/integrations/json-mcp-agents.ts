// Where each agent that reads MCP servers from a JSON settings file keeps them, and in what shape —
// checked against the agents' own source or documentation:
//  - Gemini CLI: ~/.gemini/settings.json (home is $GEMINI_CLI_HOME when set; packages/core/src/utils/
//    paths.ts, config/storage.ts), read with comments allowed (strip-json-comments); `mcpServers.NAME`
//    = {command, args, env}; hooks under `hooks.<Event>` = [{matcher?, hooks: [{type: "command",
//    command, name, timeout (ms)}]}], BeforeAgent's `hookSpecificOutput.additionalContext` appended to
//    the prompt (docs/hooks/reference.md).
//  - OpenCode: $XDG_CONFIG_HOME/opencode/opencode.jsonc or opencode.json (JSON with comments);
//    `mcp.NAME` = {type: "local", command: [...], environment, enabled} (config/mcp.ts), or, in files
//    already using OpenCode 2's envelope, `mcp.servers.NAME` (config/v2-compat.ts).
//  - GitHub Copilot CLI: $COPILOT_HOME/mcp-config.json (default ~/.copilot); `mcpServers.NAME` =
//    {type: "local", command, args, env, tools: ["*"]}; env values are literal (since 0.0.340).
//  - Cursor (editor and `cursor-agent` CLI share it): ~/.cursor/mcp.json; `mcpServers.NAME` =
//    {command, args, env}.
//  - Factory Droid: ~/.factory/mcp.json; `mcpServers.NAME` = {type: "stdio", command, args, env,
//    disabled}.
import fs from 'node:fs';
import path from 'node:path';
import { home, shellQuote, type JsonObject } from './files.js';
import type { JsonMcpAgent } from './json-mcp-install.js';

const GEMINI_HOOK = /throughline(\.mjs)?'?\s+hook\s+gemini\b/;

export const GEMINI: JsonMcpAgent = {
  id: 'gemini',
  agent: 'Gemini CLI',
  file: (env) => path.join(env.GEMINI_CLI_HOME || home(env), '.gemini', 'settings.json'),
  serversPath: () => ['mcpServers'],
  entry: (cmd, env) => ({ command: cmd.command, args: [...cmd.args, 'mcp'], env }),
  hook: {
    event: ['hooks', 'BeforeAgent'],
    group: (cmd) => ({
      hooks: [{ type: 'command', name: 'throughline', command: [cmd.command, ...cmd.args, 'hook', 'gemini'].map(shellQuote).join(' '), timeout: 5000 }],
    }),
    isOurs: (group) => {
      const hooks = (group as { hooks?: unknown } | null)?.hooks;
      return Array.isArray(hooks) && hooks.some((h) => typeof (h as { command?: unknown })?.command === 'string' && GEMINI_HOOK.test((h as { command: string }).command));
    },
  },
  restart: 'Restart Gemini CLI to load the MCP server and the BeforeAgent hook (`/mcp` and `/hooks` list them). It starts stdio MCP servers only in trusted folders (`gemini trust`).',
};

function openCodeDir(env: NodeJS.ProcessEnv): string {
  return path.join(env.XDG_CONFIG_HOME || path.join(home(env), '.config'), 'opencode');
}

export const OPENCODE: JsonMcpAgent = {
  id: 'opencode',
  agent: 'OpenCode',
  // The file OpenCode reads there: opencode.jsonc first, then opencode.json (created when neither exists).
  file: (env) => {
    const dir = openCodeDir(env);
    const jsonc = path.join(dir, 'opencode.jsonc');
    return fs.existsSync(jsonc) ? jsonc : path.join(dir, 'opencode.json');
  },
  serversPath: (config) => {
    const servers = (config.mcp as JsonObject | undefined)?.servers;
    // OpenCode 2's envelope: `mcp.servers.NAME`, unless "servers" is itself a server (it has a type).
    return typeof servers === 'object' && servers !== null && !('type' in servers) ? ['mcp', 'servers'] : ['mcp'];
  },
  entry: (cmd, env, servers) => {
    const base = { type: 'local', command: [cmd.command, ...cmd.args, 'mcp'], environment: env };
    // OpenCode 2 switches a server off with `disabled`; OpenCode 1 with `enabled: false`.
    return servers.length === 2 ? base : { ...base, enabled: true };
  },
  restart: 'Restart OpenCode to load the MCP server (`opencode mcp list` shows it).',
};

export const COPILOT: JsonMcpAgent = {
  id: 'copilot',
  agent: 'GitHub Copilot CLI',
  file: (env) => path.join(env.COPILOT_HOME || path.join(home(env), '.copilot'), 'mcp-config.json'),
  serversPath: () => ['mcpServers'],
  entry: (cmd, env) => ({ type: 'local', command: cmd.command, args: [...cmd.args, 'mcp'], env, tools: ['*'] }),
  restart: 'Restart Copilot CLI to load the MCP server (`/mcp show` lists it).',
};

export const CURSOR: JsonMcpAgent = {
  id: 'cursor',
  agent: 'Cursor',
  file: (env) => path.join(home(env), '.cursor', 'mcp.json'),
  serversPath: () => ['mcpServers'],
  entry: (cmd, env) => ({ command: cmd.command, args: [...cmd.args, 'mcp'], env }),
  restart: 'Reload Cursor (and restart `cursor-agent`) to load the MCP server; it may need enabling under Settings → MCP (`cursor-agent mcp list` shows it).',
};

export const DROID: JsonMcpAgent = {
  id: 'droid',
  agent: 'Factory Droid',
  file: (env) => path.join(home(env), '.factory', 'mcp.json'),
  serversPath: () => ['mcpServers'],
  entry: (cmd, env) => ({ type: 'stdio', command: cmd.command, args: [...cmd.args, 'mcp'], env, disabled: false }),
  restart: 'Restart droid to load the MCP server (`/mcp` lists it).',
};

export const JSON_MCP_AGENTS = [GEMINI, OPENCODE, COPILOT, CURSOR, DROID] as const;
