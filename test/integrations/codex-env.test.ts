// Codex starts MCP servers with only HOME, LOGNAME, PATH, SHELL, USER, LANG, LC_ALL, TERM, TMPDIR and
// TZ (codex-rs/rmcp-client/src/utils.rs, DEFAULT_ENV_VARS) plus the `env` of its config.toml table. This
// runs `throughline mcp` exactly so — the command and env that `throughline install codex` wrote, in a
// person's setup where the socket and the index live under XDG_RUNTIME_DIR and XDG_DATA_HOME — and
// checks it reaches the same daemon and index as the person's shell, knows its own Codex session, and
// says what is wrong when the daemon is not running.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'smol-toml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCore } from '../../src/main/api/core.js';
import { installCodex } from '../../src/main/integrations/codex-install.js';
import { defaultDbPath, defaultSettingsPath } from '../../src/main/paths-light.js';
import { startDaemon, type Daemon } from '../../src/main/daemon/daemon.js';
import { defaultSocketPath } from '../../src/main/paths-light.js';
import { buildIndex, FIXTURES, tempDir } from '../server/helpers.js';

const CODEX_DEFAULT_ENV_VARS = ['HOME', 'LOGNAME', 'PATH', 'SHELL', 'USER', 'LANG', 'LC_ALL', 'TERM', 'TMPDIR', 'TZ'];
const SESSION = '019b7f94-0000-7000-8000-00000000c0de';

const home = tempDir('tl-home-');
const project = tempDir('tl-proj-');
/** The person's shell: their runtime, data and config folders are not the defaults. */
const shell: NodeJS.ProcessEnv = {
  HOME: home,
  USER: process.env.USER ?? 'me',
  LOGNAME: process.env.LOGNAME ?? 'me',
  PATH: process.env.PATH,
  SHELL: '/bin/sh',
  LANG: 'C.UTF-8',
  TMPDIR: process.env.TMPDIR,
  XDG_RUNTIME_DIR: tempDir('tl-run-'),
  XDG_DATA_HOME: path.join(home, 'data'),
  XDG_CONFIG_HOME: path.join(home, 'conf'),
  XDG_STATE_HOME: path.join(home, 'state'),
};

let daemon: Daemon | null = null;
let server: { command: string; args: string[]; env: Record<string, string> };

beforeAll(async () => {
  const dbPath = defaultDbPath(shell);
  fs.mkdirSync(path.dirname(dbPath), { recursive: true });
  await buildIndex(path.dirname(dbPath));
  // This Codex session, started in `project`, is in Codex's sessions folder and in the index.
  const day = path.join(home, '.codex', 'sessions', '2026', '01', '02');
  fs.mkdirSync(day, { recursive: true });
  const fixture = fs.readFileSync(path.join(FIXTURES, 'codex', 'rollout-2026-01-02T18-39-45-019b7f94-51b4-7593-922e-ba12b5b73b52.jsonl'), 'utf8');
  const cwd = /"cwd":"([^"]+)"/.exec(fixture)![1]!;
  fs.writeFileSync(path.join(day, `rollout-2026-01-02T18-39-45-${SESSION}.jsonl`), fixture.replaceAll(cwd, project).replace('019b7f94-51b4-7593-922e-ba12b5b73b52', SESSION));
  const core = createCore({ dbPath, settingsPath: defaultSettingsPath(shell), sources: [{ kind: 'codex', root: path.join(home, '.codex', 'sessions') }] });
  await core.scan();
  core.close();

  installCodex({ env: shell });
  const config = parse(fs.readFileSync(path.join(home, '.codex', 'config.toml'), 'utf8')) as { mcp_servers: { throughline: typeof server } };
  server = config.mcp_servers.throughline;
}, 60_000);

afterAll(async () => {
  await daemon?.close();
});

const startDaemonAsTheShellWould = async () =>
  (daemon = await startDaemon({ dbPath: defaultDbPath(shell), settingsPath: defaultSettingsPath(shell), socketPath: defaultSocketPath(shell), env: shell, log: false, watch: false }));

/** Starts the MCP server the way Codex does, with only Codex's variables, and introduces itself as Codex. */
async function codexStarts(): Promise<Client> {
  const env: Record<string, string> = {};
  for (const k of CODEX_DEFAULT_ENV_VARS) if (shell[k] !== undefined) env[k] = shell[k]!;
  Object.assign(env, server.env);
  const transport = new StdioClientTransport({ command: server.command, args: server.args, env, cwd: project, stderr: 'pipe' });
  const client = new Client({ name: 'codex-mcp-client', version: '0.129.0' });
  await client.connect(transport);
  return client;
}

const textOf = (r: unknown): string => ((r as CallToolResult).content[0] as { text: string }).text;

describe('throughline mcp in Codex’s environment', () => {
  it('install codex pins the socket, index and settings this shell resolves, and starts Throughline through the launcher', () => {
    expect(server.env).toEqual({
      THROUGHLINE_SOCKET: path.join(shell.XDG_RUNTIME_DIR!, 'throughline', 'agent.sock'),
      THROUGHLINE_DB: path.join(home, 'data', 'throughline', 'index.sqlite'),
      THROUGHLINE_SETTINGS: path.join(home, 'conf', 'throughline', 'settings.json'),
    });
    expect(server.command).toBe(path.join(home, 'data', 'throughline', 'bin', 'throughline'));
    expect(server.args).toEqual(['mcp']);
  });

  it('reaches the person’s daemon: history_handoff works, and the history tools find their own Codex session', async () => {
    await startDaemonAsTheShellWould();
    const client = await codexStarts();
    try {
      const found = textOf(await client.callTool({ name: 'history_search', arguments: { query: 'purpuse', before: 10_000 } }));
      expect(found).toMatch(/purpuse/);
      const handoff = textOf(await client.callTool({ name: 'history_handoff', arguments: { text: 'Continue: summarize the goals next.' } }));
      expect(handoff).toMatch(/Handoff written to conversation \d+/);
      const { items } = await daemon!.core.api.activity({ limit: 10 });
      expect(items.find((i) => i.method === 'history_handoff')).toMatchObject({ client: 'mcp' });
      // The model may also name it, as $CODEX_THREAD_ID.
      expect(textOf(await client.callTool({ name: 'history_search', arguments: { conversation: SESSION, query: 'purpuse', before: 10_000 } }))).toMatch(/purpuse/);
    } finally {
      await client.close();
    }
  }, 60_000);

  it('recall_conversations leaves out the Codex session it runs in, and finds the others', async () => {
    if (!daemon) await startDaemonAsTheShellWould();
    const client = await codexStarts();
    try {
      const api = daemon!.core.api;
      const own = (await api['conversations.get']({ conversation_id: SESSION })).conversation.id;
      const twin = (await api['conversations.get']({ conversation_id: '019b7f94-51b4-7593-922e-ba12b5b73b52' })).conversation.id;
      const hits = textOf(await client.callTool({ name: 'recall_conversations', arguments: { query: 'purpuse' } }));
      expect(hits).toContain(`#/c/${twin}`);
      expect(hits).not.toContain(`#/c/${own}`);
    } finally {
      await client.close();
    }
  }, 60_000);

  it('without the daemon, reads the same index, and a handoff says it needs `throughline serve`', async () => {
    await daemon?.close();
    daemon = null;
    const client = await codexStarts();
    try {
      expect(textOf(await client.callTool({ name: 'history_search', arguments: { query: 'purpuse', before: 10_000 } }))).toMatch(/purpuse/);
      const handoff = (await client.callTool({ name: 'history_handoff', arguments: { text: 'Continue.' } })) as CallToolResult;
      expect(handoff.isError).toBe(true);
      expect(textOf(handoff)).toMatch(/history_handoff needs `throughline serve`/);
      expect(textOf(handoff)).not.toMatch(/readonly|SQLITE/i);
    } finally {
      await client.close();
    }
  }, 60_000);
});
