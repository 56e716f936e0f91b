// Writes one conversation in one agent's real on-disk format, line by line, laid out where that
// agent keeps it. Line shapes mirror real files (test/fixtures, ../shared/eval/render-corpus.mjs):
// pi session v3 (a tree of id/parentId entries), Claude Code (one line per content block, tool
// results duplicated in toolUseResult), Codex CLI rollouts (response_item/event_msg pairs,
// encrypted reasoning); OpenCode's in corpus-format-opencode.ts, the other agents' in corpus-formats-more.ts. Lines are buffered and flushed in ~1 MB writes; no file is held whole.
import fs from 'node:fs';
import path from 'node:path';
import type { Rng } from './lib-prng.js';
import { moreSessionPath, moreWriter } from './corpus-formats-more.js';
import { opencodeSessionPath, opencodeWriter } from './corpus-format-opencode.js';

export type Agent = 'pi' | 'claude-code' | 'codex' | 'gemini' | 'opencode' | 'copilot' | 'cursor' | 'droid' | 'aider';

export interface ToolCall {
  name: 'bash' | 'read' | 'edit' | 'grep';
  args: Record<string, string>;
  output: string;
  error: boolean;
}

export interface ConversationWriter {
  user(text: string): void;
  assistant(text: string | null, tools: ToolCall[], thinking: string | null): void;
  compaction(summary: string): void;
  title(name: string): void;
  /** Characters written so far (close enough to bytes to size a conversation). */
  size(): number;
  /** Flushes and closes; returns the bytes written. */
  close(): number;
  /** The session id the agent's adapter gives it, when it is not the spec's (Aider: file and start). */
  id?: string;
  /** The file written. */
  file: string;
}

export interface ConversationSpec {
  agent: Agent;
  root: string;
  workspace: string;
  start: Date;
  sessionId: string;
  rng: Rng;
}

const FLUSH_AT = 1 << 20;

export class Sink {
  private parts: string[] = [];
  private pending = 0;
  private fd: number;
  bytes = 0;
  constructor(readonly file: string, flags: 'w' | 'a' = 'w') {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    this.fd = fs.openSync(file, flags);
  }
  line(obj: unknown): void {
    this.text(`${JSON.stringify(obj)}\n`);
  }
  /** Text as it is (Aider's Markdown). */
  text(s: string): void {
    this.parts.push(s);
    this.pending += s.length;
    if (this.pending >= FLUSH_AT) this.flush();
  }
  flush(): void {
    if (this.parts.length === 0) return;
    this.bytes += fs.writeSync(this.fd, this.parts.join(''));
    this.parts = [];
    this.pending = 0;
  }
  size(): number {
    return this.bytes + this.pending;
  }
  close(): number {
    this.flush();
    fs.closeSync(this.fd);
    return this.bytes;
  }
}

/** Each line is a little later than the previous one: seconds to minutes, as in a real session. */
export function clock(rng: Rng, start: Date): () => Date {
  let t = start.getTime();
  return () => {
    t += rng.int(2, 90) * 1000 + rng.int(0, 999);
    return new Date(t);
  };
}

/** Where an agent keeps a session started at `start` in `workspace`. */
export function sessionPath(spec: Omit<ConversationSpec, 'rng'>): string {
  const iso = spec.start.toISOString();
  if (spec.agent === 'pi') {
    const dir = `--${spec.workspace.replace(/^\//, '').replace(/[/\\:]/g, '-')}--`;
    return path.join(spec.root, '.pi/agent/sessions', dir, `${iso.replace(/[:.]/g, '-')}_${spec.sessionId}.jsonl`);
  }
  if (spec.agent === 'claude-code') {
    return path.join(spec.root, '.claude/projects', spec.workspace.replace(/[^a-zA-Z0-9]/g, '-'), `${spec.sessionId}.jsonl`);
  }
  if (spec.agent === 'codex') {
    return path.join(spec.root, '.codex/sessions', iso.slice(0, 4), iso.slice(5, 7), iso.slice(8, 10),
      `rollout-${iso.slice(0, 19).replace(/:/g, '-')}-${spec.sessionId}.jsonl`);
  }
  // OpenCode's session file; its messages and parts are files beside it (corpus-format-opencode.ts).
  if (spec.agent === 'opencode') return opencodeSessionPath(spec);
  return moreSessionPath(spec);
}

export const b64 = (rng: Rng, n: number): string => Buffer.from(rng.hex(n * 2), 'hex').toString('base64').slice(0, n);

export function openConversation(spec: ConversationSpec): ConversationWriter {
  // Aider appends each run to its repository's one history file.
  const sink = new Sink(sessionPath(spec), spec.agent === 'aider' ? 'a' : 'w');
  if (spec.agent === 'pi') return piWriter(spec, sink);
  if (spec.agent === 'claude-code') return claudeWriter(spec, sink);
  if (spec.agent === 'codex') return codexWriter(spec, sink);
  if (spec.agent === 'opencode') return opencodeWriter(spec, sink);
  return moreWriter(spec, sink);
}

function piWriter(spec: ConversationSpec, sink: Sink): ConversationWriter {
  const { rng, sessionId: id, workspace } = spec;
  const next = clock(rng, spec.start);
  let parent: string | null = null;
  const ids: string[] = [];
  const entry = (type: string, body: (ts: Date) => Record<string, unknown>): void => {
    const eid = rng.hex(8);
    const ts = next();
    sink.line({ type, id: eid, parentId: parent, timestamp: ts.toISOString(), ...body(ts) });
    parent = eid;
    ids.push(eid);
  };
  sink.line({ type: 'session', version: 3, id, timestamp: spec.start.toISOString(), cwd: workspace });
  entry('model_change', () => ({ provider: 'anthropic', modelId: 'claude-sonnet-4-5' }));
  entry('thinking_level_change', () => ({ thinkingLevel: 'medium' }));
  const usage = { input: rng.int(800, 90000), output: rng.int(50, 4000), cacheRead: 0, cacheWrite: 0, totalTokens: 0,
    cost: { input: 0.003, output: 0.015, cacheRead: 0, cacheWrite: 0, total: 0.018 } };
  return {
    user: (text) => entry('message', (ts) => ({ message: { role: 'user', content: [{ type: 'text', text }], timestamp: ts.getTime() } })),
    assistant(text, tools, thinking) {
      const calls = tools.map((t) => ({ ...t, callId: `toolu_${rng.hex(24)}` }));
      const content: Record<string, unknown>[] = [];
      if (thinking) content.push({ type: 'thinking', thinking, thinkingSignature: b64(rng, 400) });
      if (text) content.push({ type: 'text', text });
      for (const c of calls) content.push({ type: 'toolCall', id: c.callId, name: c.name, arguments: c.args });
      entry('message', (ts) => ({ message: { role: 'assistant', content, api: 'anthropic-messages', provider: 'anthropic',
        model: 'claude-sonnet-4-5', usage, stopReason: calls.length ? 'toolUse' : 'stop', timestamp: ts.getTime() } }));
      for (const c of calls) {
        entry('message', (ts) => ({ message: { role: 'toolResult', toolCallId: c.callId, toolName: c.name,
          content: [{ type: 'text', text: c.output }], isError: c.error, timestamp: ts.getTime() } }));
      }
    },
    compaction(summary) {
      const kept = ids[Math.max(0, ids.length - 4)];
      entry('compaction', () => ({ summary, firstKeptEntryId: kept, tokensBefore: rng.int(120000, 185000),
        details: { readFiles: [], modifiedFiles: [] }, fromHook: false }));
    },
    title: (name) => entry('session_info', () => ({ name })),
    size: () => sink.size(),
    close: () => sink.close(),
    file: sink.file,
  };
}

const CLAUDE_TOOL: Record<ToolCall['name'], string> = { bash: 'Bash', read: 'Read', edit: 'Edit', grep: 'Grep' };

function claudeWriter(spec: ConversationSpec, sink: Sink): ConversationWriter {
  const { rng, sessionId, workspace } = spec;
  const next = clock(rng, spec.start);
  let parent: string | null = null;
  const common = { isSidechain: false, userType: 'external', cwd: workspace, sessionId, version: '2.0.64', gitBranch: 'main' };
  const push = (body: Record<string, unknown>): void => {
    const uuid = rng.uuid();
    sink.line({ parentUuid: parent, ...common, ...body, uuid, timestamp: next().toISOString() });
    parent = uuid;
  };
  const model = 'claude-sonnet-4-5-20250929';
  const usage = { input_tokens: 3, cache_creation_input_tokens: rng.int(100, 9000), cache_read_input_tokens: rng.int(0, 90000), output_tokens: rng.int(10, 3000) };
  return {
    user(text) {
      const id = `msg_${rng.hex(24)}`;
      sink.line({ type: 'file-history-snapshot', messageId: id, snapshot: { messageId: id, trackedFileBackups: {}, timestamp: next().toISOString() }, isSnapshotUpdate: false });
      push({ type: 'user', message: { role: 'user', content: text } });
    },
    assistant(text, tools, thinking) {
      const msgId = `msg_${rng.hex(24)}`;
      const requestId = `req_${rng.hex(24)}`;
      // Claude Code writes one line per content block, all with the same message id.
      const block = (content: unknown[]): void => push({ type: 'assistant', requestId, message: { model, id: msgId, type: 'message', role: 'assistant', content,
        stop_reason: null, stop_sequence: null, usage } });
      if (thinking) block([{ type: 'thinking', thinking, signature: b64(rng, 600) }]);
      if (text) block([{ type: 'text', text }]);
      for (const t of tools) {
        const tid = `toolu_${rng.hex(24)}`;
        block([{ type: 'tool_use', id: tid, name: CLAUDE_TOOL[t.name], input: t.args }]);
        push({ type: 'user', message: { role: 'user', content: [{ tool_use_id: tid, type: 'tool_result', content: t.output, is_error: t.error }] },
          toolUseResult: { stdout: t.output, stderr: '', interrupted: false, isImage: false } });
      }
    },
    compaction(summary) {
      push({ type: 'system', subtype: 'compact_boundary', content: 'Conversation compacted', isMeta: false, level: 'info',
        compactMetadata: { trigger: 'auto', preTokens: rng.int(120000, 185000) } });
      push({ type: 'user', isCompactSummary: true, isVisibleInTranscriptOnly: true,
        message: { role: 'user', content: `This session is being continued from a previous conversation that ran out of context. The conversation is summarized below:\n${summary}` } });
    },
    title: (name) => sink.line({ type: 'ai-title', sessionId, aiTitle: name }),
    size: () => sink.size(),
    close: () => sink.close(),
    file: sink.file,
  };
}

function codexWriter(spec: ConversationSpec, sink: Sink): ConversationWriter {
  const { rng, sessionId: id, workspace } = spec;
  const next = clock(rng, spec.start);
  const push = (type: string, payload: Record<string, unknown>): void => sink.line({ timestamp: next().toISOString(), type, payload });
  const iso = spec.start.toISOString();
  push('session_meta', { id, timestamp: iso, cwd: workspace, originator: 'codex_cli_rs', cli_version: '0.77.0',
    instructions: null, source: 'cli', model_provider: 'openai', git: { branch: 'main', commit_hash: rng.hex(40) } });
  push('response_item', { type: 'message', role: 'user', content: [{ type: 'input_text',
    text: `<environment_context>\n  <cwd>${workspace}</cwd>\n  <approval_policy>on-request</approval_policy>\n  <sandbox_mode>workspace-write</sandbox_mode>\n  <network_access>restricted</network_access>\n  <shell>bash</shell>\n</environment_context>` }] });
  let total = 0;
  return {
    user(text) {
      push('turn_context', { cwd: workspace, approval_policy: 'on-request', model: 'gpt-5-codex', effort: 'medium', summary: 'auto' });
      push('response_item', { type: 'message', role: 'user', content: [{ type: 'input_text', text }] });
      push('event_msg', { type: 'user_message', message: text, images: [] });
    },
    assistant(text, tools, thinking) {
      if (thinking) {
        push('response_item', { type: 'reasoning', summary: [{ type: 'summary_text', text: thinking.slice(0, 200) }], content: null, encrypted_content: b64(rng, 1200) });
        push('event_msg', { type: 'agent_reasoning', text: thinking.slice(0, 200) });
      }
      for (const t of tools) {
        const callId = `call_${rng.hex(24)}`;
        const cmd = t.name === 'bash' ? (t.args.command ?? '') : `${t.name} ${JSON.stringify(t.args)}`;
        push('response_item', { type: 'function_call', name: 'shell', arguments: JSON.stringify({ command: ['bash', '-lc', cmd], workdir: workspace }), call_id: callId });
        push('response_item', { type: 'function_call_output', call_id: callId,
          output: JSON.stringify({ output: t.output, metadata: { exit_code: t.error ? 1 : 0, duration_seconds: rng.int(1, 90) / 10 } }) });
      }
      if (text) {
        push('response_item', { type: 'message', role: 'assistant', content: [{ type: 'output_text', text }] });
        push('event_msg', { type: 'agent_message', message: text });
      }
      total += rng.int(500, 20000);
      push('event_msg', { type: 'token_count', info: { total_token_usage: { input_tokens: total, output_tokens: Math.floor(total / 9), total_tokens: total } } });
    },
    compaction: (summary) => push('compacted', { message: summary, replacement_history: [] }),
    // Codex keeps no title in the rollout; a thread name lives elsewhere. Nothing to write.
    title: () => undefined,
    size: () => sink.size(),
    close: () => sink.close(),
    file: sink.file,
  };
}
