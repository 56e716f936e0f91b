// `throughline mcp` over one long session, as an agent keeps it: it answers broken input with
// JSON-RPC errors (and keeps going), goes back to the daemon as soon as one answers after it fell
// back to the index, and its tools carry MCP annotations.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDaemon, type Daemon } from '../../src/main/daemon/daemon.js';
import { BIN, buildIndex, runNode, SHARED_TERM, tempDir, type TestIndex } from '../server/helpers.js';

let index: TestIndex;
beforeAll(async () => {
  index = await buildIndex();
}, 30_000);

const textOf = (r: unknown): string => ((r as CallToolResult).content[0] as { text: string }).text;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const INIT = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'sh', version: '1' } } };

describe('throughline mcp, fed broken input', () => {
  it('answers each bad line with a JSON-RPC error and still serves the next request', async () => {
    const deep = '['.repeat(10_000) + ']'.repeat(10_000);
    const lines = [
      JSON.stringify(INIT),
      '{"jsonrpc":"2.0","id":2,"method":"tools/list"', // cut off
      '{"jsonrpc":"2.0","id":7}',
      `{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"recall_conversations","arguments":{"query":${deep}}}}`,
      '[{"jsonrpc":"2.0","id":9,"method":"tools/list"}]',
      JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
      JSON.stringify({ jsonrpc: '2.0', id: 10, method: 'tools/list' }),
    ];
    const r = await runNode([BIN, 'mcp', '--db', index.dbPath, '--socket', path.join(index.dir, 'none.sock')], {
      input: lines.join('\n') + '\n',
      env: { ...process.env, THROUGHLINE_SETTINGS: index.settingsPath },
    });
    const answers = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { id: number | null; error?: { code: number; message: string }; result?: { tools?: unknown[] } });
    const byId = (id: number | null) => answers.filter((a) => a.id === id);
    expect(byId(1)[0]!.result).toBeDefined();
    // Unparseable: -32700 with id null; a batch: -32600 with id null.
    expect(byId(null).map((a) => a.error!.code).sort()).toEqual([-32700, -32600].sort());
    // No method and no result: -32600, echoing the id.
    expect(byId(7)[0]!.error!.code).toBe(-32600);
    // Nested 10,000 deep: refused with -32600 before anything walks it.
    expect(byId(8)[0]!.error).toMatchObject({ code: -32600, message: expect.stringMatching(/nested deeper than 64/) });
    // And the session goes on.
    expect(byId(10)[0]!.result!.tools).toHaveLength(6);
  }, 30_000);
});

describe('throughline mcp across daemon restarts', () => {
  let client: Client;
  let daemon: Daemon | null = null;
  const socketPath = path.join(tempDir(), 'agent.sock');
  const start = async () => (daemon = await startDaemon({ dbPath: index.dbPath, settingsPath: index.settingsPath, socketPath, log: false, watch: false }));
  const stop = async () => {
    await daemon?.close();
    daemon = null;
  };
  /** recall_conversations calls that reached a daemon (the activity log is kept in the index across restarts). */
  const viaDaemon = async () => (await daemon!.core.api.activity({ limit: 50 })).items.filter((i) => i.client === 'mcp' && i.method === 'recall_conversations').length;

  beforeAll(async () => {
    // Started before any daemon: it answers from the index alone at first.
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [BIN, 'mcp', '--db', index.dbPath, '--socket', socketPath],
      env: { ...(process.env as Record<string, string>), THROUGHLINE_SETTINGS: index.settingsPath, THROUGHLINE_CONVERSATION: 'conv-alpha' },
      stderr: 'pipe',
    });
    client = new Client({ name: 'throughline-test', version: '1.0.0' });
    await client.connect(transport);
  }, 30_000);
  afterAll(async () => {
    await client?.close();
    await stop();
  });

  const recall = async () => textOf(await client.callTool({ name: 'recall_conversations', arguments: { query: SHARED_TERM, workspace: 'all' } }));
  const handoff = async () => (await client.callTool({ name: 'history_handoff', arguments: { text: 'Continue with the backfill.' } })) as CallToolResult;

  it('uses the index while no daemon runs; a handoff then says it needs the daemon', async () => {
    expect(await recall()).toContain('rollout plan');
    const h = await handoff();
    expect(h.isError).toBe(true);
    expect(textOf(h)).toMatch(/history_handoff needs `throughline serve`/);
    expect(textOf(h)).not.toMatch(/readonly database|SQLITE/i);
  }, 30_000);

  it('goes to the daemon once one answers, back to the index when it stops, and to the daemon again after a restart', async () => {
    await start();
    await sleep(1100); // it tries the socket again at most once a second
    expect(await recall()).toContain('rollout plan');
    expect(await viaDaemon()).toBe(1);
    expect(textOf(await handoff())).toMatch(/Handoff written to conversation \d+/);

    await stop();
    expect(await recall()).toContain('rollout plan'); // from the index, without an error

    await start();
    await sleep(1100);
    expect(await recall()).toContain('rollout plan');
    expect(await viaDaemon()).toBe(2);
  }, 60_000);
});

describe('throughline mcp tool annotations', () => {
  it('marks every tool read-only except history_handoff, each with a title', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [BIN, 'mcp', '--db', index.dbPath, '--socket', path.join(index.dir, 'none.sock')],
      env: { ...(process.env as Record<string, string>), THROUGHLINE_SETTINGS: index.settingsPath },
      stderr: 'pipe',
    });
    const client = new Client({ name: 'throughline-test', version: '1.0.0' });
    await client.connect(transport);
    try {
      const { tools } = await client.listTools();
      for (const t of tools) {
        expect(t.annotations?.title, t.name).toBeTruthy();
        expect(t.annotations?.readOnlyHint, t.name).toBe(t.name !== 'history_handoff');
        expect(t.annotations?.openWorldHint, t.name).toBe(false);
      }
      expect(tools.find((t) => t.name === 'history_handoff')!.annotations!.destructiveHint).toBe(false);
    } finally {
      await client.close();
    }
  }, 30_000);
});
