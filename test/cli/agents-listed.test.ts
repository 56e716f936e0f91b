// Every agent Throughline reads is counted by `stats` and named in the window: its badge (a label and
// a colour of its own), the agent filter and the Settings sources picker (both list SOURCE_LABEL's keys,
// see AgentOptions.tsx), and the status page's folders.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SOURCE_LABEL } from '../../src/renderer/src/lib/format.js';
import { SOURCE_KINDS } from '../../src/shared/types.js';
import { AGENT_FIXTURES } from '../helpers/agent-fixtures.js';
import { FIXTURES, useTmp } from '../helpers/tmp.js';
import { cli } from './helpers.js';

const tmp = useTmp('tl-agents-');

describe('every agent is listed', () => {
  it('stats counts each agent read from its real files, by name on a terminal and in --json', async () => {
    const home = tmp();
    const db = path.join(home, 'index.sqlite');
    const args = Object.entries(AGENT_FIXTURES).flatMap(([kind, rel]) => ['--source', `${kind}=${path.join(FIXTURES, rel)}`]);
    expect((await cli(home, ['index', '--db', db, ...args])).code).toBe(0);
    const stats = JSON.parse((await cli(home, ['stats', '--db', db, '--json'])).out) as { bySource: Record<string, number> };
    for (const kind of Object.keys(AGENT_FIXTURES)) expect(stats.bySource[kind], kind).toBeGreaterThan(0);
    const human = (await cli(home, ['stats', '--db', db], { tty: true, color: false })).out;
    for (const kind of Object.keys(AGENT_FIXTURES)) expect(human).toMatch(new RegExp(`^\\s+${kind}\\s+\\d+$`, 'm'));
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
