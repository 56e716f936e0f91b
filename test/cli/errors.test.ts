// How the CLI answers mistakes: one line naming the subcommand (JSON with --json), --version, and
// `history` without a subcommand listing them.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTmp } from '../helpers/tmp.js';
import { cli } from './helpers.js';

const tmp = useTmp('tl-errors-');

describe('CLI errors and --version', () => {
  it('--version prints the package version', async () => {
    const version = (JSON.parse(fs.readFileSync(path.resolve(__dirname, '../../package.json'), 'utf8')) as { version: string }).version;
    expect(await cli(tmp(), ['--version'])).toEqual({ code: 0, out: `throughline ${version}\n`, err: '' });
  });

  it('an unknown flag is one line naming the subcommand, the flag and the options', async () => {
    const r = await cli(tmp(), ['search', '--limt', '5', '--', 'x']);
    expect(r.code).toBe(2);
    expect(r.out).toBe('');
    expect(r.err).toBe(
      'throughline search: unknown option --limt; the options are --db, --json, --limit, --workspace, --since, --subagents, --now (text that starts with - goes after --) (see `throughline search --help`)\n',
    );
    expect((await cli(tmp(), ['stats', '-x'])).err).toMatch(/^throughline stats: unknown option -x; the options are --db, --json \(/);
    expect((await cli(tmp(), ['read', '--turns'])).err).toBe('throughline read: --turns needs a value (see `throughline read --help`)\n');
    expect((await cli(tmp(), ['stats', '--json=yes'])).err).toMatch(/^throughline stats: --json takes no value/);
  });

  it('with --json, errors are one JSON object on stderr (and stdout stays empty)', async () => {
    const home = tmp();
    const flag = await cli(home, ['search', '--json', '--limt', '5', '--', 'x']);
    expect(flag.code).toBe(2);
    expect(flag.out).toBe('');
    expect(JSON.parse(flag.err)).toEqual({ error: { command: 'search', kind: 'usage', message: expect.stringMatching(/^unknown option --limt/) } });
    const db = path.join(home, 'index.sqlite');
    expect((await cli(home, ['index', '--db', db, '--source', `jsonl=${home}`])).code).toBe(0);
    const missing = await cli(home, ['read', '--db', db, '--json', 'nope']);
    expect(missing.code).toBe(1);
    expect(JSON.parse(missing.err)).toEqual({ error: { command: 'read', kind: 'not-found', message: 'No conversation "nope" in the index.' } });
    const unknown = await cli(home, ['serach', '--json']);
    expect(JSON.parse(unknown.err)).toMatchObject({ error: { command: null, kind: 'usage', message: 'unknown command "serach"' } });
    const noIndex = await cli(home, ['stats', '--db', path.join(home, 'none.sqlite'), '--json']);
    expect(noIndex.code).toBe(1);
    expect(JSON.parse(noIndex.err)).toMatchObject({ error: { command: 'stats', kind: 'missing' } });
  });

  it('`history` without a subcommand lists them; `--json` gets them as JSON', async () => {
    const r = await cli(tmp(), ['history']);
    expect(r.code).toBe(2);
    expect(r.err.split('\n').slice(0, 4)).toEqual([
      'throughline history: which one?',
      expect.stringMatching(/^ {2}search {3}search the conversation’s entries/),
      expect.stringMatching(/^ {2}read {5}read entries/),
      expect.stringMatching(/^ {2}handoff {2}start the agent’s context afresh/),
    ]);
    expect((await cli(tmp(), ['history', 'serch'])).err).toMatch(/^throughline history: unknown subcommand "serch"\n {2}search/);
    const json = await cli(tmp(), ['history', '--json']);
    expect(JSON.parse(json.err)).toMatchObject({ error: { command: 'history', kind: 'usage', subcommands: ['search', 'read', 'handoff'] } });
    expect((await cli(tmp(), ['history', 'read', '--tail'])).err).toBe('throughline history: history read needs --conversation REF (see `throughline history --help`)\n');
  });
});
