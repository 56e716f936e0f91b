// The CLI contract of ../shared/eval/README.md: suggest --json and search --json.
import { describe, expect, it } from 'vitest';
import type { CliIO } from '../../src/main/cli/command.js';
import { main } from '../../src/main/cli/main.js';
import { buildIndex, filler, tmpDir } from './helpers.js';

async function run(args: string[]): Promise<{ code: number; out: string; err: string }> {
  const home = tmpDir();
  let out = '';
  let err = '';
  const io: CliIO = { out: (t) => void (out += t), err: (t) => void (err += t), isTTY: false, env: { HOME: home, XDG_CONFIG_HOME: home } };
  const code = await main(args, io);
  return { code, out, err };
}

function index() {
  const b = buildIndex([
    { key: 'target', workspace: '/w/pay', title: 'TestRefundWebhook_Retry flakes on CI', entries: ['TestRefundWebhook_Retry flakes at webhook_test.go:212 with the fake clock', 'fixed with the fake clock'] },
    ...filler(40),
  ]);
  b.db.close();
  return b;
}

describe('throughline suggest / search / read / inspect / history', () => {
  it('suggest --json prints {suggestions, block, reason} with the identifying fields', async () => {
    const { file, ids } = index();
    const text = '-- TestRefundWebhook_Retry flaking again at webhook_test.go:212, fake clock?';
    for (const strategy of [[], ['--strategy', 'signals'], ['--strategy', 'salient']]) {
      const r = await run(['suggest', '--db', file, '--json', '--workspace', '/w/pay', '--now', '2026-11-29T12:00:00Z', '--scope', 'everywhere', ...strategy, '--', text]);
      expect(r.code).toBe(0);
      const j = JSON.parse(r.out);
      expect(Object.keys(j)).toEqual(expect.arrayContaining(['suggestions', 'block', 'reason']));
      expect(j.suggestions[0]).toMatchObject({ id: ids.get('target'), source: 'pi', sessionId: 'session-target', title: 'TestRefundWebhook_Retry flakes on CI', workspace: '/w/pay' });
      expect(typeof j.suggestions[0].path).toBe('string');
      expect(typeof j.suggestions[0].score).toBe('number');
      expect(Array.isArray(j.suggestions[0].signals)).toBe(true);
      expect(j.block).toContain('<recalled-conversations>');
    }
  });

  it('search --json prints {hits, more}; a query may start with -', async () => {
    const { file, ids } = index();
    const r = await run(['search', '--db', file, '--json', '--limit', '10', '--', '-fake clock for the webhook test']);
    const j = JSON.parse(r.out);
    expect(typeof j.more).toBe('boolean');
    expect(j.hits[0]).toMatchObject({ id: ids.get('target'), sessionId: 'session-target', source: 'pi' });
    expect(typeof j.hits[0].snippet).toBe('string');
  });

  it('readable output without --json; read, inspect and history work on a conversation', async () => {
    const { file } = index();
    expect((await run(['suggest', '--db', file, '--', 'TestRefundWebhook_Retry webhook_test.go:212 fake clock'])).out).toMatch(/default, balanced/);
    expect((await run(['read', '--db', file, '--turns', '1', 'session-target'])).out).toContain('[turn 1, user, entry #0]');
    expect((await run(['inspect', '--db', file, '--query', 'clock', 'session-target'])).out).toContain('> [#1 assistant]');
    expect((await run(['history', 'search', '--db', file, '--conversation', 'session-target', '--', 'fake clock'])).out).toContain('<history conversation=');
    const tail = JSON.parse((await run(['history', 'read', '--db', file, '--json', '--conversation', 'session-target', '--tail'])).out);
    expect(tail.entries.map((e: { entry: number }) => e.entry)).toEqual([0, 1]);
    const h = JSON.parse((await run(['history', 'handoff', '--db', file, '--json', '--conversation', 'session-target', '--', 'continue from here'])).out);
    expect(h).toMatchObject({ handoff: 'continue from here', entry: 2, after: 1 });
    expect(h.text).toMatch(/^Handoff written to conversation \d+ \(after entry #1, the last one indexed so far\)/);
  });

  it('usage errors exit 2 with one line naming the command; an unknown conversation exits 1', async () => {
    const { file } = index();
    const magic = await run(['suggest', '--db', file, '--strategy', 'magic', '--', 'x']);
    expect([magic.code, magic.err]).toEqual([2, 'throughline suggest: --strategy is one of default, signals, salient (see `throughline suggest --help`)\n']);
    expect((await run(['search', '--db', file, '--limit', '99', '--', 'x'])).code).toBe(2);
    expect((await run(['suggest', '--db', file])).err).toMatch(/^throughline suggest: TEXT is missing/);
    const r = await run(['read', '--db', file, 'no-such-conversation']);
    expect(r.code).toBe(1);
    expect(r.err).toBe('throughline read: No conversation "no-such-conversation" in the index.\n');
  });
});
