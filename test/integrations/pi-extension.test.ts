// The pi extension, installed by `installPi` and loaded by pi's own extension discovery and runner
// (@mariozechner/pi-coding-agent), against a real daemon: it registers the tools, injects the pointer
// block before the first message only, and its history tools are bound to the session.
import fs from 'node:fs';
import path from 'node:path';
import { AuthStorage, discoverAndLoadExtensions, ExtensionRunner, ModelRegistry, SessionManager } from '@mariozechner/pi-coding-agent';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCore } from '../../src/main/api/core.js';
import { installPi } from '../../src/main/integrations/pi-install.js';
import { startDaemon, type Daemon } from '../../src/main/server/daemon.js';
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
});
