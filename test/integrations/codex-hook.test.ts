// Codex's turn-start path: `install codex` puts a UserPromptSubmit command hook in $CODEX_HOME/hooks.json
// (Claude Code's hooks schema, which Codex reads: codex-rs/config/src/hook_config.rs) beside the
// person's own hooks; Codex runs it through the person's shell with its hook JSON on stdin (session_id,
// turn_id, transcript_path, cwd, hook_event_name, model, permission_mode, prompt) and adds
// `hookSpecificOutput.additionalContext` to the turn. Checked on real Codex rollouts: the block comes
// before a session's first prompt only, and names the session for the history tools.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { codexIsFirstPrompt } from '../../src/main/hook/codex.js';
import { codexHooksPath, codexState, installCodex, uninstallCodex } from '../../src/main/integrations/codex-install.js';
import { BIN, buildIndex, FIXTURES, SHARED_TERM, tempDir, type TestIndex, WS_A } from '../server/helpers.js';

const CMD = { command: process.execPath, args: [BIN] };
/** Two prompts: "Hello, Codex! Please explain what you do." then "What languages can you work with?". */
const TWO_TURNS = path.join(FIXTURES, 'codex', 'codemie-turn-2-cli0.129.jsonl');
const FIRST = 'Hello, Codex! Please explain what you do.';

/** A hooks.json as Codex's documentation shows one: a PreToolUse policy hook of the person's. */
const THEIR_HOOKS = `{
  "hooks": {
    "PreToolUse": [
      {
        "matcher": "Bash",
        "hooks": [
          {
            "type": "command",
            "command": "/usr/bin/python3 ~/.codex/hooks/pre_tool_use_policy.py",
            "statusMessage": "Checking Bash command"
          }
        ]
      }
    ]
  }
}
`;

function codexHome(): NodeJS.ProcessEnv {
  const home = tempDir('tl-codex-home-');
  return { HOME: home, CODEX_HOME: path.join(home, '.codex'), XDG_DATA_HOME: path.join(home, 'data'), XDG_CONFIG_HOME: path.join(home, 'conf') };
}

/**
 * The rollout's lines before the first prompt (Codex's own context, a role:user item among them),
 * and with it when `withPrompt`: what Codex may have written when that prompt is submitted.
 */
function rolloutHead(dir: string, withPrompt: boolean): string {
  const lines = fs.readFileSync(TWO_TURNS, 'utf8').split('\n');
  const at = lines.findIndex((l) => l.includes('"user_message"'));
  const file = path.join(dir, `rollout-head-${withPrompt}.jsonl`);
  fs.writeFileSync(file, lines.slice(0, withPrompt ? at + 1 : at).join('\n') + '\n');
  return file;
}

describe('install codex: the UserPromptSubmit hook in hooks.json', () => {
  it('goes beside the person’s hooks, once; uninstall gives the very file back', () => {
    const env = codexHome();
    const file = codexHooksPath(env);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, THEIR_HOOKS);
    const report = installCodex({ env, command: CMD });
    expect(report.changed).toContain(file);
    expect(report.notes.join('\n')).toMatch(/trust .*\/hooks/);
    // Codex reads hooks.json with serde_json: plain JSON, no comments.
    const hooks = JSON.parse(fs.readFileSync(file, 'utf8')) as { hooks: Record<string, { matcher?: string; hooks: { type: string; command: string; timeout: number }[] }[]> };
    expect(hooks.hooks.PreToolUse).toEqual((JSON.parse(THEIR_HOOKS) as typeof hooks).hooks.PreToolUse);
    expect(hooks.hooks.UserPromptSubmit).toEqual([{ hooks: [{ type: 'command', command: `${process.execPath} ${BIN} hook codex`, timeout: 10 }] }]);
    expect(codexState(env).state).toBe('installed');

    const text = fs.readFileSync(file, 'utf8');
    expect(installCodex({ env, command: CMD }).changed).toEqual([]);
    expect(fs.readFileSync(file, 'utf8')).toBe(text);

    uninstallCodex({ env });
    expect(fs.readFileSync(file, 'utf8')).toBe(THEIR_HOOKS);
    expect(codexState(env).state).toBe('absent');
  });

  it('creates hooks.json when there is none and takes it away again; --dry-run writes nothing; a broken one is refused untouched', () => {
    const env = codexHome();
    const file = codexHooksPath(env);
    const dry = installCodex({ env, command: CMD, dryRun: true });
    expect(dry.changed).toContain(file);
    expect(fs.existsSync(file)).toBe(false);
    installCodex({ env, command: CMD });
    expect(fs.existsSync(file)).toBe(true);
    uninstallCodex({ env });
    expect(fs.existsSync(file)).toBe(false);

    fs.writeFileSync(file, '{ "hooks": ');
    const config = path.join(env.CODEX_HOME!, 'config.toml');
    const configBefore = fs.readFileSync(config, 'utf8');
    expect(() => installCodex({ env, command: CMD })).toThrow(/hooks\.json is not valid JSON .*Nothing was changed/);
    expect(fs.readFileSync(file, 'utf8')).toBe('{ "hooks": ');
    expect(fs.readFileSync(config, 'utf8')).toBe(configBefore);
  });
});

describe('the first prompt in a Codex rollout', () => {
  it('is told from the user_message events, not from Codex’s own role:user context', () => {
    const dir = tempDir();
    expect(codexIsFirstPrompt(rolloutHead(dir, false), FIRST)).toBe(true);
    expect(codexIsFirstPrompt(rolloutHead(dir, true), FIRST)).toBe(true);
    expect(codexIsFirstPrompt(rolloutHead(dir, true), 'a second prompt')).toBe(false);
    expect(codexIsFirstPrompt(TWO_TURNS, 'What languages can you work with?')).toBe(false);
    expect(codexIsFirstPrompt(path.join(dir, 'not-written-yet.jsonl'), FIRST)).toBe(true);
    // No rollout at all (an ephemeral session): a later prompt cannot be told apart, so nothing.
    expect(codexIsFirstPrompt(null, FIRST)).toBe(false);
  });
});

describe('the installed hook, run as Codex runs it', () => {
  let index: TestIndex;
  beforeAll(async () => {
    index = await buildIndex();
  }, 30_000);

  function runInstalled(transcript: string, prompt: string) {
    const env = codexHome();
    // No daemon here: the hook reads the index itself.
    const person = { ...env, THROUGHLINE_DB: index.dbPath, THROUGHLINE_SETTINGS: index.settingsPath, THROUGHLINE_SOCKET: path.join(index.dir, 'none.sock'), XDG_STATE_HOME: index.dir };
    installCodex({ env: person, command: CMD });
    const hooks = JSON.parse(fs.readFileSync(codexHooksPath(env), 'utf8')) as { hooks: { UserPromptSubmit: { hooks: { command: string }[] }[] } };
    const command = hooks.hooks.UserPromptSubmit[0]!.hooks[0]!.command;
    const input = JSON.stringify({
      session_id: '019c2a10-0000-7000-8000-0000000c0dec',
      turn_id: 'turn-1',
      transcript_path: transcript,
      cwd: WS_A,
      hook_event_name: 'UserPromptSubmit',
      model: 'gpt-5.1-codex',
      permission_mode: 'default',
      prompt,
    });
    // Codex runs a hook through the person's shell (`$SHELL -lc`), in the session's folder, with its own environment.
    return spawnSync('/bin/sh', ['-lc', command], { input, encoding: 'utf8', cwd: index.dir, env: { ...process.env, ...person }, timeout: 30_000 });
  }

  it('adds the pointer block to the first prompt, naming the session for the history tools', () => {
    const r = runInstalled(rolloutHead(tempDir(), false), `plan the ${SHARED_TERM} steps`);
    expect(r.status).toBe(0);
    const out = JSON.parse(r.stdout) as { hookSpecificOutput: { hookEventName: string; additionalContext: string } };
    expect(out.hookSpecificOutput.hookEventName).toBe('UserPromptSubmit');
    expect(out.hookSpecificOutput.additionalContext).toContain('<recalled-conversations>');
    expect(out.hookSpecificOutput.additionalContext).toContain('Throughline conversation "019c2a10-0000-7000-8000-0000000c0dec"');
  }, 30_000);

  it('prints nothing on a later prompt', () => {
    const r = runInstalled(TWO_TURNS, `plan the ${SHARED_TERM} steps`);
    expect(r.status).toBe(0);
    expect(r.stdout).toBe('');
  }, 30_000);
});
