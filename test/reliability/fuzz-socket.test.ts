// Fuzzing the agent socket (issue 7 §3): random bytes, random JSON, request-shaped junk, and every
// method's params with one field at a time of the wrong type (or missing, or extra). Every line
// gets a JSON-RPC response or error — never an internal error, never silence — and the server
// stays up and keeps answering. Seeded; counts in docs/reliability.md.
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MethodName } from '../../src/shared/api.js';
import { createCore, type Core } from '../../src/main/api/core.js';
import { startSocketServer, type SocketServer } from '../../src/main/server/socket.js';
import { buildIndex, WS_A, type TestIndex } from '../server/helpers.js';
import { mutatedLine } from '../helpers/fuzz-lines.js';
import { checkAsyncProperty } from '../helpers/fuzz-ops.js';

export const RUNS = { bytes: 300, json: 300, shaped: 200, perMethod: 70 } as const;
const SEED = 7_4000;
const INTERNAL = -32603;

let index: TestIndex;
let core: Core;
let server: SocketServer;
const logged: string[] = [];

beforeAll(async () => {
  index = await buildIndex();
  core = createCore({ dbPath: index.dbPath, settingsPath: index.settingsPath });
  server = await startSocketServer({
    socketPath: path.join(index.dir, 'fuzz.sock'),
    api: core.api,
    activity: core.activity(),
    maxRequestBytes: 64 * 1024, // small, so the oversized-line path is fuzzed cheaply too
    log: (level, message) => level === 'error' && logged.push(message),
  });
}, 60_000);
afterAll(async () => {
  await server?.close();
  core?.close();
  if (index) fs.rmSync(index.dir, { recursive: true, force: true });
});

/** One connection that sends a payload, then a sentinel call, and returns every answer line before the sentinel's. */
class Conn {
  private buf = '';
  private waiting: ((line: string) => void)[] = [];
  private lines: string[] = [];
  private n = 0;
  private constructor(private readonly socket: net.Socket) {
    socket.setEncoding('utf8');
    socket.on('data', (d: string) => {
      this.buf += d;
      for (let nl = this.buf.indexOf('\n'); nl >= 0; nl = this.buf.indexOf('\n')) {
        const line = this.buf.slice(0, nl);
        this.buf = this.buf.slice(nl + 1);
        const w = this.waiting.shift();
        if (w) w(line);
        else this.lines.push(line);
      }
    });
  }
  static open(socketPath: string): Promise<Conn> {
    return new Promise((resolve, reject) => {
      const s = net.connect(socketPath, () => resolve(new Conn(s)));
      s.once('error', reject);
    });
  }
  private next(): Promise<string> {
    const l = this.lines.shift();
    if (l !== undefined) return Promise.resolve(l);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('no answer within 10 s')), 10_000);
      this.waiting.push((line) => {
        clearTimeout(timer);
        resolve(line);
      });
    });
  }
  async exchange(payload: Buffer | string): Promise<unknown[]> {
    const id = `sentinel-${++this.n}`;
    // Unknown method: the cheapest call that must still be answered, and not logged as activity.
    this.socket.write(Buffer.concat([Buffer.from(payload), Buffer.from(`\n${JSON.stringify({ jsonrpc: '2.0', id, method: 'sentinel.ping' })}\n`)]));
    const answers: unknown[] = [];
    for (;;) {
      const line = await this.next();
      const value: unknown = JSON.parse(line); // every answer line is JSON
      if (!Array.isArray(value) && (value as { id?: unknown }).id === id) return answers;
      answers.push(value);
    }
  }
  close(): void {
    this.socket.destroy();
  }
}

/** A JSON-RPC 2.0 response object (or batch of them), never an internal error. Returns the codes. */
function checkAnswer(value: unknown): number[] {
  const items = Array.isArray(value) ? value : [value];
  expect(items.length).toBeGreaterThan(0);
  return items.map((r: unknown) => {
    const o = r as Record<string, unknown>;
    expect(o.jsonrpc).toBe('2.0');
    expect('id' in o).toBe(true);
    expect('result' in o !== 'error' in o).toBe(true);
    if (!('error' in o)) return 0;
    const e = o.error as { code: unknown; message: unknown };
    expect(Number.isInteger(e.code)).toBe(true);
    expect(typeof e.message).toBe('string');
    expect(e.code, String(e.message)).not.toBe(INTERNAL);
    return e.code as number;
  });
}

/** Valid params per method (every one: a missing method is a type error); the fuzzer damages one field at a time from here. */
function validParams(a: number): Record<MethodName | 'auth', unknown[]> {
  return {
    suggest: [{ text: 'plan the migration schema', workspace: WS_A, scope: 'workspace', sensitivity: 'balanced', strategy: 'default', conversation: 'conv-beta', listed: [a], includeSubagents: false, now: '2026-01-01' }],
    recall_conversations: [{ query: 'migration schema', since: '2020-01-01', workspace: 'all', limit: 5, includeSubagents: true, now: '2026-01-01' }],
    read_conversation: [{ conversation_id: a, turns: '1-2', detail: 'full' }],
    conversation_inspect: [{ conversation_id: 'conv-alpha', query: 'port', role: 'user', around: 1, limit: 5 }],
    history_search: [{ conversation: 'conv-alpha', query: 'schema', before: 10, limit: 5 }],
    history_read: [
      { conversation: 'conv-alpha', mode: 'items', entries: [0, 1], around: 1 },
      { conversation: 'conv-alpha', mode: 'range', from: 0, to: 5, limit: 3, cursor: `c${a}.1` },
      { conversation: 'conv-alpha', mode: 'tail', count: 3 },
    ],
    history_handoff: [{ conversation: 'conv-alpha', text: 'Handing off: schema done.' }],
    status: [{}],
    'ingest.append': [{ conversation: { id: 'fuzz-conv', workspace: WS_A, title: 'Fuzz' }, entries: [{ role: 'user', text: 'hello', ts: '2026-01-01', id: 'x1', tool: { name: 'bash', status: 'ok' } }] }],
    'conversations.list': [{ query: 'migration', workspace: WS_A, source: 'jsonl', since: '2020-01-01', until: '2030-01-01', subagents: true, sort: 'recent', offset: 0, limit: 10 }],
    'conversations.get': [{ conversation_id: a }],
    'conversations.entries': [{ conversation_id: a, from: 0, limit: 5 }, { conversation_id: 'conv-alpha', around: 1 }, { conversation_id: a, before: 2 }],
    'settings.get': [{}],
    'settings.set': [{ sensitivity: 'focused', scope: 'everywhere', pins: { maxHits: 3, tokenBudget: 300 } }],
    'conversations.workspaces': [{ limit: 10 }],
    'conversations.find': [{ conversation_id: a, query: 'schema' }],
    'exclusions.preview': [{ pattern: '/work/projects/fuzz-nowhere' }],
    'exclusions.add': [{ pattern: '/work/projects/fuzz-nowhere', keepIndexed: true }],
    activity: [{ limit: 10 }],
    'integrations.list': [{}],
    // Refused on the socket whatever the params (people only); never installed into this machine.
    'integrations.install': [{ id: 'pi' }],
    'integrations.uninstall': [{ id: 'pi' }],
    auth: [{ client: 'fuzzer' }],
  };
}

const METHODS = Object.keys(validParams(1)) as (MethodName | 'auth')[];

describe('socket protocol fuzzing', () => {
  let conn: Conn;
  beforeAll(async () => {
    conn = await Conn.open(server.socketPath);
  });
  afterAll(() => conn?.close());

  it('random bytes: every line answered with a JSON-RPC error, in order', async () => {
    await checkAsyncProperty(
      fc.asyncProperty(fc.uint8Array({ maxLength: 3000 }), async (bytes) => {
        for (const a of await conn.exchange(Buffer.from(bytes))) checkAnswer(a);
      }),
      { seed: SEED, numRuns: RUNS.bytes },
    );
  });

  it('random JSON values (and oversized lines): one answer each', async () => {
    const value = fc.oneof(
      { weight: 9, arbitrary: fc.jsonValue().map((v) => JSON.stringify(v)) },
      { weight: 1, arbitrary: fc.integer({ min: 60_000, max: 300_000 }).map((n) => JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'status', params: { pad: 'x'.repeat(n) } })) },
    );
    await checkAsyncProperty(
      fc.asyncProperty(value, async (line) => {
        const answers = await conn.exchange(line);
        expect(answers.length).toBeLessThanOrEqual(1);
        for (const a of answers) checkAnswer(a);
      }),
      { seed: SEED + 1, numRuns: RUNS.json },
    );
  });

  it('request-shaped junk: odd ids, methods, params and batches', async () => {
    const id = fc.oneof(fc.integer(), fc.string(), fc.constant(null), fc.double(), fc.jsonValue());
    const request = fc.record(
      { jsonrpc: fc.oneof(fc.constant('2.0'), fc.jsonValue()), id, method: fc.oneof(fc.constantFrom(...METHODS), fc.string(), fc.jsonValue()), params: fc.jsonValue() },
      { requiredKeys: ['jsonrpc', 'id'] },
    );
    await checkAsyncProperty(
      fc.asyncProperty(fc.oneof(request, fc.array(request, { maxLength: 5 })), async (r) => {
        for (const a of await conn.exchange(JSON.stringify(r))) checkAnswer(a);
      }),
      { seed: SEED + 2, numRuns: RUNS.shaped },
    );
  });

  for (const method of METHODS) {
    it(`${method}: one field at a time wrong-typed, missing or extra → a result or a JSON-RPC error`, async () => {
      const examples = validParams(index.a)[method]!;
      const damaged = fc.oneof(
        mutatedLine(examples.map((e) => JSON.stringify(e))),
        fc.tuple(fc.constantFrom(...examples), fc.string({ maxLength: 12 }), fc.jsonValue({ maxDepth: 2 })).map(([e, k, v]) => JSON.stringify({ ...(e as object), [k]: v })),
      );
      // auth changes the connection for good (a wrong token refuses it): each case on its own connection.
      const own = method === 'auth';
      await checkAsyncProperty(
        fc.asyncProperty(damaged, async (paramsJson) => {
          const c = own ? await Conn.open(server.socketPath) : conn;
          try {
            const answers = await c.exchange(`{"jsonrpc":"2.0","id":7,"method":${JSON.stringify(method)},"params":${paramsJson}}`);
            expect(answers).toHaveLength(1);
            checkAnswer(answers[0]);
          } finally {
            if (own) c.close();
          }
        }),
        { seed: SEED + 10 + method.length, numRuns: RUNS.perMethod },
      );
    });
  }

  it('is still up and answering, and logged no internal error', async () => {
    const [answer] = await conn.exchange(JSON.stringify({ jsonrpc: '2.0', id: 'last', method: 'status' }));
    expect(answer).toMatchObject({ id: 'last', result: { conversations: expect.any(Number) } });
    expect(logged).toEqual([]);
    expect(server.connections()).toBeGreaterThan(0);
  });
});
