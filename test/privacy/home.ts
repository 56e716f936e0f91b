// A fake HOME holding real session files of each agent in its default folder, the CLI run against it
// in-process, and lines appended to those files in each agent's own format (as the agent would).
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { main } from '../../src/main/cli/main.js';
import { FIXTURES } from '../helpers/tmp.js';

export interface FakeHome {
  dir: string;
  env: NodeJS.ProcessEnv;
  db: string;
  settings: string;
  /** Runs `throughline ARGS` against this HOME; stdout and stderr together. */
  cli(args: string[]): Promise<{ code: number; out: string }>;
  /** Ids of the conversations whose text matches `word` (throughline search --json). */
  search(word: string): Promise<number[]>;
}

export function fakeHome(): FakeHome {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tl-home-'));
  const env: NodeJS.ProcessEnv = {
    HOME: dir,
    XDG_CONFIG_HOME: path.join(dir, '.config'),
    XDG_DATA_HOME: path.join(dir, '.local', 'share'),
    XDG_STATE_HOME: path.join(dir, '.local', 'state'),
    XDG_RUNTIME_DIR: path.join(dir, 'run'),
  };
  const home: FakeHome = {
    dir,
    env,
    db: path.join(dir, '.local', 'share', 'throughline', 'index.sqlite'),
    settings: path.join(dir, '.config', 'throughline', 'settings.json'),
    async cli(args) {
      let out = '';
      const io = { out: (t: string) => void (out += t), err: (t: string) => void (out += t), isTTY: false, env };
      const code = await main(args, io);
      return { code, out };
    },
    async search(word) {
      const r = await home.cli(['search', '--json', '--', word]);
      if (r.code !== 0) throw new Error(r.out);
      return (JSON.parse(r.out) as { hits: { id: number }[] }).hits.map((h) => h.id);
    },
  };
  return home;
}

export interface AgentFile {
  kind: 'pi' | 'claude-code' | 'codex' | 'jsonl';
  /** The session file in the fake HOME. */
  file: string;
  /** The workspace the fixture records. */
  workspace: string;
  /** Appends one user message holding `text`, in the agent's own format. */
  append(text: string): void;
}

const lines = (file: string) => fs.readFileSync(file, 'utf8').split('\n').filter((l) => l.trim());
const put = (file: string, from: string) => {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.copyFileSync(from, file);
};
const now = () => new Date().toISOString();

/** A copy of a real pi v3 session; appended lines continue its tree. */
export function piSession(home: FakeHome): AgentFile {
  const file = path.join(home.dir, '.pi', 'agent', 'sessions', '--tmp-as-agent-fixture-project--', '2026-05-12T01-02-27-657Z_019e19b4.jsonl');
  put(file, path.join(FIXTURES, 'pi', 'agent-sessions-pi-small-v3.jsonl'));
  return {
    kind: 'pi',
    file,
    workspace: '/tmp/as-agent-fixture/project',
    append(text) {
      const last = JSON.parse(lines(file).at(-1)!) as { id: string };
      const id = crypto.randomBytes(4).toString('hex');
      const line = { type: 'message', id, parentId: last.id, timestamp: now(), message: { role: 'user', content: [{ type: 'text', text }], timestamp: Date.now() } };
      fs.appendFileSync(file, JSON.stringify(line) + '\n');
    },
  };
}

/** A copy of a real Claude Code session; an appended line carries the session's cwd, as Claude's do. */
export function claudeSession(home: FakeHome): AgentFile {
  const source = path.join(FIXTURES, 'claude-code', 'episodic-short-conversation.jsonl');
  const first = lines(source)
    .map((l) => JSON.parse(l) as { sessionId?: string; cwd?: string })
    .find((o) => o.sessionId && o.cwd) as { sessionId: string; cwd: string };
  const file = path.join(home.dir, '.claude', 'projects', '-Users-testuser-worktrees', `${first.sessionId}.jsonl`);
  put(file, source);
  return {
    kind: 'claude-code',
    file,
    workspace: first.cwd,
    append(text) {
      const last = JSON.parse(lines(file).at(-1)!) as Record<string, unknown>;
      const line = {
        parentUuid: last.uuid,
        isSidechain: false,
        userType: 'external',
        cwd: first.cwd,
        sessionId: first.sessionId,
        version: last.version,
        type: 'user',
        message: { role: 'user', content: text },
        uuid: crypto.randomUUID(),
        timestamp: now(),
      };
      fs.appendFileSync(file, JSON.stringify(line) + '\n');
    },
  };
}

/** A copy of a real Codex rollout. */
export function codexSession(home: FakeHome): AgentFile {
  const name = 'rollout-2026-01-02T18-39-45-019b7f94-51b4-7593-922e-ba12b5b73b52.jsonl';
  const file = path.join(home.dir, '.codex', 'sessions', '2026', '01', '02', name);
  put(file, path.join(FIXTURES, 'codex', name));
  return {
    kind: 'codex',
    file,
    workspace: '/Users/Nikita_Levyankov/repos/EPMCDME/codemie-ai/codemie-code',
    append(text) {
      const line = { timestamp: now(), type: 'response_item', payload: { type: 'message', role: 'user', content: [{ type: 'input_text', text }] } };
      fs.appendFileSync(file, JSON.stringify(line) + '\n');
    },
  };
}

/** An import file (docs/import-format.md) as the repro writes it. */
export function importFile(home: FakeHome, id = 'secret-three', workspace = '/secret/three'): AgentFile {
  const file = path.join(home.dir, '.local', 'share', 'throughline', 'import', `${id}.jsonl`);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, JSON.stringify({ type: 'conversation', id, workspace }) + '\n' + JSON.stringify({ type: 'message', role: 'user', text: 'the first message of the secret work' }) + '\n');
  return {
    kind: 'jsonl',
    file,
    workspace,
    append(text) {
      fs.appendFileSync(file, JSON.stringify({ type: 'message', role: 'user', text }) + '\n');
    },
  };
}
