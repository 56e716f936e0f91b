// The pi extension, installed by `installPi` and loaded by pi's own extension discovery and runner
// (@mariozechner/pi-coding-agent), against a real daemon: it registers the tools, injects the pointer
// block before the first message only, and its history tools are bound to the session.
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fauxAssistantMessage, fauxToolCall, registerFauxProvider, type AssistantMessage, type Context } from '@mariozechner/pi-ai';
import {
  AuthStorage,
  createAgentSession,
  DefaultResourceLoader,
  discoverAndLoadExtensions,
  ExtensionRunner,
  ModelRegistry,
  SessionManager,
  SettingsManager,
} from '@mariozechner/pi-coding-agent';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCore } from '../../src/main/api/core.js';
import { createReader } from '../../src/main/store/read.js';
import { parseToolCard } from '../../src/shared/tool-cards.js';
import { openDb } from '../../src/main/store/db.js';
import { installPi } from '../../src/main/integrations/pi-install.js';
import { startDaemon, type Daemon } from '../../src/main/daemon/daemon.js';
import { buildIndex, FIXTURES, SHARED_TERM, tempDir, type TestIndex } from '../server/helpers.js';

const WORKSPACE = '/Users/User/repo/codemie-ai/codemie-code';
const PROMPT = 'show tools available in this session';

let index: TestIndex;
let daemon: Daemon;
let agentDir: string;
let sessionFile: string;
const savedSocket = process.env.THROUGHLINE_SOCKET;

beforeAll(async () => {
  index = await buildIndex();
  // A pi session of our own (a copy of a fixture), indexed, for the history tools.
  const sessions = tempDir();
  sessionFile = path.join(sessions, 'session.jsonl');
  // A new session id, so the copy is its own conversation rather than the fixture's twin.
  const fixture = fs.readFileSync(path.join(FIXTURES, 'pi', 'agent-sessions-pi-small-v3.jsonl'), 'utf8');
  fs.writeFileSync(sessionFile, fixture.replace('019e19b4-eb48-746a-aa6b-8dfcfa37954b', '019e19b4-0000-7000-8000-00000000beef'));
  const core = createCore({ dbPath: index.dbPath, settingsPath: index.settingsPath, sources: [{ kind: 'pi', root: sessions }] });
  await core.scan();
  core.close();
  daemon = await startDaemon({ dbPath: index.dbPath, settingsPath: index.settingsPath, socketPath: path.join(index.dir, 'agent.sock'), log: false, watch: false });
  process.env.THROUGHLINE_SOCKET = daemon.socketPath;
  agentDir = tempDir();
  installPi({ env: { ...process.env, PI_CODING_AGENT_DIR: agentDir } });
}, 60_000);

afterAll(async () => {
  if (savedSocket === undefined) delete process.env.THROUGHLINE_SOCKET;
  else process.env.THROUGHLINE_SOCKET = savedSocket;
  await daemon?.close();
});

async function loadRunner(sessionManager: SessionManager) {
  const loaded = await discoverAndLoadExtensions([], sessionManager.getCwd(), agentDir);
  expect(loaded.errors).toEqual([]);
  expect(loaded.extensions.map((e) => path.basename(e.path))).toEqual(['throughline.ts']);
  const registry = ModelRegistry.inMemory(AuthStorage.inMemory());
  return new ExtensionRunner(loaded.extensions, loaded.runtime, sessionManager.getCwd(), sessionManager, registry);
}

const textOf = (r: { content: { type: string; text?: string }[] }) => r.content.map((c) => c.text ?? '').join('');

describe('the pi extension, loaded by pi', () => {
  it('registers the recall and history tools', async () => {
    const runner = await loadRunner(SessionManager.inMemory(WORKSPACE));
    expect(runner.getAllRegisteredTools().map((t) => t.definition.name).sort()).toEqual(
      ['conversation_inspect', 'history_handoff', 'history_read', 'history_search', 'read_conversation', 'recall_conversations'].sort(),
    );
  });

  it('injects the pointer block before the first message, and not after', async () => {
    const session = SessionManager.inMemory(WORKSPACE);
    const runner = await loadRunner(session);
    const first = await runner.emitBeforeAgentStart(PROMPT, undefined, 'system', { cwd: WORKSPACE } as never);
    expect(first?.messages?.[0]?.customType).toBe('throughline');
    expect(String(first?.messages?.[0]?.content)).toContain('<recalled-conversations>');
    session.appendMessage({ role: 'user', content: [{ type: 'text', text: PROMPT }], timestamp: Date.now() });
    const second = await runner.emitBeforeAgentStart(PROMPT, undefined, 'system', { cwd: WORKSPACE } as never);
    expect(second?.messages ?? []).toEqual([]);
    const { items } = await daemon.core.api.activity({ limit: 1 });
    expect(items[0]).toMatchObject({ client: 'pi', method: 'suggest' });
  });

  it('recalls and reads through the socket', async () => {
    const runner = await loadRunner(SessionManager.inMemory(WORKSPACE));
    const ctx = runner.createContext();
    const recall = await runner.getToolDefinition('recall_conversations')!.execute('t1', { query: SHARED_TERM, workspace: 'all' }, undefined, undefined, ctx);
    expect(textOf(recall)).toContain('migration plan');
    const read = await runner.getToolDefinition('read_conversation')!.execute('t2', { conversation_id: index.a }, undefined, undefined, ctx);
    expect(textOf(read)).toContain('three steps');
  });

  it('binds the history tools to its own session', async () => {
    const runner = await loadRunner(SessionManager.open(sessionFile));
    const ctx = runner.createContext();
    const found = await runner.getToolDefinition('history_search')!.execute('t3', { query: 'greeting', before: 1000 }, undefined, undefined, ctx);
    expect(textOf(found)).toMatch(/greeting/);
    const tail = await runner.getToolDefinition('history_read')!.execute('t4', { mode: 'range', from: 0 }, undefined, undefined, ctx);
    expect(textOf(tail)).toContain('hello.py');
  });

  it('leaves its own session out of recall_conversations', async () => {
    const runner = await loadRunner(SessionManager.open(sessionFile));
    const ctx = runner.createContext();
    const own = (await daemon.core.api['conversations.get']({ conversation_id: sessionFile })).conversation.id;
    // The session's own words: asked without the exclusion, it is a hit.
    const unexcluded = await daemon.core.api.recall_conversations({ query: 'hello.py', workspace: 'all' });
    expect(unexcluded.hits.map((h) => h.id)).toContain(own);
    const r = textOf(await runner.getToolDefinition('recall_conversations')!.execute('t6', { query: 'hello.py', workspace: 'all' }, undefined, undefined, ctx));
    expect(r).not.toContain(`id ${own},`);
    const { items } = await daemon.core.api.activity({ limit: 1 });
    expect(items[0]).toMatchObject({ client: 'pi', method: 'recall_conversations' });
    expect(items[0]!.conversations).not.toContain(own);
  });

  it('with auto-recall on every message, offers on later prompts too, never the same conversation twice in a session', async () => {
    await daemon.core.api['settings.set']({ autoRecallWhen: 'every' });
    try {
      const session = SessionManager.inMemory(WORKSPACE);
      const runner = await loadRunner(session);
      const first = await runner.emitBeforeAgentStart(PROMPT, undefined, 'system', { cwd: WORKSPACE } as never);
      const note = first!.messages![0]!;
      expect(String(note.content)).toContain('<recalled-conversations>');
      const listed = (note.details as { listed: number[] }).listed;
      expect(listed.length).toBeGreaterThan(0);
      // pi keeps the note in the session; then the person's message.
      session.appendCustomMessageEntry('throughline', note.content as string, true, note.details);
      session.appendMessage({ role: 'user', content: [{ type: 'text', text: PROMPT }], timestamp: Date.now() });
      const before = (await daemon.core.api.activity({ limit: 1 })).items[0]!.id;
      await runner.emitBeforeAgentStart(PROMPT, undefined, 'system', { cwd: WORKSPACE } as never);
      // The later prompt was asked (every message), and got none of what the first one listed.
      const [asked] = (await daemon.core.api.activity({ limit: 1 })).items;
      expect(asked).toMatchObject({ client: 'pi', method: 'suggest' });
      expect(asked!.id).toBeGreaterThan(before);
      for (const id of listed) expect(asked!.conversations).not.toContain(id);
      // Another session is a chat of its own: the same conversations are offered to it.
      const other = await (await loadRunner(SessionManager.inMemory(WORKSPACE))).emitBeforeAgentStart(PROMPT, undefined, 'system', { cwd: WORKSPACE } as never);
      expect((other!.messages![0]!.details as { listed: number[] }).listed).toEqual(listed);
    } finally {
      await daemon.core.api['settings.set']({ autoRecallWhen: 'start' });
    }
  });

  it('does not hold up a prompt on a stopped daemon, and Esc cancels a tool’s wait', async () => {
    // A socket that accepts and never answers: what a SIGSTOPped daemon looks like.
    const dir = tempDir();
    const silent = net.createServer(() => {});
    await new Promise<void>((r) => silent.listen(path.join(dir, 'silent.sock'), r));
    process.env.THROUGHLINE_SOCKET = path.join(dir, 'silent.sock');
    try {
      const runner = await loadRunner(SessionManager.inMemory(WORKSPACE));
      const t0 = Date.now();
      expect(await runner.emitBeforeAgentStart(PROMPT, undefined, 'system', { cwd: WORKSPACE } as never)).toBeUndefined();
      expect(Date.now() - t0).toBeLessThan(1500);
      const abort = new AbortController();
      setTimeout(() => abort.abort(), 100);
      const t1 = Date.now();
      await expect(runner.getToolDefinition('recall_conversations')!.execute('t7', { query: 'x' }, abort.signal, undefined, runner.createContext())).rejects.toThrow(/Cancelled/);
      expect(Date.now() - t1).toBeLessThan(900);
    } finally {
      process.env.THROUGHLINE_SOCKET = daemon.socketPath;
      silent.close();
    }
  });

  it('fails its tools with a clear message, and skips the block silently, when Throughline is not running', async () => {
    process.env.THROUGHLINE_SOCKET = path.join(tempDir(), 'nothing.sock');
    try {
      const runner = await loadRunner(SessionManager.inMemory(WORKSPACE));
      expect(await runner.emitBeforeAgentStart(PROMPT, undefined, 'system', { cwd: WORKSPACE } as never)).toBeUndefined();
      await expect(runner.getToolDefinition('recall_conversations')!.execute('t5', { query: 'x' }, undefined, undefined, runner.createContext())).rejects.toThrow(
        /Throughline is not running/,
      );
    } finally {
      process.env.THROUGHLINE_SOCKET = daemon.socketPath;
    }
  });

  describe('history_handoff in a real pi session (p2: "ends the round, starts a new generation with text as its first user message")', () => {
    const HANDOFF = 'Goal: the quokka importer. State: csv parsing works. Next: parse the dates. Files: src/quokka.ts.';
    const faux = registerFauxProvider();
    afterAll(() => faux.unregister());

    /** A pi AgentSession with the installed extension, on a session file, answered by pi's faux model. */
    async function piSession(sessionManager: SessionManager) {
      const cwd = sessionManager.getCwd();
      const loader = new DefaultResourceLoader({ cwd, agentDir });
      await loader.reload();
      const authStorage = AuthStorage.inMemory();
      authStorage.setRuntimeApiKey('faux', 'test');
      const { session } = await createAgentSession({
        cwd,
        agentDir,
        model: faux.getModel(),
        authStorage,
        modelRegistry: ModelRegistry.inMemory(authStorage),
        resourceLoader: loader,
        sessionManager,
        settingsManager: SettingsManager.inMemory({ compaction: { enabled: false } }),
      });
      return session;
    }
    /** What the model was given on each call. */
    const contexts: Context['messages'][] = [];
    const answer = (reply: AssistantMessage) => (ctx: Context) => {
      contexts.push(structuredClone(ctx.messages));
      return reply;
    };
    const said = (m: Context['messages'][number]) => (typeof m.content === 'string' ? m.content : m.content.map((c) => ('text' in c ? c.text : '')).join(''));

    it('ends the round and starts a new context holding only the handoff; Throughline reads it as the boundary', async () => {
      const cwd = tempDir();
      const sessions = tempDir();
      const session = await piSession(SessionManager.create(cwd, sessions));
      faux.setResponses([
        answer(fauxAssistantMessage('The quokka importer parses csv with a streaming reader.')),
        answer(fauxAssistantMessage(fauxToolCall('history_handoff', { text: HANDOFF }), { stopReason: 'toolUse' })),
        answer(fauxAssistantMessage('Continuing: parsing the dates next.')),
      ]);
      await session.prompt('build the quokka importer');
      await session.prompt('this context is getting long, hand off');
      // Three model calls: the round ended at the handoff (no call with the old context after the tool
      // result), and the new generation started by itself with the handoff text as its first message.
      expect(faux.state.callCount).toBe(3);
      expect(contexts[1]!.map(said)).toContain('build the quokka importer');
      expect(contexts[2]!.map((m) => [m.role, said(m)])).toEqual([['user', HANDOFF]]);

      // The handoff is in pi's own session file, so Throughline indexes it as the reset boundary.
      const file = session.sessionManager.getSessionFile()!;
      const indexer = createCore({ dbPath: index.dbPath, settingsPath: index.settingsPath, sources: [{ kind: 'pi', root: sessions }] });
      await indexer.scan();
      indexer.close();
      const db = openDb(index.dbPath, { readonly: true });
      const reader = createReader(db);
      const conv = reader.conversation(file)!;
      const boundary = reader.boundary(conv.id)!;
      const [reset] = reader.entries(conv.id, boundary, boundary, 1);
      expect(reset).toMatchObject({ kind: 'reset', text: HANDOFF, author: 'throughline-handoff' });
      db.close();

      // In the new context, history_read tail (through the socket) returns what came right before it.
      faux.setResponses([
        answer(fauxAssistantMessage(fauxToolCall('history_read', { mode: 'tail', count: 3 }), { stopReason: 'toolUse' })),
        answer(fauxAssistantMessage('Found it.')),
      ]);
      await session.prompt('what did the importer use for csv?');
      const after = contexts.at(-1)!;
      // The handoff, its first answer, the new prompt, the tool call and its result: nothing older.
      expect(after.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant', 'toolResult']);
      expect(said(after[0]!)).toBe(HANDOFF);
      const tail = said(after.find((m) => m.role === 'toolResult')!);
      expect(tail).toContain(`entries before #${boundary}`);
      expect(tail).toContain('streaming reader');
      session.dispose();

      // Both answers, as pi stored them, read back as the transcript's cards (issue 17 §9): the handoff
      // says the new context started, the tail lists the entries it read.
      const again = createCore({ dbPath: index.dbPath, settingsPath: index.settingsPath, sources: [{ kind: 'pi', root: sessions }] });
      await again.scan();
      again.close();
      const stored = openDb(index.dbPath, { readonly: true });
      const results = createReader(stored).entries(conv.id, 0, Number.MAX_SAFE_INTEGER, 500).filter((e) => e.kind === 'tool_result');
      stored.close();
      expect(results.map((e) => parseToolCard(e.toolName, e.text))).toMatchObject([
        { tool: 'history_handoff', reset: true },
        { tool: 'history_read', conversation: conv.id, what: `tail: 3 entries before #${boundary}` },
      ]);

      // pi restarted on the same file: the new context still starts at the handoff.
      const reopened = await piSession(SessionManager.open(file));
      faux.setResponses([answer(fauxAssistantMessage('Still here.'))]);
      await reopened.prompt('go on');
      expect(said(contexts.at(-1)![0]!)).toBe(HANDOFF);
      expect(contexts.at(-1)!.filter((m) => m.role === 'user').map(said)).toEqual([HANDOFF, 'what did the importer use for csv?', 'go on']);
      reopened.dispose();
    }, 60_000);
  });
});
