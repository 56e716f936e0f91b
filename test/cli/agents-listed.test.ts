// Every agent Throughline reads is counted by `stats` and named in the window: its badge (a label and
// a colour of its own), the agent filter and the Settings sources picker (both list SOURCE_LABEL's keys,
// see AgentOptions.tsx), and the status page's folders.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SOURCE_LABEL } from '../../src/renderer/src/lib/format.js';
import { SOURCE_KINDS } from '../../src/shared/types.js';
import { FIXTURES, useTmp } from '../helpers/tmp.js';
import { cli } from './helpers.js';

const tmp = useTmp('tl-agents-');

/** One real fixture per agent, as `--source KIND=PATH` (a file given as a root is read whatever its name). */
const SOURCES: Record<Exclude<(typeof SOURCE_KINDS)[number], 'jsonl'>, string> = {
  pi: 'pi',
  'claude-code': 'claude-code',
  codex: 'codex',
  gemini: 'gemini/agent-sessions-jsonl_v040.jsonl',
  opencode: 'opencode/storage',
  copilot: 'copilot/session-state/aaaabbbb-1111-2222-3333-ccccddddeeee/events.jsonl',
  cursor: 'cursor/agent-sessions-test-session.jsonl',
  droid: 'droid',
  aider: 'aider/aider-hello-world-flask-2023-05-12.md',
};

describe('every agent is listed', () => {
  it('stats counts each agent read from its real files, by name on a terminal and in --json', async () => {
    const home = tmp();
    const db = path.join(home, 'index.sqlite');
    const args = Object.entries(SOURCES).flatMap(([kind, rel]) => ['--source', `${kind}=${path.join(FIXTURES, rel)}`]);
    expect((await cli(home, ['index', '--db', db, ...args])).code).toBe(0);
    const stats = JSON.parse((await cli(home, ['stats', '--db', db, '--json'])).out) as { bySource: Record<string, number> };
    for (const kind of Object.keys(SOURCES)) expect(stats.bySource[kind], kind).toBeGreaterThan(0);
    const human = (await cli(home, ['stats', '--db', db], { tty: true, color: false })).out;
    for (const kind of Object.keys(SOURCES)) expect(human).toMatch(new RegExp(`^\\s+${kind}\\s+\\d+$`, 'm'));
  });

  it('the window has a label and a badge colour (light and dark) for every agent', () => {
    const css = fs.readFileSync(path.resolve(__dirname, '../../src/renderer/src/styles/base.css'), 'utf8');
    for (const kind of SOURCE_KINDS) {
      expect(SOURCE_LABEL[kind], kind).toBeTruthy();
      expect(css.split(`.agent-${kind} {`).length - 1, kind).toBe(2);
    }
    expect(new Set(Object.values(SOURCE_LABEL)).size).toBe(SOURCE_KINDS.length);
  });
});
