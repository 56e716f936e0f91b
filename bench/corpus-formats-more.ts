// The benchmark corpus in the other agents' formats, shaped like the fixtures in test/fixtures:
// Gemini CLI's JSONL sessions (0.40+: a metadata line, message records with inline tool calls and
// results, `$set` updates), GitHub Copilot CLI's event logs (`session-state/<id>/events.jsonl`),
// Cursor's agent transcripts and Factory Droid's session store (role + Anthropic content blocks),
// and Aider's Markdown chat history (each run appended to its repository's one file).
import crypto from 'node:crypto';
import path from 'node:path';
import { b64, clock, type ConversationSpec, type ConversationWriter, type Sink, type ToolCall } from './corpus-formats.js';

/** Where the agents of this file keep a session (see the adapters' defaultRoots). */
export function moreSessionPath(spec: Omit<ConversationSpec, 'rng'>): string {
  const { root, workspace, sessionId: id } = spec;
  const slug = workspace.replace(/^\//, '').replace(/[^a-zA-Z0-9]/g, '-');
  switch (spec.agent) {
    case 'gemini': {
      const hash = crypto.createHash('sha256').update(workspace).digest('hex');
      return path.join(root, '.gemini/tmp', hash, 'chats', `session-${spec.start.toISOString().slice(0, 16).replace(/:/g, '-')}-${id.slice(0, 8)}.jsonl`);
    }
    case 'copilot':
      return path.join(root, '.copilot/session-state', id, 'events.jsonl');
    case 'cursor':
      return path.join(root, '.cursor/projects', slug, 'agent-transcripts', `${id}.jsonl`);
    case 'droid':
      return path.join(root, '.factory/sessions', `-${slug}`, `${id}.jsonl`);
    case 'aider':
      return path.join(root, 'repos', workspace.replace(/^\//, ''), '.aider.chat.history.md');
    default:
      throw new Error(`no corpus format for ${spec.agent}`);
  }
}

export function moreWriter(spec: ConversationSpec, sink: Sink): ConversationWriter {
  switch (spec.agent) {
    case 'gemini':
      return geminiWriter(spec, sink);
    case 'copilot':
      return copilotWriter(spec, sink);
    case 'cursor':
    case 'droid':
      return blocksWriter(spec, sink);
    case 'aider':
      return aiderWriter(spec, sink);
    default:
      throw new Error(`no corpus format for ${spec.agent}`);
  }
}

const common = (sink: Sink) => ({ size: () => sink.size(), close: () => sink.close(), file: sink.file });

function geminiWriter(spec: ConversationSpec, sink: Sink): ConversationWriter {
  const { rng, sessionId } = spec;
  const next = clock(rng, spec.start);
  const projectHash = crypto.createHash('sha256').update(spec.workspace).digest('hex');
  sink.line({ sessionId, projectHash, startTime: spec.start.toISOString(), lastUpdated: spec.start.toISOString(), kind: 'main' });
  const tokens = () => ({ input: rng.int(800, 90000), output: rng.int(50, 4000), cached: 0, thoughts: 0, tool: 0, total: 0 });
  return {
    user: (text) => sink.line({ id: rng.uuid(), timestamp: next().toISOString(), type: 'user', content: [{ text }] }),
    assistant(text, tools, thinking) {
      const ts = next().toISOString();
      const toolCalls = tools.map((t) => {
        const id = `${t.name}_${rng.hex(8)}`;
        return { id, name: t.name === 'bash' ? 'run_shell_command' : t.name === 'read' ? 'read_file' : t.name === 'edit' ? 'replace' : 'search_file_content',
          args: t.args, result: [{ functionResponse: { id, name: t.name, response: { output: t.output } } }], status: t.error ? 'error' : 'success', timestamp: ts };
      });
      sink.line({ id: rng.uuid(), timestamp: ts, type: 'gemini', content: text ?? '', thoughts: thinking ? [{ subject: 'Plan', description: thinking, timestamp: ts }] : [],
        tokens: tokens(), model: 'gemini-2.5-pro', ...(toolCalls.length ? { toolCalls } : {}) });
      sink.line({ $set: { lastUpdated: ts } });
    },
    // Gemini's compression rewrites the history through $set.messages: not generated here.
    compaction: () => undefined,
    title: (name) => sink.line({ $set: { summary: name } }),
    ...common(sink),
  };
}

function copilotWriter(spec: ConversationSpec, sink: Sink): ConversationWriter {
  const { rng, sessionId, workspace } = spec;
  const next = clock(rng, spec.start);
  let parent: string | null = null;
  const event = (type: string, data: Record<string, unknown>): void => {
    const id = rng.uuid();
    sink.line({ type, data, id, timestamp: next().toISOString(), parentId: parent });
    parent = id;
  };
  event('session.start', { sessionId, version: 1, producer: 'copilot-agent', copilotVersion: '1.0.11', startTime: spec.start.toISOString(),
    context: { cwd: workspace, gitRoot: workspace, branch: 'main' }, alreadyInUse: false });
  let turn = 0;
  return {
    user: (text) => event('user.message', { content: text, transformedContent: text, attachments: [], interactionId: `int-${turn++}` }),
    assistant(text, tools, thinking) {
      if (thinking) event('assistant.reasoning', { reasoningId: rng.hex(8), content: thinking });
      const calls = tools.map((t) => ({ ...t, callId: `call_${rng.hex(12)}` }));
      event('assistant.message', { messageId: rng.uuid(), content: text ?? '', toolRequests: calls.map((c) => ({ toolCallId: c.callId, name: c.name, arguments: c.args, type: 'function' })) });
      for (const c of calls) {
        event('tool.execution_start', { toolCallId: c.callId, toolName: c.name, arguments: c.args });
        event('tool.execution_complete', { toolCallId: c.callId, success: !c.error, result: { content: c.output } });
      }
    },
    compaction: (summary) => event('session.compaction_complete', { success: true, summaryContent: summary }),
    title: () => undefined,
    ...common(sink),
  };
}

/** Cursor's transcripts and Droid's sessions: a role and Anthropic-style content blocks per line. */
function blocksWriter(spec: ConversationSpec, sink: Sink): ConversationWriter {
  const { rng, sessionId, workspace } = spec;
  const droid = spec.agent === 'droid';
  const next = clock(rng, spec.start);
  let parent = sessionId;
  const message = (role: 'user' | 'assistant', content: Record<string, unknown>[]): void => {
    if (!droid) return sink.line({ role, message: { content } });
    const id = rng.uuid();
    sink.line({ type: 'message', id, parentId: parent, timestamp: next().toISOString(), message: { role, content } });
    parent = id;
  };
  if (droid) sink.line({ type: 'session_start', id: sessionId, title: '', cwd: workspace, owner: 'user', version: '0.81.0' });
  return {
    // Cursor's CLI wraps what the user typed in <user_query>.
    user: (text) => message('user', [{ type: 'text', text: droid ? text : `<user_query>\n${text}\n</user_query>` }]),
    assistant(text, tools: ToolCall[], thinking) {
      const calls = tools.map((t) => ({ ...t, id: `toolu_${rng.hex(12)}` }));
      const content: Record<string, unknown>[] = [];
      if (thinking && droid) content.push({ type: 'thinking', thinking, signature: b64(rng, 200) });
      if (text) content.push({ type: 'text', text });
      for (const c of calls) content.push({ type: 'tool_use', id: c.id, name: droid ? 'Execute' : 'Shell', input: c.args });
      message('assistant', content);
      if (calls.length) message('user', calls.map((c) => ({ type: 'tool_result', tool_use_id: c.id, content: c.output, ...(c.error ? { is_error: true } : {}) })));
    },
    compaction: () => undefined,
    title: () => undefined,
    ...common(sink),
  };
}

/** `2025-03-04 05:06:07` in this machine's local time, as Aider writes its header. */
function localStamp(d: Date): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}`;
}

/** One Aider run appended to the repository's history: header, notices, `#### ` inputs, replies, `> ` notes. */
function aiderWriter(spec: ConversationSpec, sink: Sink): ConversationWriter {
  const { rng } = spec;
  const stamp = localStamp(spec.start);
  const note = (text: string) => sink.text(`${text.split('\n').map((l) => (l ? `> ${l}  ` : '>  ')).join('\n')}\n\n`);
  sink.text(`\n# aider chat started at ${stamp}\n\n`);
  note(`Aider v0.86.1\nModel: anthropic/claude-sonnet-4-5 with diff edit format\nGit repo: .git with ${rng.int(20, 900)} files\nRepo-map: using 4096 tokens, auto refresh`);
  return {
    id: `${sink.file}#${stamp.replace(' ', 'T')}`,
    user: (text) => sink.text(`${text.split('\n').map((l) => `#### ${l}  `).join('\n')}\n\n`),
    assistant(text, tools, thinking) {
      if (thinking) sink.text(`<thinking-content-7bbeb8e1441453ad999a0bbba8a46d4b>\n\n${thinking}\n\n</thinking-content-7bbeb8e1441453ad999a0bbba8a46d4b>\n\n`);
      if (text) sink.text(`${text}\n\n`);
      // Aider runs no tools of its own accord: the user's /run and Aider's edits stand for them.
      for (const t of tools) {
        if (t.name === 'bash') {
          sink.text(`#### /run ${t.args.command ?? ''}  \n\n`);
          note(t.output);
        } else if (t.name === 'edit') note(`Applied edit to ${t.args.path ?? 'file'}\nCommit ${rng.hex(7)} ${text?.slice(0, 60) ?? 'edit'}`);
        else note(`Added ${t.args.path ?? t.args.pattern ?? 'file'} to the chat.`);
      }
      note(`Tokens: ${rng.int(1, 90)}k sent, ${rng.int(1, 9)}.${rng.int(0, 9)}k received.`);
    },
    compaction: () => undefined,
    title: () => undefined,
    ...common(sink),
  };
}
