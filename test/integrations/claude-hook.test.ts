// `throughline hook claude` with the hook JSON Claude Code sends: the pointer block on a session's first
// prompt, nothing later, a history note after a compaction, and silence (exit 0) on any failure.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claudeHookOutput, isFirstPrompt, runClaudeHook } from '../../src/main/hook/claude.js';
import { startDaemon, type Daemon } from '../../src/main/daemon/daemon.js';
import { BIN, buildIndex, FIXTURES, runNode, tempDir, type TestIndex } from '../server/helpers.js';

const WORKSPACE = '/Users/User/repo/codemie-ai/codemie-code';
const INDEXED_SESSION = '3fb74381-1bf4-475e-8c6f-442d872b1bcf';
const PROMPT = 'show tools available in this session';
const PRIOR_TRANSCRIPT = path.join(FIXTURES, 'claude-code', 'codemie-main-4c2ddfdc.jsonl');

let index: TestIndex;
beforeAll(async () => {
  index = await buildIndex();
}, 30_000);

const submit = (extra: Record<string, unknown> = {}) => ({
  session_id: 'b0c1d2e3-0000-4000-8000-000000000001',
  transcript_path: path.join(index.dir, 'no-transcript-yet.jsonl'),
  cwd: WORKSPACE,
  permission_mode: 'default',
  hook_event_name: 'UserPromptSubmit',
  prompt: PROMPT,
  ...extra,
});

interface HookOutput {
  hookSpecificOutput: { hookEventName: string; additionalContext: string };
}

function runHook(input: string, socketPath = path.join(index.dir, 'none.sock'), dbPath = index.dbPath) {
  return runNode([BIN, 'hook', 'claude', '--db', dbPath, '--socket', socketPath], {
    input,
    env: { ...process.env, THROUGHLINE_SETTINGS: index.settingsPath, XDG_STATE_HOME: index.dir },
  });
}

describe('throughline hook claude (the command Claude Code runs)', () => {
  let daemon: Daemon;
  afterAll(async () => {
    await daemon?.close();
  });

  it('prints the pointer block on the first prompt, with or without a daemon; stays silent on junk', async () => {
    daemon = await startDaemon({ dbPath: index.dbPath, settingsPath: index.settingsPath, socketPath: path.join(index.dir, 'agent.sock'), log: false, watch: false });
    const [alone, viaDaemon, junk] = await Promise.all([
      runHook(JSON.stringify(submit())), // no daemon at this socket: the hook opens the index read-only
      runHook(JSON.stringify(submit()), daemon.socketPath),
      runHook('{"hook_event_name": "UserPromptSub'),
    ]);
    for (const r of [alone, viaDaemon]) {
      expect(r.code).toBe(0);
      const out = JSON.parse(r.stdout) as HookOutput;
      expect(out.hookSpecificOutput.hookEventName).toBe('UserPromptSubmit');
      expect(out.hookSpecificOutput.additionalContext).toContain('<recalled-conversations>');
      expect(out.hookSpecificOutput.additionalContext).toContain('show tools');
      expect(out.hookSpecificOutput.additionalContext).toContain('b0c1d2e3-0000-4000-8000-000000000001');
    }
    const { items } = await daemon.core.api.activity({ limit: 5 });
    expect(items.filter((i) => i.client === 'claude-code' && i.method === 'suggest')).toHaveLength(1);
    expect(junk).toMatchObject({ code: 0, stdout: '' });
    expect(fs.readFileSync(path.join(index.dir, 'throughline', 'hook.log'), 'utf8')).toMatch(/hook input refused: not JSON/);
  }, 30_000);
});

describe('a broken install', () => {
  it('still exits 0 from `hook`, while other commands fail loudly', async () => {
    // bin/throughline.mjs alone: neither the bundle nor the sources (nor tsx) are beside it.
    const dir = tempDir();
    try {
      fs.mkdirSync(path.join(dir, 'bin'));
      const bin = path.join(dir, 'bin', 'throughline.mjs');
      fs.copyFileSync(BIN, bin);
      const hook = await runNode([bin, 'hook', 'claude'], { input: JSON.stringify(submit()), env: { ...process.env, XDG_STATE_HOME: dir } });
      expect(hook).toMatchObject({ code: 0, stdout: '' });
      expect(hook.stderr).toMatch(/cannot load the CLI/);
      const other = await runNode([bin, 'status'], { input: '', env: process.env });
      expect(other.code).not.toBe(0);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the hook’s decisions', () => {
  const options = () => ({ dbPath: index.dbPath, socketPath: path.join(index.dir, 'none.sock'), settingsPath: index.settingsPath });

  it('never suggests the live conversation to itself', async () => {
    expect(await claudeHookOutput(submit({ session_id: INDEXED_SESSION }), options())).toBe('');
  });

  it('injects only before the first message: a transcript with an earlier prompt gets nothing', async () => {
    expect(await isFirstPrompt(PRIOR_TRANSCRIPT, PROMPT)).toBe(false);
    expect(await claudeHookOutput(submit({ transcript_path: PRIOR_TRANSCRIPT }), options())).toBe('');
    // A transcript that holds only this very prompt (written before the hook ran) is still a first prompt.
    const own = path.join(tempDir(), 't.jsonl');
    fs.writeFileSync(
      own,
      [
        { type: 'file-history-snapshot', messageId: 'm1' },
        { type: 'user', isMeta: true, message: { role: 'user', content: '<local-command-caveat>Caveat</local-command-caveat>' } },
        { type: 'user', message: { role: 'user', content: '<command-name>/clear</command-name>' } },
        { type: 'user', message: { role: 'user', content: [{ type: 'text', text: PROMPT }] } },
      ]
        .map((e) => JSON.stringify(e))
        .join('\n') + '\n',
    );
    expect(await isFirstPrompt(own, PROMPT)).toBe(true);
  });

  it('after a compaction, SessionStart gets the history note; other starts get nothing', async () => {
    const compact = await claudeHookOutput({ session_id: 's-1', hook_event_name: 'SessionStart', source: 'compact', transcript_path: PRIOR_TRANSCRIPT, cwd: WORKSPACE });
    const parsed = JSON.parse(compact) as HookOutput;
    expect(parsed.hookSpecificOutput.hookEventName).toBe('SessionStart');
    expect(parsed.hookSpecificOutput.additionalContext).toMatch(/history_search[\s\S]*"s-1"/);
    expect(await claudeHookOutput({ session_id: 's-1', hook_event_name: 'SessionStart', source: 'startup' })).toBe('');
  });

  it('prints nothing, and logs, when there is no index, or a prompt matches nothing', async () => {
    const logged: string[] = [];
    const missing = await runClaudeHook(JSON.stringify(submit()), { ...options(), dbPath: path.join(tempDir(), 'none.sqlite') }, (m) => logged.push(m));
    expect(missing).toBe('');
    expect(logged.join('\n')).toMatch(/No index/);
    expect(await claudeHookOutput(submit({ prompt: 'hello there' }), options())).toBe('');
  });
});
