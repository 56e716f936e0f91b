// Real calls of Throughline's agent tools, made as the agents make them, and session files that
// hold them: Claude Code's JSONL with mcp__throughline__* tool_use/tool_result blocks whose results
// are what the real MCP server answered (over the running daemon's socket), and a pi session written
// by pi's own SessionManager with the bare tool names and the socket's text, as pi's extension
// returns it. The transcript's tool cards are tested on these (test/recall/tool-cards.test.ts,
// test/e2e/tool-cards.test.ts).
import fs from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { SessionManager } from '@mariozechner/pi-coding-agent';
import { lazyBackend } from '../../src/main/mcp/backend.js';
import { createMcpServer } from '../../src/main/mcp/server.js';

export interface ToolCall {
  name: string;
  args: Record<string, unknown>;
}

export interface RealCall extends ToolCall {
  text: string;
  isError: boolean;
}

/** Calls each tool through Throughline's MCP server (in-process) over the daemon at `socketPath`, as `client`. */
export async function callOverMcp(socketPath: string, client: string, calls: readonly ToolCall[]): Promise<RealCall[]> {
  const backend = lazyBackend({ socketPath, client, socketOnly: true });
  const server = createMcpServer(backend, {});
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const mcp = new Client({ name: 'claude-code', version: '2.0.0' });
  await mcp.connect(clientSide);
  try {
    const out: RealCall[] = [];
    for (const c of calls) {
      const r = (await mcp.callTool({ name: c.name, arguments: c.args })) as CallToolResult;
      const text = r.content.map((b) => (b.type === 'text' ? b.text : '')).join('\n');
      out.push({ ...c, text, isError: r.isError === true });
    }
    return out;
  } finally {
    await mcp.close();
    await server.close();
    backend.close();
  }
}

type Line = Record<string, unknown>;

/**
 * A Claude Code session file: `prompt`, an assistant reply, then for each call an assistant tool_use
 * (mcp__throughline__NAME) and the user line carrying its tool_result. Returns the lines so a caller
 * can write the opening first (to be indexed before the history tools are called on it) and append.
 */
export function claudeLines(sessionId: string, cwd: string, start: number, opening: [string, string], calls: readonly RealCall[]): { opening: Line[]; calls: Line[] } {
  let n = 0;
  let parent: string | null = null;
  const line = (type: 'user' | 'assistant', content: unknown): Line => {
    const uuid = `${sessionId.slice(0, 8)}-0000-4000-8000-${String(++n).padStart(12, '0')}`;
    const l: Line = { type, uuid, parentUuid: parent, sessionId, cwd, version: '2.0.76', timestamp: new Date(start + n * 20_000).toISOString(), message: { role: type, content } };
    parent = uuid;
    return l;
  };
  const head = [line('user', opening[0]), line('assistant', [{ type: 'text', text: opening[1] }])];
  const rest: Line[] = [];
  calls.forEach((c, i) => {
    const id = `toolu_tl${i}`;
    rest.push(line('assistant', [{ type: 'tool_use', id, name: `mcp__throughline__${c.name}`, input: c.args }]));
    rest.push(line('user', [{ type: 'tool_result', tool_use_id: id, content: [{ type: 'text', text: c.text }], is_error: c.isError }]));
  });
  return { opening: head, calls: rest };
}

export function writeLines(file: string, lines: readonly Line[], append = false): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const text = lines.map((l) => JSON.stringify(l)).join('\n') + '\n';
  if (append) fs.appendFileSync(file, text);
  else fs.writeFileSync(file, text);
}

const USAGE = { input: 1, output: 1, cacheRead: 0, cacheWrite: 0, totalTokens: 2, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };

/** A pi session written by pi's SessionManager: a prompt, then each call as pi's extension makes it (bare names). */
export function writePiSession(cwd: string, dir: string, prompt: string, calls: readonly RealCall[]): string {
  const sm = SessionManager.create(cwd, dir);
  const at = Date.now();
  sm.appendMessage({ role: 'user', content: [{ type: 'text', text: prompt }], timestamp: at });
  calls.forEach((c, i) => {
    sm.appendMessage({
      role: 'assistant',
      content: [{ type: 'toolCall', id: `call-${i}`, name: c.name, arguments: c.args }],
      api: 'anthropic-messages', provider: 'anthropic', model: 'claude-sonnet-4-5', stopReason: 'toolUse', timestamp: at + i * 2 + 1, usage: USAGE,
    });
    sm.appendMessage({ role: 'toolResult', toolCallId: `call-${i}`, toolName: c.name, content: [{ type: 'text', text: c.text }], isError: c.isError, timestamp: at + i * 2 + 2 });
  });
  sm.appendMessage({
    role: 'assistant', content: [{ type: 'text', text: 'Found it in the earlier conversations.' }],
    api: 'anthropic-messages', provider: 'anthropic', model: 'claude-sonnet-4-5', stopReason: 'stop', timestamp: at + calls.length * 2 + 1, usage: USAGE,
  });
  return sm.getSessionFile()!;
}
