// Terminal escape injection (issue 11, item 3): a transcript, a title, a workspace, a session file's
// name or a socket client's `auth` name carrying ESC]52 (writes the clipboard), ESC]8 (disguises a
// link), ESC[1A ESC[2K (rewrites earlier output), C1 controls (0x9b is CSI on some terminals) or bidi
// overrides reaches a person's terminal only as visible text — from every command that prints text,
// on a terminal and off it. --json keeps the data exactly (JSON escapes what JSON must).
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectRpc } from '../../src/main/client/socket-client.js';
import { startDaemon } from '../../src/main/daemon/daemon.js';
import { escapeControls } from '../../src/main/cli/terminal.js';
import { useTmp } from '../helpers/tmp.js';
import { cli, type RunOptions } from './helpers.js';

const OSC52 = '\x1b]52;c;cm0gLXJmIH4=\x07';
const OSC8 = '\x1b]8;;https://evil.example/\x1b\\docs\x1b]8;;\x1b\\';
const REWRITE = '\x1b[1A\x1b[2K';
const TITLE = `Deploy ${OSC52}notes`;
const WORKSPACE = `/w/${REWRITE}hostile`;
const USER_TEXT = `read ${OSC8} then ${REWRITE}deployhostile \u202eevil\u202c \u2066iso\u2069 \x9b31mcsi \x07bell\rreturn`;
const AGENT = `evil-agent${OSC52}\u202e`;

// Our own colours: bold, dim, yellow, magenta, cyan and their resets. Anything else after an ESC leaked.
const OURS = /\x1b\[(1|2|22|33|35|36|39)m/g;

/** Nothing in `text` a terminal would obey, but our own colours (where colour is on). */
function expectHarmless(text: string, where: string): void {
  const rest = text.replace(OURS, '');
  const bad = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/.exec(rest);
  expect(bad ? `${where}: U+${bad[0].charCodeAt(0).toString(16)} at …${JSON.stringify(rest.slice(Math.max(0, bad.index - 30), bad.index + 10))}` : null).toBeNull();
}

const MODES: [string, RunOptions][] = [
  ['off a terminal', { tty: false }],
  ['a terminal, NO_COLOR', { tty: true, color: false }],
  ['a terminal, colour', { tty: true, color: true }],
];

const tmp = useTmp('tl-hostile-');

function hostileCopy(): string {
  const file = path.join(tmp(), `index${REWRITE}.sqlite`);
  fs.copyFileSync(db, file);
  return file;
}
let home: string;
let db: string;
let src: string;

describe('terminal escape injection', () => {
  beforeAll(async () => {
    home = fs.mkdtempSync(path.join(process.env.TMPDIR ?? '/tmp', 'tl-hostile-'));
    db = path.join(home, 'index.sqlite');
    src = path.join(home, 'import');
    fs.mkdirSync(src);
    const lines = [
      { type: 'conversation', id: 'hostile', workspace: WORKSPACE, title: TITLE },
      { type: 'message', role: 'user', text: USER_TEXT },
      { type: 'message', role: 'assistant', text: `ok deployhostile ${OSC52} \x1b[31mred`, author: `bot${REWRITE}` },
      { type: 'compaction', text: `summary deployhostile ${OSC8}` },
      { type: 'message', role: 'user', text: 'after the compaction' },
    ];
    fs.writeFileSync(path.join(src, 'hostile.jsonl'), lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
    // A session file whose very name is hostile, with one broken line: `index` names it in its report.
    fs.writeFileSync(path.join(src, `bad${REWRITE}name.jsonl`), '{"type":"conversation","id":"x"}\n{not json\n');
    // A socket client names itself with escapes; the activity log keeps the name.
    const daemon = await startDaemon({ dbPath: db, settingsPath: path.join(home, 'settings.json'), socketPath: path.join(home, 's.sock'), log: false, watch: false, sources: [{ kind: 'jsonl', root: src }] });
    try {
      await daemon.core.scan();
      const client = await connectRpc(daemon.socketPath, { client: AGENT });
      await client.call('recall_conversations', { query: 'deployhostile', workspace: 'all' });
      client.close();
    } finally {
      await daemon.close();
    }
  });
  afterAll(() => fs.rmSync(home, { recursive: true, force: true }));

  const commands: [string, () => string[]][] = [
    // A fresh index each time, so the broken line in the hostile-named file is reported each time.
    ['index', () => ['index', '--db', path.join(tmp(), 'index.sqlite'), '--source', `jsonl=${src}`]],
    ['search', () => ['search', '--db', db, '--', 'deployhostile']],
    ['read', () => ['read', '--db', db, '--detail', 'full', 'hostile']],
    ['inspect', () => ['inspect', '--db', db, '--query', 'deployhostile', 'hostile']],
    ['history search', () => ['history', 'search', '--db', db, '--conversation', 'hostile', '--before', '99', '--', 'deployhostile']],
    ['history read', () => ['history', 'read', '--db', db, '--conversation', 'hostile', '--from', '0']],
    ['suggest', () => ['suggest', '--db', db, '--scope', 'everywhere', '--sensitivity', 'broad', '--', 'deployhostile notes deploy']],
    ['activity', () => ['activity', '--db', db]],
    // The index's own path is printed: one named with escapes (a copy of the index).
    ['stats', () => ['stats', '--db', hostileCopy()]],
  ];

  for (const [name, args] of commands) {
    it(`${name} prints the escapes as text, on a terminal and off it`, async () => {
      for (const [mode, options] of MODES) {
        const r = await cli(home, args(), options);
        expect(r.code, `${name} (${mode}): ${r.err}`).toBe(0);
        expectHarmless(r.out, `${name} (${mode}) stdout`);
        expectHarmless(r.err, `${name} (${mode}) stderr`);
      }
    });
  }

  it('the hostile text is there, visibly: the person can see what was attempted', async () => {
    const read = (await cli(home, ['read', '--db', db, '--detail', 'full', 'hostile'], { tty: true, color: false })).out;
    expect(read).toContain(escapeControls(TITLE));
    expect(read).toContain('\\x1b]52;c;cm0gLXJmIH4=\\x07');
    expect(read).toContain('\\x1b[1A\\x1b[2K');
    expect(read).toContain('\\u202eevil\\u202c');
    expect(read).toContain('\\x9b31mcsi');
    const activity = (await cli(home, ['activity', '--db', db], { tty: true, color: false })).out;
    expect(activity).toContain(escapeControls(AGENT));
    const index = await cli(home, ['index', '--db', path.join(home, 'again.sqlite'), '--source', `jsonl=${src}`]);
    expect(index.out).toContain(`bad\\x1b[1A\\x1b[2Kname.jsonl:2`);
  });

  it('--json keeps the data exactly', async () => {
    const read = JSON.parse((await cli(home, ['read', '--db', db, '--json', '--detail', 'full', 'hostile'])).out) as { conversation: { title: string; workspace: string }; turns: { text: string }[] };
    expect(read.conversation.title).toBe(TITLE);
    expect(read.conversation.workspace).toBe(WORKSPACE);
    expect(read.turns[0]!.text).toBe(USER_TEXT);
    const activity = JSON.parse((await cli(home, ['activity', '--db', db, '--json'])).out) as { items: { client: string }[] };
    expect(activity.items.map((i) => i.client)).toContain(AGENT);
  });

  it('forget names the conversation it removed, escaped', async () => {
    const home2 = tmp();
    const db2 = path.join(home2, 'index.sqlite');
    expect((await cli(home2, ['index', '--db', db2, '--source', `jsonl=${src}`])).code).toBe(0);
    const r = await cli(home2, ['forget', '--db', db2, WORKSPACE], { tty: true });
    expect(r.code, r.err).toBe(0);
    expectHarmless(r.out, 'forget');
    expect(r.out).toContain(escapeControls(TITLE));
  });
});
