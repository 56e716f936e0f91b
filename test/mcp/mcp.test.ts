// `throughline mcp` through the MCP SDK's own client over stdio: with no daemon (it opens the index
// read-only itself) and with one (it goes through the socket, and the call shows in the activity log).
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDaemon, type Daemon } from '../../src/main/daemon/daemon.js';
import { BIN, buildIndex, runNode, SHARED_TERM, type TestIndex } from '../server/helpers.js';

let index: TestIndex;
let daemon: Daemon;
/** Started side by side: one with no daemon to talk to, one through the daemon's socket. */
let direct: Client;
let viaSocket: Client;
/** A client that writes its requests and closes stdin at once (a script, `printf … | throughline mcp`). */
let oneShot: { stdout: string };
const ONE_SHOT_INPUT = [
  { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'sh', version: '1' } } },
  { jsonrpc: '2.0', method: 'notifications/initialized' },
  { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'recall_conversations', arguments: { query: SHARED_TERM, workspace: 'all' } } },
]
  .map((m) => JSON.stringify(m) + '\n')
  .join('');

beforeAll(async () => {
  index = await buildIndex();
  daemon = await startDaemon({ dbPath: index.dbPath, settingsPath: index.settingsPath, socketPath: path.join(index.dir, 'agent.sock'), log: false, watch: false });
  [direct, viaSocket, oneShot] = await Promise.all([
    connect(path.join(index.dir, 'nobody-listens.sock'), { THROUGHLINE_CONVERSATION: 'conv-alpha' }),
    connect(daemon.socketPath),
    runNode([BIN, 'mcp', '--db', index.dbPath, '--socket', path.join(index.dir, 'nobody-listens.sock')], { input: ONE_SHOT_INPUT, env: { ...process.env, THROUGHLINE_SETTINGS: index.settingsPath } }),
  ]);
}, 60_000);
afterAll(async () => {
  await direct?.close();
  await viaSocket?.close();
  await daemon?.close();
});

async function connect(socketPath: string, env: Record<string, string> = {}): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, 'mcp', '--db', index.dbPath, '--socket', socketPath],
    env: { ...(process.env as Record<string, string>), THROUGHLINE_SETTINGS: index.settingsPath, ...env },
    stderr: 'pipe',
  });
  const client = new Client({ name: 'throughline-test', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

const textOf = (r: unknown): string => ((r as CallToolResult).content[0] as { text: string }).text;

describe('throughline mcp without a daemon (index opened read-only)', () => {
  const client = { callTool: (...a: Parameters<Client['callTool']>) => direct.callTool(...a), listTools: () => direct.listTools(), getInstructions: () => direct.getInstructions() };

  it('lists the six tools with descriptions that say when to use them and when not', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(
      ['conversation_inspect', 'history_handoff', 'history_read', 'history_search', 'read_conversation', 'recall_conversations'].sort(),
    );
    const recall = tools.find((t) => t.name === 'recall_conversations')!;
    expect(recall.description).toMatch(/like last time/);
    expect(recall.description).toMatch(/Do not call it speculatively/);
    expect(tools.find((t) => t.name === 'history_search')!.description).toMatch(/compaction[\s\S]*Do not guess from the summary/);
    expect(recall.inputSchema.required).toEqual(['query']);
    expect(client.getInstructions()).toMatch(/no fishing/);
  });

  it('says what `workspace` really defaults to: every workspace', async () => {
    const { tools } = await client.listTools();
    const ws = (tools.find((t) => t.name === 'recall_conversations')!.inputSchema.properties as Record<string, { description: string }>).workspace!;
    expect(ws.description).toMatch(/"all" \(the default: every workspace\)/);
    // Without workspace, both workspaces' conversations are found (by a client with no own conversation to leave out).
    const hits = textOf(await viaSocket.callTool({ name: 'recall_conversations', arguments: { query: SHARED_TERM } }));
    expect(hits).toContain('migration plan');
    expect(hits).toContain('rollout plan');
  });

  it('recalls, reads and inspects, answering with the rendered text', async () => {
    const hits = textOf(await client.callTool({ name: 'recall_conversations', arguments: { query: SHARED_TERM, workspace: 'all' } }));
    // This server runs for conv-alpha (THROUGHLINE_CONVERSATION): its own conversation is never a hit.
    expect(hits).toContain('rollout plan');
    expect(hits).not.toContain('migration plan');
    const named = textOf(await client.callTool({ name: 'recall_conversations', arguments: { query: SHARED_TERM, workspace: 'all', conversation: 'conv-beta' } }));
    expect(named).toContain('migration plan');
    expect(named).not.toContain('rollout plan');
    const read = textOf(await client.callTool({ name: 'read_conversation', arguments: { conversation_id: index.a } }));
    expect(read).toContain('three steps');
    const inspect = textOf(await client.callTool({ name: 'conversation_inspect', arguments: { conversation_id: 'conv-beta', query: 'port' } }));
    expect(inspect).toContain('4711');
  });

  it('searches and reads the own conversation, defaulting it from THROUGHLINE_CONVERSATION', async () => {
    const found = textOf(await client.callTool({ name: 'history_search', arguments: { query: 'secret', before: 100 } }));
    expect(found).toMatch(/Secret detail/i);
    const items = textOf(await client.callTool({ name: 'history_read', arguments: { mode: 'items', entries: [2] } }));
    expect(items).toContain('4911');
  });

  it('answers every request before exiting when stdin closes right after them', () => {
    const lines = oneShot.stdout.trim().split('\n').map((l) => JSON.parse(l) as { id: number; result: { content?: { text: string }[] } });
    expect(lines.map((l) => l.id)).toEqual([1, 2]);
    expect(lines[1]!.result.content![0]!.text).toContain('migration plan');
  });

  it('reports bad input and unknown conversations as tool errors the model can read', async () => {
    const missing = (await client.callTool({ name: 'read_conversation', arguments: { conversation_id: 'no-such-session' } })) as CallToolResult;
    expect(missing.isError).toBe(true);
    expect(textOf(missing)).toMatch(/No conversation/);
    const noEntries = (await client.callTool({ name: 'history_read', arguments: { mode: 'items' } })) as CallToolResult;
    expect(noEntries.isError).toBe(true);
    expect(textOf(noEntries)).toMatch(/needs "entries"/);
    // Read-only: a handoff cannot be written without the daemon.
    const handoff = (await client.callTool({ name: 'history_handoff', arguments: { text: 'continue with step two' } })) as CallToolResult;
    expect(handoff.isError).toBe(true);
  });
});

describe('throughline mcp with a daemon running', () => {
  it('goes through the socket: the call is in the activity log as "mcp", and handoffs are written', async () => {
    const client = viaSocket;
    const hits = textOf(await client.callTool({ name: 'recall_conversations', arguments: { query: SHARED_TERM, workspace: 'all' } }));
    expect(hits).toContain('rollout plan');
    const handoff = textOf(await client.callTool({ name: 'history_handoff', arguments: { conversation: 'conv-alpha', text: 'Continue: backfill is done, switch next.' } }));
    expect(handoff).toMatch(/^Handoff written to conversation \d+ \(after entry #\d+, the last one indexed so far\)\.\nYour context was not reset/);
    // The entry named is the last one before the handoff, not the next one (issue 17: "after entry 11" when the last was 10).
    const conv = await daemon.core.api['conversations.get']({ conversation_id: 'conv-alpha' });
    const after = Number(/after entry #(\d+)/.exec(handoff)![1]);
    const { entries } = await daemon.core.api['conversations.entries']({ conversation_id: conv.conversation.id, before: 1_000_000, limit: 1 });
    expect(after).toBe(entries.at(-1)!.seq);
    const { items } = await daemon.core.api.activity({ limit: 5 });
    expect(items.map((i) => [i.client, i.method])).toContainEqual(['mcp', 'recall_conversations']);
    expect(items.map((i) => [i.client, i.method])).toContainEqual(['mcp', 'history_handoff']);
  });
});
