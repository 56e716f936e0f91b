// The benchmark corpus in OpenCode's JSON storage (the layout the issue names, which OpenCode wrote
// before its 1.x database and which its json-migration still reads): under
// ~/.local/share/opencode/storage, one pretty-printed JSON file per object —
// `session/<projectID>/<ses>.json`, `message/<ses>/<msg>.json`, `part/<msg>/<prt>.json`. A conversation
// is therefore many small files, which is what this format costs an indexer. Shapes follow
// sst/opencode packages/opencode/src/session/message-v2.ts and the fixtures in test/fixtures/opencode.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Rng } from './lib-prng.js';
import { clock, type ConversationSpec, type ConversationWriter, type Sink, type ToolCall } from './corpus-formats.js';

export const OPENCODE_STORAGE = '.local/share/opencode/storage';
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** OpenCode's id: prefix, 12 hex digits of (ms·4096 + counter), 14 base62 characters; sessions' time bits inverted (newest first). */
function openCodeId(prefix: string, ms: number, counter: number, random: string, descending = false): string {
  let n = BigInt(ms) * 0x1000n + BigInt(counter);
  if (descending) n = ~n & 0xffffffffffffn;
  return `${prefix}_${n.toString(16).padStart(12, '0').slice(-12)}${random}`;
}

const base62 = (rng: Rng, n: number): string => Array.from({ length: n }, () => BASE62[rng.int(0, 61)]).join('');

/** The session id, from the spec alone (its path is needed before any rng is drawn). */
export function opencodeSessionId(spec: Omit<ConversationSpec, 'rng'>): string {
  return openCodeId('ses', spec.start.getTime(), 1, spec.sessionId.replace(/-/g, '').slice(0, 14), true);
}

/** OpenCode names a project by its repository's first commit; a hash of the folder stands for it here. */
const projectId = (workspace: string): string => crypto.createHash('sha1').update(workspace).digest('hex');

export function opencodeSessionPath(spec: Omit<ConversationSpec, 'rng'>): string {
  return path.join(spec.root, OPENCODE_STORAGE, 'session', projectId(spec.workspace), `${opencodeSessionId(spec)}.json`);
}

const TOOL: Record<ToolCall['name'], string> = { bash: 'bash', read: 'read', edit: 'edit', grep: 'grep' };

/** Writes one conversation's message and part files as it goes; the session file (the sink) at close. */
export function opencodeWriter(spec: ConversationSpec, sink: Sink): ConversationWriter {
  const { rng, workspace } = spec;
  const storage = path.join(spec.root, OPENCODE_STORAGE);
  const sessionID = opencodeSessionId(spec);
  const next = clock(rng, spec.start);
  let bytes = 0;
  let counter = 0;
  let lastUser = '';
  let updated = spec.start.getTime();
  let title = `New session - ${spec.start.toISOString()}`;
  const id = (prefix: string, at: number) => openCodeId(prefix, at, ++counter, base62(rng, 14));
  const write = (file: string, obj: unknown): void => {
    const text = JSON.stringify(obj, null, 2);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, text);
    bytes += Buffer.byteLength(text);
  };
  const model = { providerID: 'anthropic', modelID: 'claude-sonnet-4-5' };
  /** A message and its parts; each part gets its id and the message's. */
  const message = (info: Record<string, unknown>, at: number, parts: Record<string, unknown>[]): string => {
    const messageID = id('msg', at);
    write(path.join(storage, 'message', sessionID, `${messageID}.json`), { id: messageID, sessionID, ...info });
    for (const p of parts) {
      const partID = id('prt', at);
      write(path.join(storage, 'part', messageID, `${partID}.json`), { id: partID, sessionID, messageID, ...p });
    }
    updated = at;
    return messageID;
  };
  const user = (parts: Record<string, unknown>[]): void => {
    const at = next().getTime();
    lastUser = message({ role: 'user', time: { created: at }, summary: { diffs: [] }, agent: 'build', model }, at, parts);
  };
  const tokens = () => ({ input: rng.int(800, 90000), output: rng.int(50, 4000), reasoning: 0, cache: { read: rng.int(0, 90000), write: 0 } });
  /** An assistant message; `parts` makes its parts given the message's time. */
  const assistant = (parts: (at: number) => Record<string, unknown>[], finish: string, extra: Record<string, unknown> = {}): void => {
    const at = next().getTime();
    const done = at + rng.int(500, 30_000);
    const t = tokens();
    const steps = [{ type: 'step-start', snapshot: rng.hex(40) }, ...parts(at), { type: 'step-finish', reason: finish, snapshot: rng.hex(40), cost: 0, tokens: t }];
    message({ role: 'assistant', time: { created: at, completed: done }, parentID: lastUser, ...model, mode: 'build', agent: 'build',
      path: { cwd: workspace, root: workspace }, cost: 0, tokens: t, finish, ...extra }, at, steps);
  };
  return {
    user: (text) => user([{ type: 'text', text }]),
    assistant: (text, tools, thinking) => assistant((at) => {
      const parts: Record<string, unknown>[] = [];
      if (thinking) parts.push({ type: 'reasoning', text: thinking, time: { start: at, end: at + 1 } });
      if (text) parts.push({ type: 'text', text, time: { start: at, end: at + 1 } });
      for (const c of tools) {
        const input = c.args;
        const time = { start: at, end: at + rng.int(50, 9000) };
        const state = c.error
          ? { status: 'error', input, error: c.output, time }
          : { status: 'completed', input, output: c.output, title: input.command ?? input.path ?? input.pattern ?? c.name, metadata: {}, time };
        parts.push({ type: 'tool', callID: `toolu_${rng.hex(24)}`, tool: TOOL[c.name], state });
      }
      return parts;
    }, tools.length ? 'tool-calls' : 'stop'),
    compaction(summary) {
      // OpenCode's compaction: a user turn holding a compaction part, then an assistant summary.
      user([{ type: 'compaction', auto: true }]);
      assistant(() => [{ type: 'text', text: summary }], 'stop', { summary: true, mode: 'compaction', agent: 'compaction' });
    },
    title: (name) => void (title = name),
    size: () => bytes + sink.size(),
    close() {
      sink.text(JSON.stringify({ id: sessionID, slug: sessionID.slice(-8).toLowerCase(), version: '0.15.31', projectID: projectId(workspace), directory: workspace,
        title, time: { created: spec.start.getTime(), updated } }, null, 2));
      return bytes + sink.close();
    },
    id: sessionID,
    file: sink.file,
  };
}
