// The tool cards' parser (src/shared/tool-cards.ts) against what the real writers produce: every
// agent tool called through Throughline's MCP server over a running daemon, its answer compared with
// the structured result of the same call on the socket, then stored the way a session file keeps it
// (Claude Code's adapter, cut at RESULT_MAX) and read back. p2-history-tools-spec.md §5: "a list of hits
// (…) a hit is clickable"; "collapsed list of the entries read".
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ActivityItem, HistoryReadResult, HistorySearchResult, InspectResult, ReadResult, RecallResult } from '../../src/shared/api.js';
import { cardTool, parseActivityCall, parseToolCard, type ToolCard } from '../../src/shared/tool-cards.js';
import { connectRpc, type RpcClient } from '../../src/main/client/socket-client.js';
import { startDaemon, type Daemon } from '../../src/main/daemon/daemon.js';
import { claudeCodeAdapter } from '../../src/main/ingest/adapters/claude-code.js';
import { codexAdapter } from '../../src/main/ingest/adapters/codex.js';
import { RESULT_MAX, truncate } from '../../src/main/ingest/adapters/text.js';
import { fold, only, parseAll } from '../helpers/ops.js';
import { callOverMcp, claudeLines, type RealCall } from '../helpers/tool-call-sessions.js';
import { buildIndex, SHARED_TERM, tempDir, type TestIndex } from '../server/helpers.js';

let index: TestIndex;
let daemon: Daemon;
let rpc: RpcClient;
let calls: RealCall[];
const HANDOFF = 'Goal: finish the migration plan. State: schema done. Next: backfill, then switch. Files: db/migrate.ts.';

beforeAll(async () => {
  index = await buildIndex();
  daemon = await startDaemon({ dbPath: index.dbPath, settingsPath: index.settingsPath, socketPath: path.join(index.dir, 'agent.sock'), log: false, watch: false });
  rpc = await connectRpc(daemon.socketPath, { client: 'test' });
  const a = String(index.a);
  calls = await callOverMcp(daemon.socketPath, 'claude-code-mcp', [
    { name: 'recall_conversations', args: { query: SHARED_TERM } },
    { name: 'read_conversation', args: { conversation_id: index.b } },
    { name: 'conversation_inspect', args: { conversation_id: index.b, query: 'rollout' } },
    { name: 'history_search', args: { conversation: a, query: 'migration' } },
    { name: 'history_read', args: { conversation: a, mode: 'items', entries: [0, 2] } },
    { name: 'history_read', args: { conversation: a, mode: 'range', from: 1, limit: 1 } },
    { name: 'history_handoff', args: { conversation: a, text: HANDOFF } },
    { name: 'history_read', args: { conversation: a, mode: 'tail', count: 2 } },
    { name: 'history_read', args: { conversation: a, mode: 'items' } },
  ]);
}, 60_000);

afterAll(async () => {
  rpc.close();
  await daemon.close();
  fs.rmSync(index.dir, { recursive: true, force: true });
});

const card = <T extends ToolCard['tool']>(i: number, tool: T) => {
  const c = parseToolCard(`mcp__throughline__${calls[i]!.name}`, calls[i]!.text);
  expect(c?.tool).toBe(tool);
  return c as Extract<ToolCard, { tool: T }>;
};

describe('tool cards from the real tools’ answers', () => {
  it('recall: every hit with its title, conversation, entry, workspace and why, as the structured result has them', async () => {
    const want = (await rpc.call('recall_conversations', { query: SHARED_TERM })) as RecallResult;
    const c = card(0, 'recall_conversations');
    expect(want.hits.length).toBe(2);
    expect(c).toMatchObject({ query: SHARED_TERM, count: 2, more: false, cut: false });
    expect(c.hits).toEqual(
      want.hits.map((h) => ({ id: h.id, title: h.title, entry: h.entry, date: h.date!.slice(0, 10), workspace: h.workspace, snippet: h.snippet, why: h.why })),
    );
  });

  it('read_conversation and conversation_inspect: the conversation, what was read, and each entry', async () => {
    const read = (await rpc.call('read_conversation', { conversation_id: index.b })) as ReadResult;
    const r = card(1, 'read_conversation');
    expect(r).toMatchObject({ conversation: index.b, title: read.conversation.title, workspace: read.conversation.workspace, what: '3 of 3 turn(s), detail summary' });
    expect(r.entries.map((e) => [e.entry, e.role, e.kind])).toEqual(read.turns.map((t) => [t.entry, t.role, `turn ${t.turn}`]));
    const insp = (await rpc.call('conversation_inspect', { conversation_id: index.b, query: 'rollout' })) as InspectResult;
    const i = card(2, 'conversation_inspect');
    expect(i.what).toMatch(/^\d+ matching entr(y|ies) for "rollout", 1 around each$/);
    expect(i.entries.map((e) => [e.entry, e.role, e.match])).toEqual(insp.blocks.map((b) => [b.entry, b.role, b.match]));
  });

  it('history_search: the query, the bound and each hit’s entry, role and snippet', async () => {
    const c = card(3, 'history_search');
    // Asked again with the bound it had (a handoff was written since: the default bound moved).
    const want = (await rpc.call('history_search', { conversation: String(index.a), query: 'migration', before: c.before })) as HistorySearchResult;
    expect(c).toMatchObject({ conversation: index.a, query: 'migration', before: 3, count: want.hits.length, more: want.more, cut: false });
    expect(c.note).toBe('No compaction or handoff yet: searched the whole conversation.');
    expect(c.hits.map((h) => [h.entry, h.role, h.text])).toEqual(want.hits.map((h) => [h.entry, h.role, h.snippet]));
  });

  it('history_read: items, range and tail list the entries read (the tail after a handoff included)', async () => {
    const items = card(4, 'history_read');
    expect(items).toMatchObject({ conversation: index.a, what: 'items 0, 2', foot: null, cut: false });
    expect(items.entries.map((e) => [e.entry, e.role, e.kind])).toEqual([
      [0, 'user', 'message'],
      [2, 'user', 'message'],
    ]);
    const range = card(5, 'history_read');
    expect(range.what).toBe('range from #1');
    expect(range.entries.map((e) => e.entry)).toEqual([1]);
    expect(range.foot).toMatch(/^More: call history_read range with cursor "c\d+\.2"\.$/);
    const tail = card(7, 'history_read');
    const want = (await rpc.call('history_read', { conversation: String(index.a), mode: 'tail', count: 2 })) as HistoryReadResult;
    expect(tail.what).toMatch(/^tail: 2 entries before #3$/);
    expect(tail.entries.map((e) => e.entry)).toEqual(want.entries.map((e) => e.entry));
  });

  it('history_handoff over MCP: where it was written, that the context was not reset, and the text', () => {
    expect(card(6, 'history_handoff')).toEqual({ tool: 'history_handoff', conversation: index.a, after: 2, reset: false, text: HANDOFF });
  });

  it('an error answer is no card (the plain tool line stays)', () => {
    expect(calls[8]!.isError).toBe(true);
    expect(parseToolCard('mcp__throughline__history_read', calls[8]!.text)).toBeNull();
  });
});

describe('as a session file keeps them', () => {
  it('Claude Code’s adapter stores each result under its MCP name, and the stored text parses to the same card', () => {
    const file = path.join(tempDir(), '-work-alpha', '0c0ffee0-0000-4000-8000-000000000001.jsonl');
    const { opening, calls: lines } = claudeLines('0c0ffee0-0000-4000-8000-000000000001', '/work/projects/alpha', Date.parse('2026-11-20T10:00:00Z'), ['plan it', 'ok'], calls);
    const conv = only(fold(parseAll(claudeCodeAdapter, file, [...opening, ...lines].map((l) => JSON.stringify(l)).join('\n') + '\n').ops));
    const results = conv.entries.filter((e) => e.kind === 'tool_result');
    expect(results.map((e) => e.toolName)).toEqual(calls.map((c) => `mcp__throughline__${c.name}`));
    for (const [i, e] of results.entries()) {
      expect(e.text).toBe(truncate(calls[i]!.text, RESULT_MAX));
      expect(parseToolCard(e.toolName, e.text)).toEqual(parseToolCard(e.toolName, calls[i]!.text));
    }
  });

  it('Codex’s rollout (MCP answers as JSON content blocks after a header, as a real Codex Desktop rollout has them) parses to the same cards', () => {
    const id = '019e1695-0000-7000-8000-00000000c0de';
    const at = '2026-11-20T10:00:00.000Z';
    const item = (payload: object) => JSON.stringify({ timestamp: at, type: 'response_item', payload });
    const lines = [
      JSON.stringify({ timestamp: at, type: 'session_meta', payload: { id, timestamp: at, cwd: '/work/projects/alpha', originator: 'codex_cli_rs', cli_version: '0.130.0' } }),
      item({ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'where did we leave the migration plan?' }] }),
      ...calls.flatMap((c, i) => [
        item({ type: 'function_call', name: c.name, namespace: 'mcp__throughline__', arguments: JSON.stringify(c.args), call_id: `call_${i}` }),
        item({ type: 'function_call_output', call_id: `call_${i}`, output: `Wall time: 0.0${i} seconds\nOutput:\n${JSON.stringify([{ type: 'text', text: c.text }])}` }),
      ]),
    ];
    const file = path.join(tempDir(), `rollout-2026-11-20T10-00-00-${id}.jsonl`);
    const conv = only(fold(parseAll(codexAdapter, file, lines.join('\n') + '\n').ops));
    const results = conv.entries.filter((e) => e.kind === 'tool_result');
    expect(results.map((e) => e.toolName)).toEqual(calls.map((c) => `mcp__throughline__${c.name}`));
    for (const [i, e] of results.entries()) {
      const want = parseToolCard(calls[i]!.name, calls[i]!.text);
      const got = parseToolCard(e.toolName, e.text);
      if (e.text.endsWith('more chars]')) {
        // Cut by the adapter inside the JSON: the card keeps what came before the cut, and says so.
        expect(got).toMatchObject({ tool: want!.tool, cut: true });
      } else expect(got).toEqual(want);
    }
    // The same output cut inside the JSON string (as the adapter cuts a long one): still the card, marked cut.
    const output = `Wall time: 0.01 seconds\nOutput:\n${JSON.stringify([{ type: 'text', text: calls[0]!.text }])}`;
    const cutShort = parseToolCard('mcp__throughline__recall_conversations', truncate(output, output.indexOf('\\n   matched') + 40));
    expect(cutShort).toMatchObject({ tool: 'recall_conversations', query: SHARED_TERM, cut: true });
    expect((cutShort as Extract<ToolCard, { tool: 'recall_conversations' }>).hits.map((h) => h.id)).toEqual([card(0, 'recall_conversations').hits[0]!.id]);
  });

  it('a result cut at RESULT_MAX keeps the hits before the cut and says it was cut; no prefix of any answer throws', () => {
    // The real answer's first hit (its line, snippet and why) thirty times over: longer than a session file keeps.
    const [head, ...rest] = calls[0]!.text.split('\n');
    const block = rest.slice(0, rest.findIndex((l, i) => i > 0 && /^\d+\. /.test(l)));
    const many = [head, ...Array.from({ length: 30 }, (_, i) => [block[0]!.replace(/^1\./, `${i + 1}.`), ...block.slice(1)]).flat()].join('\n');
    const stored = truncate(many, RESULT_MAX);
    const c = parseToolCard('recall_conversations', stored) as Extract<ToolCard, { tool: 'recall_conversations' }>;
    expect(c.cut).toBe(true);
    expect(c.hits.length).toBeGreaterThan(5);
    expect(c.hits.length).toBeLessThan(31);
    for (const call of calls) {
      for (let n = 0; n <= call.text.length; n += 7) expect(() => parseToolCard(call.name, truncate(call.text.slice(0, n), 10_000))).not.toThrow();
    }
  });
});

describe('Activity rows of the same calls', () => {
  it('the daemon’s log of each call reads back as the call: tool, query, conversation, entries', async () => {
    const { items } = (await rpc.call('activity', { limit: 200 })) as { items: ActivityItem[] };
    const mine = items.filter((a) => a.client === 'claude-code-mcp').reverse();
    const read = mine.map((a) => parseActivityCall(a.method, a.params));
    // The last call was refused by the MCP server itself (items without entries): it never reached the daemon.
    expect(read.map((c) => c?.tool)).toEqual(calls.slice(0, -1).map((c) => c.name));
    expect(read[0]).toMatchObject({ query: SHARED_TERM, conversation: null });
    expect(mine[0]!.conversations).toEqual(card(0, 'recall_conversations').hits.map((h) => h.id));
    expect(read[2]).toMatchObject({ query: 'rollout', conversation: String(index.b) });
    expect(read[4]).toEqual({ tool: 'history_read', query: null, conversation: String(index.a), entries: [0, 2], what: 'items 0, 2' });
    expect(read[7]).toMatchObject({ what: 'tail: 2 entries before the boundary' });
    // Not ours, or a summary cut short of JSON: no card, never a throw.
    expect(parseActivityCall('suggest', '{"prompt":"x"}')).toBeNull();
    expect(parseActivityCall('history_search', '{"query":"abc","conv')).toEqual({ tool: 'history_search', query: null, conversation: null, entries: [], what: null });
  });
});

describe('which names are ours', () => {
  it('pi’s bare names, Claude Code’s and Codex’s MCP names; nothing else', () => {
    expect(cardTool('history_read')).toBe('history_read');
    expect(cardTool('mcp__throughline__recall_conversations')).toBe('recall_conversations');
    expect(cardTool('throughline.conversation_inspect')).toBe('conversation_inspect');
    expect(cardTool('Read')).toBeNull();
    expect(cardTool('my_history_read')).toBeNull();
    expect(cardTool(null)).toBeNull();
    expect(parseToolCard('bash', calls[0]!.text)).toBeNull();
    expect(parseToolCard('history_search', 'history_search "x" before #3: 1 hit(s).')).toBeNull();
  });
});
