// Auto-recall "at the start" (the default) or "every message" (settings autoRecallWhen), as the
// socket's `suggest` and the Claude Code and Gemini CLI hooks honour it: a later message gets a block
// only in every-message mode, and never a conversation already listed in that chat.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDaemon, type Daemon } from '../../src/main/daemon/daemon.js';
import { BIN, buildIndex, FIXTURES, runNode, SHARED_TERM, tempDir, type TestIndex, WS_A } from '../server/helpers.js';

let index: TestIndex;
let daemon: Daemon;
beforeAll(async () => {
  index = await buildIndex();
  daemon = await startDaemon({ dbPath: index.dbPath, settingsPath: index.settingsPath, socketPath: path.join(index.dir, 'agent.sock'), log: false, watch: false });
}, 30_000);
afterAll(async () => {
  await daemon?.close();
});

const setMode = (autoRecallWhen: 'start' | 'every') => daemon.core.api['settings.set']({ autoRecallWhen, scope: 'everywhere' });
const ids = (block: string) => [...block.matchAll(/\(id (\d+)/g)].map((m) => Number(m[1]));
const ask = (conversation: string, extra: object = {}) => daemon.core.api.suggest({ text: `plan the ${SHARED_TERM} steps`, workspace: WS_A, conversation, ...extra });

describe('suggest over the socket', () => {
  it('at the start (default): a conversation’s later message gets nothing, and says why', async () => {
    await setMode('start');
    const first = await ask('chat-start-1');
    expect(first.suggestions.length).toBeGreaterThan(0);
    const later = await ask('chat-start-1');
    expect(later.block).toBe('');
    expect(later.reason).toMatch(/autoRecallWhen/);
    // A caller that knows better says so.
    expect((await ask('chat-start-1', { first: true })).suggestions.length).toBeGreaterThan(0);
    expect((await ask('chat-start-2', { first: false })).block).toBe('');
  });

  it('every message: later messages are answered, leaving out what that chat was given', async () => {
    await setMode('every');
    try {
      const first = await ask('chat-every-1');
      const given = first.suggestions.map((s) => s.id);
      expect(given.length).toBeGreaterThan(0);
      const later = await ask('chat-every-1');
      for (const id of given) expect(later.suggestions.map((s) => s.id)).not.toContain(id);
      // Another chat is offered them again.
      expect((await ask('chat-every-2')).suggestions.map((s) => s.id)).toEqual(given);
    } finally {
      await setMode('start');
    }
  });
});

describe('the hooks', () => {
  const claude = (session: string, transcript: string) =>
    runNode([BIN, 'hook', 'claude', '--db', index.dbPath, '--socket', daemon.socketPath], {
      input: JSON.stringify({ session_id: session, transcript_path: transcript, cwd: WS_A, hook_event_name: 'UserPromptSubmit', prompt: `plan the ${SHARED_TERM} steps` }),
      env: { ...process.env, THROUGHLINE_SETTINGS: index.settingsPath, XDG_STATE_HOME: index.dir },
    });
  const laterTranscript = () => {
    const t = path.join(tempDir(), 't.jsonl');
    fs.writeFileSync(t, JSON.stringify({ type: 'user', message: { role: 'user', content: 'an earlier prompt' } }) + '\n');
    return t;
  };

  it('Claude Code, every message: a later prompt is asked too; the same conversation is not offered twice', async () => {
    await setMode('every');
    try {
      const first = await claude('hook-every-1', path.join(index.dir, 'none.jsonl'));
      const given = ids(JSON.parse(first.stdout).hookSpecificOutput.additionalContext);
      expect(given.length).toBeGreaterThan(0);
      const later = await claude('hook-every-1', laterTranscript());
      expect(later.code).toBe(0);
      if (later.stdout) for (const id of ids(JSON.parse(later.stdout).hookSpecificOutput.additionalContext)) expect(given).not.toContain(id);
      const asked = (await daemon.core.api.activity({ limit: 5 })).items.filter((i) => i.client === 'claude-code' && i.params.includes('hook-every-1'));
      expect(asked).toHaveLength(2);
    } finally {
      await setMode('start');
    }
  }, 30_000);

  it('Claude Code, at the start: a later prompt costs no call at all', async () => {
    const before = (await daemon.core.api.activity({ limit: 1 })).items[0]?.id ?? 0;
    const later = await claude('hook-start-1', laterTranscript());
    expect(later).toMatchObject({ code: 0, stdout: '' });
    expect((await daemon.core.api.activity({ limit: 1 })).items[0]?.id ?? 0).toBe(before);
  }, 30_000);

  it('Gemini CLI: BeforeAgent gets the block before the first message, as additionalContext; not after one', async () => {
    const gemini = (transcript: string) =>
      runNode([BIN, 'hook', 'gemini', '--db', index.dbPath, '--socket', daemon.socketPath], {
        input: JSON.stringify({ session_id: 'gem-1', transcript_path: transcript, cwd: WS_A, hook_event_name: 'BeforeAgent', timestamp: new Date().toISOString(), prompt: `plan the ${SHARED_TERM} steps` }),
        env: { ...process.env, THROUGHLINE_SETTINGS: index.settingsPath, XDG_STATE_HOME: index.dir },
      });
    const [fresh, jsonl, legacy] = await Promise.all([
      gemini(path.join(index.dir, 'gemini-none.jsonl')),
      gemini(path.join(FIXTURES, 'gemini', 'agent-sessions-jsonl_v040.jsonl')),
      gemini(path.join(FIXTURES, 'gemini', 'session-2026-01-16T11-01-file-ops-37b7abef.json')),
    ]);
    const out = JSON.parse(fresh.stdout) as { hookSpecificOutput: { hookEventName: string; additionalContext: string } };
    expect(out.hookSpecificOutput.hookEventName).toBe('BeforeAgent');
    expect(out.hookSpecificOutput.additionalContext).toContain('<recalled-conversations>');
    expect(out.hookSpecificOutput.additionalContext).toContain('"gem-1"');
    // Both transcript forms already hold a user message: later prompts get nothing.
    expect(jsonl).toMatchObject({ code: 0, stdout: '' });
    expect(legacy).toMatchObject({ code: 0, stdout: '' });
  }, 30_000);
});
