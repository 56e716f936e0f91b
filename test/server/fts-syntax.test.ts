// FTS5 syntax in every string parameter, over the socket: a query answers with results or nothing,
// a reference with a result or "not found" — never an internal error, never a dead connection.
import fc from 'fast-check';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectRpc, RpcCallError, type RpcClient } from '../../src/main/client/socket-client.js';
import { startDaemon, type Daemon } from '../../src/main/daemon/daemon.js';
import { buildIndex, SHARED_TERM, WS_A, type TestIndex } from './helpers.js';

const NASTY = ['"', '*', 'NEAR(', 'NEAR/2', 'AND', 'OR', 'NOT', ':', '^', '(', ')', '-', '+', '{', '}', "'", '\\', 'title:', '""', '*"', SHARED_TERM, 'migration', ' ', '\t', 'ü', '🙂', '%', '_', ';', 'DROP'];
const nasty = fc.array(fc.constantFrom(...NASTY), { minLength: 1, maxLength: 8 }).map((parts) => parts.join(''));

let index: TestIndex;
let daemon: Daemon;
let rpc: RpcClient;

beforeAll(async () => {
  index = await buildIndex();
  daemon = await startDaemon({ dbPath: index.dbPath, settingsPath: index.settingsPath, socketPath: path.join(index.dir, 'agent.sock'), log: false, watch: false });
  rpc = await connectRpc(daemon.socketPath);
}, 30_000);
afterAll(async () => {
  rpc?.close();
  await daemon?.close();
});

type Outcome = 'ok' | number;
async function outcome(method: string, params: unknown): Promise<Outcome> {
  try {
    await rpc.request(method, params);
    return 'ok';
  } catch (err) {
    if (err instanceof RpcCallError) return err.code;
    throw err;
  }
}

/** Each string parameter, how to call with it, and the errors that are a correct answer for junk there. */
const PARAMS: { name: string; call: (s: string) => [string, unknown]; allowed: Outcome[] }[] = [
  { name: 'suggest.text', call: (s) => ['suggest', { text: s, scope: 'everywhere' }], allowed: ['ok'] },
  { name: 'suggest.workspace', call: (s) => ['suggest', { text: SHARED_TERM, workspace: s }], allowed: ['ok'] },
  { name: 'suggest.conversation', call: (s) => ['suggest', { text: SHARED_TERM, conversation: s, listed: [s] }], allowed: ['ok'] },
  { name: 'recall.query', call: (s) => ['recall_conversations', { query: s, workspace: 'all' }], allowed: ['ok'] },
  { name: 'recall.workspace', call: (s) => ['recall_conversations', { query: SHARED_TERM, workspace: s }], allowed: ['ok'] },
  { name: 'read.conversation_id', call: (s) => ['read_conversation', { conversation_id: s }], allowed: ['ok', -32004] },
  { name: 'inspect.query', call: (s) => ['conversation_inspect', { conversation_id: index.a, query: s }], allowed: ['ok'] },
  { name: 'inspect.conversation_id', call: (s) => ['conversation_inspect', { conversation_id: s, query: SHARED_TERM }], allowed: ['ok', -32004] },
  { name: 'history_search.query', call: (s) => ['history_search', { conversation: 'conv-alpha', query: s, before: 1000 }], allowed: ['ok'] },
  { name: 'history_search.conversation', call: (s) => ['history_search', { conversation: s, query: SHARED_TERM }], allowed: ['ok', -32004] },
  { name: 'history_read.conversation', call: (s) => ['history_read', { conversation: s, mode: 'tail' }], allowed: ['ok', -32004] },
  { name: 'history_read.cursor', call: (s) => ['history_read', { conversation: 'conv-alpha', mode: 'range', from: 0, cursor: s }], allowed: ['ok', -32602] },
  { name: 'conversations.list.query', call: (s) => ['conversations.list', { query: s }], allowed: ['ok'] },
  { name: 'ingest.append text', call: (s) => ['ingest.append', { conversation: { id: `fuzz-${s}`, workspace: WS_A, title: s }, entries: [{ role: 'user', text: s }] }], allowed: ['ok'] },
];

describe('FTS syntax through every string parameter', () => {
  for (const p of PARAMS) {
    it(p.name, async () => {
      await fc.assert(
        fc.asyncProperty(nasty, async (s) => {
          const [method, params] = p.call(s);
          const got = await outcome(method, params);
          expect(p.allowed, `${method} with ${JSON.stringify(s)} → ${got}`).toContain(got);
        }),
        { numRuns: 40 },
      );
    });
  }

  it('a query of bare operators is a word or nothing, never an error', async () => {
    for (const q of ['"', '*', '^', ':', 'AND', 'NEAR(', '()', '-']) {
      const r = await rpc.call('recall_conversations', { query: q, workspace: 'all' });
      expect(Array.isArray(r.hits), q).toBe(true);
      const h = await rpc.call('history_search', { conversation: 'conv-alpha', query: q, before: 1000 });
      expect(h.hits, q).toEqual([]);
    }
  });
});
