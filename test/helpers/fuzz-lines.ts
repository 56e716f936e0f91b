// Inputs for fuzzing the adapters: real session lines per agent, and arbitraries for the ways a
// session file goes bad (cut lines, random text, invalid UTF-8, non-records, deep nesting, huge
// lines, records whose fields have the wrong type).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { ADAPTERS } from '../../src/main/ingest/sources.js';
import type { LineAdapter } from '../../src/main/ingest/types.js';
import type { SourceKind } from '../../src/shared/types.js';

// Not from tmp.ts: that one needs vitest, and these helpers also run in child processes.
export const FIXTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'fixtures');

export interface Corpus {
  kind: SourceKind;
  /** A path the adapter accepts as a session file (some adapters read ids from it). */
  file: string;
  lines: string[];
}

const fixtureLines = (rel: string): string[] =>
  fs.readFileSync(path.join(FIXTURES, rel), 'utf8').split('\n').filter((l) => l.trim() !== '');

/** Throughline's import format has no fixture file: this sample uses every line type. */
export const JSONL_SAMPLE: readonly string[] = [
  { type: 'conversation', id: 'fix-login', workspace: '/home/me/shop', created: '2025-06-01T09:00:00Z' },
  { type: 'message', role: 'user', text: 'The login form rejects valid passwords.', ts: '2025-06-01T09:00:05Z', id: 'm1' },
  { type: 'message', role: 'assistant', text: 'Let me run the tests.', ts: '2025-06-01T09:00:09Z', id: 'm2' },
  { type: 'message', role: 'assistant', kind: 'thinking', text: 'Probably the hash.', ts: 1748768410000 },
  { type: 'message', role: 'tool', kind: 'tool_call', text: 'npm test', tool: { name: 'bash', status: 'ok' } },
  { type: 'message', role: 'tool', text: '1 failing', tool: { name: 'bash', status: 'error' }, id: 'r1' },
  { type: 'compaction', text: 'Found the inverted hash check.', firstKept: 'r1' },
  { type: 'message', role: 'user', text: 'Now fix the bcrypt cost factor', id: 'm3' },
  { type: 'handoff', text: 'Continued elsewhere.' },
  { type: 'conversation', id: 'side-quest', title: 'Side quest', parent: 'fix-login', subagent: true },
  { type: 'message', role: 'user', text: 'Look up bcrypt costs', id: 's1' },
  { type: 'message', role: 'assistant', text: 'Cost 12 is the usual default.', parent: 's1', id: 's2' },
  { type: 'leaf', id: 's2' },
  { type: 'message', conversation: 'fix-login', role: 'user', text: 'Back to the login bug' },
].map((l) => JSON.stringify(l));

/** The line adapter of a kind (the fuzzed corpora are all of line-by-line formats). */
export function lineAdapter(kind: SourceKind): Pick<LineAdapter, 'kind' | 'createParser'> {
  const adapter = ADAPTERS.get(kind);
  const createParser = adapter?.createParser?.bind(adapter);
  if (!adapter || !createParser) throw new Error(`no line adapter for ${kind}`);
  return { kind: adapter.kind, createParser };
}

/** One corpus per adapter, from the real fixtures (jsonl: the sample above). */
export function corpora(): Corpus[] {
  return [
    {
      kind: 'claude-code',
      file: '/home/u/.claude/projects/-home-u-proj/5b6f2f7e-3c1a-4d2b-9e8f-0a1b2c3d4e5f.jsonl',
      lines: [...fixtureLines('claude-code/agent-sessions-small-all-entry-types.jsonl'), ...fixtureLines('claude-code/codemie-main-4c2ddfdc.jsonl')],
    },
    {
      kind: 'codex',
      file: '/home/u/.codex/sessions/2026/01/02/rollout-2026-01-02T18-39-45-019b7f94-51b4-7593-922e-ba12b5b73b52.jsonl',
      lines: fixtureLines('codex/rollout-2026-01-02T18-39-45-019b7f94-51b4-7593-922e-ba12b5b73b52.jsonl'),
    },
    {
      kind: 'pi',
      file: '/home/u/.pi/agent/sessions/--home-u-proj--/2025-11-20T23-33-50-805Z_d703a1a9-1b7b-4fb1-b512-c9738b1fe617.jsonl',
      lines: [...fixtureLines('pi/agent-sessions-pi-small-v3.jsonl')],
    },
    {
      kind: 'pi',
      file: '/home/u/.pi/agent/sessions/--home-u-proj--/2025-11-20T23-33-50-805Z_e703a1a9-1b7b-4fb1-b512-c9738b1fe617.jsonl',
      lines: fixtureLines('pi/pi-mono-before-compaction-v1-excerpt.jsonl'),
    },
    {
      kind: 'gemini',
      file: '/home/u/.gemini/tmp/proj/chats/session-2026-04-29T21-39-gemini_s.jsonl',
      lines: fixtureLines('gemini/agent-sessions-jsonl_v040.jsonl'),
    },
    {
      kind: 'copilot',
      file: '/home/u/.copilot/session-state/aaaabbbb-1111-2222-3333-ccccddddeeee/events.jsonl',
      lines: [...fixtureLines('copilot/agent-sessions-small.jsonl'), ...fixtureLines('copilot/agent-sessions-schema_drift.jsonl')],
    },
    {
      kind: 'droid',
      file: '/home/u/.factory/sessions/-tmp-large/droid_large.jsonl',
      lines: [...fixtureLines('droid/agent-sessions-session_store_large.jsonl'), ...fixtureLines('droid/agent-sessions-session_store_schema_drift.jsonl')],
    },
    {
      kind: 'cursor',
      file: '/home/u/.cursor/projects/p/agent-transcripts/0c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f.jsonl',
      lines: [...fixtureLines('cursor/agent-sessions-large.jsonl'), ...fixtureLines('cursor/agent-sessions-schema_drift.jsonl')],
    },
    { kind: 'jsonl', file: '/home/u/.local/share/throughline/import/sample.jsonl', lines: [...JSONL_SAMPLE] },
  ];
}

/** Aider's Markdown history, blank lines kept (they part a reply from Aider's notes): two runs of Aider's own fixture (the second to its /add). */
export function aiderLines(): string[] {
  return fs.readFileSync(path.join(FIXTURES, 'aider/aider-chat-history-head2705.md'), 'utf8').split('\n').slice(1675, 1875);
}

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

/** `[[[…]]]` or `{"a":{"a":…}}` of the given depth: JSON.parse takes it, recursion over it may not. */
export function deepJson(depth: number, object: boolean): string {
  return object ? '{"a":'.repeat(depth) + '1' + '}'.repeat(depth) : '['.repeat(depth) + ']'.repeat(depth);
}

/** Bytes that are not UTF-8 (lone continuation bytes, overlongs, surrogates, 0xFF) decoded the way read-lines does. */
export const invalidUtf8 = fc
  .array(fc.oneof(fc.constantFrom(0x80, 0xbf, 0xc0, 0xc1, 0xed, 0xf5, 0xff, 0xfe), fc.integer({ min: 0x20, max: 0xff })), { minLength: 1, maxLength: 40 })
  .map((bytes) => Buffer.from(bytes.filter((b) => b !== 0x0a)));

/** A value of any JSON type but rarely the right one: what a "wrong-typed" field is set to. */
export const wrongValue: fc.Arbitrary<Json> = fc.oneof(
  { weight: 8, arbitrary: fc.constantFrom<Json>(null, true, false, 0, -1, 1e308, '', [], {}, [null], { type: null }) },
  { weight: 8, arbitrary: fc.jsonValue({ maxDepth: 3 }) as fc.Arbitrary<Json> },
  { weight: 3, arbitrary: fc.string({ unit: 'binary', maxLength: 30 }) },
  // Deep and huge values are costly to parse: rarer here, and tried at full size in fuzz-pipeline.
  { weight: 1, arbitrary: fc.integer({ min: 500, max: 5_000 }).map((d) => JSON.parse(deepJson(d, d % 2 === 0)) as Json) },
  { weight: 1, arbitrary: fc.integer({ min: 20_000, max: 200_000 }).map((n) => 'x'.repeat(n)) },
);

/** Every path into a JSON value, up to `maxDepth`, for picking a field to damage. */
function paths(value: unknown, maxDepth: number, prefix: (string | number)[] = [], out: (string | number)[][] = []): (string | number)[][] {
  if (prefix.length) out.push(prefix);
  if (prefix.length >= maxDepth || value === null || typeof value !== 'object') return out;
  const keys: (string | number)[] = Array.isArray(value) ? value.map((_, i) => i) : Object.keys(value);
  for (const k of keys) paths((value as Record<string | number, unknown>)[k], maxDepth, [...prefix, k], out);
  return out;
}

/** A real record with one field (at any depth) replaced by a wrong-typed value, or removed. */
export function mutatedLine(valid: readonly string[]): fc.Arbitrary<string> {
  return fc.tuple(fc.nat(valid.length - 1), fc.nat(), wrongValue, fc.boolean()).map(([li, pi, value, remove]) => {
    const record = JSON.parse(valid[li]!) as Record<string, unknown>;
    const all = paths(record, 6);
    if (!all.length) {
      try {
        return JSON.stringify(value);
      } catch {
        return deepJson(50_000, true); // too deep to stringify: the same shape, written out
      }
    }
    const at = all[pi % all.length]!;
    let parent = record as Record<string | number, unknown>;
    for (const k of at.slice(0, -1)) parent = parent[k] as Record<string | number, unknown>;
    const last = at[at.length - 1]!;
    if (remove && !Array.isArray(parent)) delete parent[last];
    else parent[last] = value;
    // A too deep value cannot be stringified by JSON.stringify; build the text around it instead.
    try {
      return JSON.stringify(record);
    } catch {
      return JSON.stringify({ ...record, [String(at[0])]: '__DEEP__' }).replace('"__DEEP__"', deepJson(50_000, true));
    }
  });
}

/**
 * Garbage that cannot be mistaken for a record of any agent: interleaved with a session's lines,
 * it must cost only itself. (Records with wrong-typed fields are another matter: a parser may
 * fairly accept them, so they are fuzzed for crashes only — see mutatedLine.)
 */
export function garbageLine(valid: readonly string[]): fc.Arbitrary<string> {
  const cut = fc.tuple(fc.nat(valid.length - 1), fc.double({ min: 0.01, max: 0.99, noNaN: true })).map(([li, f]) => {
    const line = valid[li]!.trimEnd();
    return line.slice(0, Math.max(1, Math.min(line.length - 1, Math.floor(line.length * f))));
  });
  return fc.oneof(
    { weight: 8, arbitrary: cut },
    { weight: 4, arbitrary: fc.string({ unit: 'binary', maxLength: 200 }).map((s) => s.replace(/\n/g, ' ')) },
    { weight: 4, arbitrary: invalidUtf8.map((b) => b.toString('utf8')) },
    { weight: 2, arbitrary: fc.constantFrom('[]', '[1,2,3]', '1', '"text"', 'null', 'true', '{', '}', '{"type"', '\u0000', '\uFEFF{}', '{"type":null}', '{"type":123}') },
    { weight: 1, arbitrary: fc.integer({ min: 1, max: 5_000 }).map((d) => deepJson(d, d % 2 === 1)) },
    { weight: 1, arbitrary: fc.integer({ min: 16, max: 256 }).map((kb) => `{"type":"${'x'.repeat(kb << 10)}`) },
    { weight: 2, arbitrary: fc.string({ maxLength: 20 }).map((t) => JSON.stringify({ type: `zz-${t}`, text: 'not a record type' })) },
  );
}

/** A damaged copy of `valid`: garbage lines inserted before the given positions. */
export function interleave(valid: readonly string[], garbage: readonly { at: number; line: string }[]): string[] {
  const out: string[] = [];
  const byPos = new Map<number, string[]>();
  for (const g of garbage) byPos.set(g.at % (valid.length + 1), [...(byPos.get(g.at % (valid.length + 1)) ?? []), g.line]);
  for (let i = 0; i <= valid.length; i++) {
    out.push(...(byPos.get(i) ?? []));
    if (i < valid.length) out.push(valid[i]!);
  }
  return out;
}
