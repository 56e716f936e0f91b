// install / uninstall for the agents that read MCP servers from a JSON settings file — Gemini CLI,
// OpenCode, GitHub Copilot CLI, Cursor, Factory Droid — on settings files shaped like the agents' own
// documented examples (comments, trailing commas, other servers and hooks the person set up). Each
// install adds exactly our entry (and Gemini's BeforeAgent hook), keeps every other byte, is
// idempotent and backed up; uninstall gives back the very file; and what was installed runs.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { pinnedEnv } from '../../src/main/integrations/files.js';
import { COPILOT, CURSOR, DROID, GEMINI, OPENCODE } from '../../src/main/integrations/json-mcp-agents.js';
import { installJsonMcp, jsonMcpState, uninstallJsonMcp, type JsonMcpAgent } from '../../src/main/integrations/json-mcp-install.js';
import { parseJsonc } from '../../src/main/integrations/jsonc-edit.js';
import { BIN, buildIndex, runNode, SHARED_TERM, tempDir, type TestIndex, WS_A } from '../server/helpers.js';

const CMD = { command: process.execPath, args: [BIN] };
const backups = (dir: string) => fs.readdirSync(dir).filter((f) => f.includes('.throughline-backup-'));

const GEMINI_SETTINGS = `{
  // Gemini CLI: user settings
  "general": {
    "vimMode": true,
    "preferredEditor": "code"
  },
  "ui": { "theme": "GitHub" },
  "mcpServers": {
    "github": {
      "command": "docker",
      "args": ["run", "-i", "--rm", "-e", "GITHUB_PERSONAL_ACCESS_TOKEN", "ghcr.io/github/github-mcp-server"],
      "env": { "GITHUB_PERSONAL_ACCESS_TOKEN": "$GITHUB_TOKEN" },
      "trust": false
    }
  },
  "hooks": {
    "BeforeTool": [
      {
        "matcher": "write_file|replace",
        "hooks": [
          { "name": "security-check", "type": "command", "command": "$GEMINI_PROJECT_DIR/.gemini/hooks/security.sh", "timeout": 5000 }
        ]
      }
    ]
  }
}
`;

const OPENCODE_JSONC = `{
  "$schema": "https://opencode.ai/config.json",
  // the model I use most
  "model": "anthropic/claude-sonnet-4-5",
  "mcp": {
    "my-local-mcp-server": {
      "type": "local",
      "command": ["bun", "x", "my-mcp-command"],
      "enabled": true,
      "environment": { "MY_ENV_VAR": "my_env_var_value" },
    },
  },
}
`;

const OPENCODE_V2 = `{
  "$schema": "https://opencode.ai/config.json",
  "mcp": {
    "servers": {
      "my-server": {
        "type": "local",
        "command": ["npx", "-y", "example-mcp-server"],
      },
    },
  },
}
`;

const COPILOT_CONFIG = `{
  "mcpServers": {
    "playwright": {
      "type": "local",
      "command": "npx",
      "args": ["@playwright/mcp@latest"],
      "env": {},
      "tools": ["*"]
    }
  }
}
`;

const CURSOR_MCP = `{
  "mcpServers": {
    "server-name": {
      "command": "npx",
      "args": ["-y", "mcp-server"],
      "env": {
        "API_KEY": "value"
      }
    }
  }
}
`;

const DROID_MCP = `{
  "mcpServers": {
    "playwright": { "type": "stdio", "command": "npx", "args": ["-y", "@playwright/mcp@latest"], "disabled": false }
  }
}
`;

interface Case {
  spec: JsonMcpAgent;
  original: string;
  /** Where the file goes, below a fresh home (with the env the agent reads it from). */
  place(home: string): { env: NodeJS.ProcessEnv; file: string };
  /** Our entry's path in the file, and the servers the person had. */
  ours: string[];
  theirs: string[];
}

const cases: Case[] = [
  {
    spec: GEMINI,
    original: GEMINI_SETTINGS,
    place: (home) => ({ env: { HOME: home }, file: path.join(home, '.gemini', 'settings.json') }),
    ours: ['mcpServers', 'throughline'],
    theirs: ['mcpServers', 'github'],
  },
  {
    spec: OPENCODE,
    original: OPENCODE_JSONC,
    place: (home) => ({ env: { HOME: home, XDG_CONFIG_HOME: path.join(home, 'cfg') }, file: path.join(home, 'cfg', 'opencode', 'opencode.jsonc') }),
    ours: ['mcp', 'throughline'],
    theirs: ['mcp', 'my-local-mcp-server'],
  },
  {
    spec: OPENCODE,
    original: OPENCODE_V2,
    place: (home) => ({ env: { HOME: home, XDG_CONFIG_HOME: path.join(home, 'cfg') }, file: path.join(home, 'cfg', 'opencode', 'opencode.json') }),
    ours: ['mcp', 'servers', 'throughline'],
    theirs: ['mcp', 'servers', 'my-server'],
  },
  {
    spec: COPILOT,
    original: COPILOT_CONFIG,
    place: (home) => ({ env: { HOME: home, COPILOT_HOME: path.join(home, 'copilot') }, file: path.join(home, 'copilot', 'mcp-config.json') }),
    ours: ['mcpServers', 'throughline'],
    theirs: ['mcpServers', 'playwright'],
  },
  {
    spec: CURSOR,
    original: CURSOR_MCP,
    place: (home) => ({ env: { HOME: home }, file: path.join(home, '.cursor', 'mcp.json') }),
    ours: ['mcpServers', 'throughline'],
    theirs: ['mcpServers', 'server-name'],
  },
  {
    spec: DROID,
    original: DROID_MCP,
    place: (home) => ({ env: { HOME: home }, file: path.join(home, '.factory', 'mcp.json') }),
    ours: ['mcpServers', 'throughline'],
    theirs: ['mcpServers', 'playwright'],
  },
];

const at = (v: unknown, p: string[]): unknown => p.reduce<unknown>((o, k) => (o as Record<string, unknown> | undefined)?.[k], v);

function setUp(c: Case) {
  const home = tempDir('tl-agent-');
  const { env, file } = c.place(home);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, c.original);
  return { home, file, env: { ...env, XDG_RUNTIME_DIR: path.join(home, 'run'), XDG_DATA_HOME: path.join(home, 'data') } as NodeJS.ProcessEnv };
}

describe.each(cases)('install $spec.id', (c) => {
  it('adds our MCP server beside the person’s, keeping their comments and layout; idempotent; uninstall gives the file back', () => {
    const { file, env } = setUp(c);
    expect(jsonMcpState(c.spec, env).state).toBe('absent');
    const report = installJsonMcp(c.spec, { env, command: CMD });
    expect(report.changed).toEqual([file]);
    expect(backups(path.dirname(file))).toHaveLength(1);
    const text = fs.readFileSync(file, 'utf8');
    const config = parseJsonc(text);
    const entry = at(config, c.ours) as Record<string, unknown>;
    const words = JSON.stringify(entry);
    expect(words).toContain(BIN);
    expect(words).toContain('"mcp"');
    expect(JSON.stringify(entry)).toContain(JSON.stringify(pinnedEnv(env)).slice(1, -1));
    expect(at(config, c.theirs)).toEqual(at(parseJsonc(c.original), c.theirs));
    // Every comment of theirs is still there.
    for (const comment of c.original.match(/\/\/[^\n]*/g) ?? []) expect(text).toContain(comment);
    expect(jsonMcpState(c.spec, env).state).toBe('installed');

    expect(installJsonMcp(c.spec, { env, command: CMD }).changed).toEqual([]);
    expect(fs.readFileSync(file, 'utf8')).toBe(text);

    uninstallJsonMcp(c.spec, { env });
    expect(fs.readFileSync(file, 'utf8')).toBe(c.original);
    expect(jsonMcpState(c.spec, env).state).toBe('absent');
  });

  it('--dry-run changes nothing; a file that does not parse is refused untouched', () => {
    const { file, env } = setUp(c);
    const dry = installJsonMcp(c.spec, { env, command: CMD, dryRun: true });
    expect(dry.changed).toEqual([file]);
    expect(dry.diffs[0]!.diff).toMatch(/^\+ .*"throughline"/m);
    expect(fs.readFileSync(file, 'utf8')).toBe(c.original);
    fs.writeFileSync(file, '{ "mcpServers": ');
    expect(() => installJsonMcp(c.spec, { env, command: CMD })).toThrow(/is not valid JSON .*Nothing was changed/);
    expect(fs.readFileSync(file, 'utf8')).toBe('{ "mcpServers": ');
  });
});

describe('what the installs put there runs', () => {
  let index: TestIndex;
  beforeAll(async () => {
    index = await buildIndex();
  }, 30_000);

  it('Gemini CLI: the BeforeAgent hook, run as Gemini runs it (a shell command), offers the block', () => {
    const { file, env } = setUp(cases[0]!);
    const installEnv = { ...env, THROUGHLINE_DB: index.dbPath, THROUGHLINE_SETTINGS: index.settingsPath, THROUGHLINE_SOCKET: path.join(index.dir, 'none.sock') };
    installJsonMcp(GEMINI, { env: installEnv, command: CMD });
    const settings = parseJsonc(fs.readFileSync(file, 'utf8')) as { hooks: { BeforeAgent: { hooks: { command: string; timeout: number }[] }[]; BeforeTool: unknown[] } };
    expect(settings.hooks.BeforeTool).toHaveLength(1);
    const [hook] = settings.hooks.BeforeAgent.flatMap((g) => g.hooks);
    expect(hook!.timeout).toBe(5000);
    const input = JSON.stringify({ session_id: 'gem-9', transcript_path: path.join(index.dir, 'no.jsonl'), cwd: WS_A, hook_event_name: 'BeforeAgent', timestamp: new Date().toISOString(), prompt: `plan the ${SHARED_TERM} steps` });
    // Gemini passes its own environment to hooks; the index and settings are found from it.
    const r = spawnSync('/bin/sh', ['-c', hook!.command], { input, encoding: 'utf8', env: { ...process.env, ...installEnv, XDG_STATE_HOME: index.dir }, timeout: 30_000 });
    expect(r.status).toBe(0);
    const out = JSON.parse(r.stdout) as { hookSpecificOutput: { hookEventName: string; additionalContext: string } };
    expect(out.hookSpecificOutput.hookEventName).toBe('BeforeAgent');
    expect(out.hookSpecificOutput.additionalContext).toContain('<recalled-conversations>');
  }, 30_000);

  it('OpenCode: the MCP server from its command array and environment serves the tools, with the pinned index', async () => {
    const { file, env } = setUp(cases[1]!);
    installJsonMcp(OPENCODE, { env: { ...env, THROUGHLINE_DB: index.dbPath, THROUGHLINE_SETTINGS: index.settingsPath }, command: CMD });
    const entry = (parseJsonc(fs.readFileSync(file, 'utf8')) as { mcp: { throughline: { command: string[]; environment: Record<string, string> } } }).mcp.throughline;
    const [command, ...args] = entry.command;
    const transport = new StdioClientTransport({ command: command!, args, env: { PATH: process.env.PATH!, HOME: env.HOME!, ...entry.environment }, stderr: 'pipe' });
    const client = new Client({ name: 'opencode', version: '1' });
    await client.connect(transport);
    try {
      expect((await client.listTools()).tools).toHaveLength(6);
      const r = (await client.callTool({ name: 'recall_conversations', arguments: { query: SHARED_TERM, workspace: 'all' } })) as { content: { text: string }[] };
      expect(r.content[0]!.text).toContain('migration plan');
    } finally {
      await client.close();
    }
  }, 30_000);

  it('the CLI installs each by name, and lists them', async () => {
    const home = tempDir('tl-agent-');
    const env = { ...process.env, HOME: home, XDG_DATA_HOME: path.join(home, 'data'), XDG_CONFIG_HOME: path.join(home, 'cfg'), COPILOT_HOME: '', GEMINI_CLI_HOME: '' };
    for (const id of ['gemini', 'opencode', 'copilot', 'cursor', 'droid']) {
      const r = await runNode([BIN, 'install', id, '--json'], { env });
      expect(r.code, `${id}: ${r.stderr}`).toBe(0);
    }
    expect(fs.existsSync(path.join(home, '.gemini', 'settings.json'))).toBe(true);
    expect(fs.existsSync(path.join(home, 'cfg', 'opencode', 'opencode.json'))).toBe(true);
    expect(fs.existsSync(path.join(home, '.copilot', 'mcp-config.json'))).toBe(true);
    expect(fs.existsSync(path.join(home, '.cursor', 'mcp.json'))).toBe(true);
    expect(fs.existsSync(path.join(home, '.factory', 'mcp.json'))).toBe(true);
    const bad = await runNode([BIN, 'install', 'emacs'], { env });
    expect(bad.stderr).toMatch(/claude, codex, pi, gemini, opencode, copilot, cursor, droid/);
  }, 60_000);
});
