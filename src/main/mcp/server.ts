// `throughline mcp`: the agent tools over MCP (stdio) for any MCP client — Claude Code, Codex, Cursor.
// It talks to the running daemon's socket, or opens the index read-only itself when none runs.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { HistoryReadParams } from '../../shared/api.js';
import { latestCodexSession } from '../integrations/codex-session.js';
import { lazyBackend, type Backend, type BackendOptions } from './backend.js';
import { LineStdioTransport } from './stdio-transport.js';
import { SERVER_INSTRUCTIONS, TOOLS } from './tools.js';

export const MCP_VERSION = '0.1.0';

const text = (t: string): CallToolResult => ({ content: [{ type: 'text', text: t }] });
const failure = (t: string): CallToolResult => ({ content: [{ type: 'text', text: t }], isError: true });

/** Calls still being answered: when stdin ends (a client that sent its last request and closed), they finish first. */
const inflight = new Set<Promise<CallToolResult>>();

/** Turns any failure into a tool error the model can read and act on, never a protocol error. */
function run(fn: () => Promise<string>): Promise<CallToolResult> {
  const p = fn().then(text, (err: Error) => failure(`Throughline: ${err.message}`));
  inflight.add(p);
  void p.finally(() => inflight.delete(p));
  return p;
}

export interface McpOptions extends Omit<BackendOptions, 'client'> {
  client?: string;
  /** The folder the agent runs in (default the process's): where its Codex session is looked for. */
  cwd?: string;
}

/** Codex names its MCP client "codex-mcp-client" (older builds and the IDE extension: "codex…"). */
const isCodex = (clientName: string | undefined): boolean => /^codex/i.test(clientName ?? '');

/** Builds the MCP server over a backend (exported for in-process use; `serveMcp` runs it on stdio). */
export function createMcpServer(backend: Backend, env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): McpServer {
  const server = new McpServer({ name: 'throughline', version: MCP_VERSION }, { instructions: SERVER_INSTRUCTIONS });

  /** The caller's own conversation: named in the call, else $THROUGHLINE_CONVERSATION, else (Codex) its newest session here. */
  const ownOrNull = (given: string | undefined): string | null => {
    if (given) return given;
    if (env.THROUGHLINE_CONVERSATION) return env.THROUGHLINE_CONVERSATION;
    if (isCodex(server.server.getClientVersion()?.name)) return latestCodexSession(cwd, env);
    return null;
  };
  const own = (given: string | undefined): string => {
    const c = ownOrNull(given);
    if (!c) throw new Error('name your own conversation in "conversation" (its session id or transcript path, given in the Throughline note of this conversation; in Codex, $CODEX_THREAD_ID).');
    return c;
  };

  server.registerTool('recall_conversations', TOOLS.recall_conversations, ({ conversation, ...args }) =>
    run(async () => {
      const mine = ownOrNull(conversation);
      return (await backend.call('recall_conversations', mine ? { ...args, conversation: mine } : args)).text;
    }),
  );
  server.registerTool('read_conversation', TOOLS.read_conversation, (args) => run(async () => (await backend.call('read_conversation', args)).text));
  server.registerTool('conversation_inspect', TOOLS.conversation_inspect, (args) =>
    run(async () => (await backend.call('conversation_inspect', args)).text),
  );
  server.registerTool('history_search', TOOLS.history_search, (args) =>
    run(async () => (await backend.call('history_search', { ...args, conversation: own(args.conversation) })).text),
  );
  server.registerTool('history_read', TOOLS.history_read, (args) =>
    run(async () => {
      const conversation = own(args.conversation);
      let params: HistoryReadParams;
      if (args.mode === 'items') {
        if (!args.entries) throw new Error('mode "items" needs "entries" (entry numbers, e.g. from history_search).');
        params = { conversation, mode: 'items', entries: args.entries, around: args.around };
      } else if (args.mode === 'range') {
        if (args.from === undefined) throw new Error('mode "range" needs "from" (the first entry number).');
        params = { conversation, mode: 'range', from: args.from, to: args.to, limit: args.limit, cursor: args.cursor };
      } else {
        params = { conversation, mode: 'tail', count: args.count };
      }
      return (await backend.call('history_read', params)).text;
    }),
  );
  server.registerTool('history_handoff', TOOLS.history_handoff, (args) =>
    run(async () => {
      const r = await backend.call('history_handoff', { conversation: own(args.conversation), text: args.text });
      return `${r.text}\n\n${r.handoff}`;
    }),
  );
  return server;
}

/** Runs the MCP server on stdin/stdout until the client disconnects. */
export async function serveMcp(options: McpOptions = {}): Promise<void> {
  const backend = lazyBackend({ ...options, client: options.client ?? 'mcp' });
  const server = createMcpServer(backend, options.env, options.cwd);
  const transport = new LineStdioTransport();
  await new Promise<void>((resolve, reject) => {
    transport.onclose = () => resolve();
    process.stdin.once('end', () => resolve());
    server.connect(transport).catch(reject);
  });
  // Requests read just before the end may still be on their way to a handler: give them a moment.
  await new Promise((r) => setTimeout(r, 20));
  while (inflight.size) await Promise.allSettled([...inflight]);
  // Let the transport write the last answers before closing it.
  await new Promise((r) => setImmediate(r));
  await server.close().catch(() => {});
  backend.close();
}
