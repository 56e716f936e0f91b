// issue 17 §1: "`index --rebuild` drops handoffs (they are the only copy: keep them)". A handoff an
// agent writes over MCP or the socket (p2-history-tools-spec.md: history_handoff "ends the round" and
// the new context starts from its text) is in no session file; a rebuild from the files alone loses it.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CliIO } from '../../src/main/cli/command.js';
import { main } from '../../src/main/cli/main.js';
import { openDb } from '../../src/main/store/db.js';
import { FIXTURES } from '../helpers/tmp.js';
import { tmpDir } from '../recall/helpers.js';

async function run(home: string, args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const io: CliIO = { out: (t) => void (out += t), err: (t) => void (err += t), isTTY: false, env: { HOME: home, XDG_CONFIG_HOME: home } };
  const code = await main(args, io);
  return { code, out, err };
}

describe('index --rebuild', () => {
  it('keeps the handoffs written through history_handoff, at the same place in the same conversation', async () => {
    const home = tmpDir();
    const sessions = path.join(home, 'sessions');
    fs.cpSync(path.join(FIXTURES, 'claude-code'), sessions, { recursive: true });
    const db = path.join(home, 'index.sqlite');
    const source = ['--source', `claude-code=${sessions}`];
    expect((await run(home, ['index', '--db', db, ...source])).code).toBe(0);
    const target = JSON.parse((await run(home, ['search', '--db', db, '--json', '--limit', '1', '--', 'the'])).out).hits[0].sessionId as string;
    const written = JSON.parse((await run(home, ['history', 'handoff', '--db', db, '--json', '--conversation', target, '--', 'Continue with the migration; the tests are green.'])).out);
    const before = JSON.parse((await run(home, ['history', 'read', '--db', db, '--json', '--conversation', target, '--tail'])).out);

    const rebuilt = await run(home, ['index', '--db', db, '--rebuild', ...source]);
    expect(rebuilt.code).toBe(0);
    expect(rebuilt.err).not.toMatch(/handoff/);
    const check = openDb(db, { readonly: true });
    const rows = check.prepare('SELECT h.before_seq AS seq, h.text FROM handoffs h JOIN conversations c ON c.id = h.conversation_id WHERE c.session_id = ?').all(target);
    check.close();
    expect(rows).toEqual([{ seq: written.entry, text: 'Continue with the migration; the tests are green.' }]);
    // It is still the boundary: tail reads the same entries as before the rebuild.
    const after = JSON.parse((await run(home, ['history', 'read', '--db', db, '--json', '--conversation', target, '--tail'])).out);
    expect(after.entries.map((e: { entry: number }) => e.entry)).toEqual(before.entries.map((e: { entry: number }) => e.entry));
  });

  it('says how many handoffs it could not keep when their conversation is dropped (--drop-missing)', async () => {
    const home = tmpDir();
    const sessions = path.join(home, 'sessions');
    fs.cpSync(path.join(FIXTURES, 'pi'), sessions, { recursive: true });
    const db = path.join(home, 'index.sqlite');
    const source = ['--source', `pi=${sessions}`];
    expect((await run(home, ['index', '--db', db, ...source])).code).toBe(0);
    const check = openDb(db, { readonly: true });
    const { session_id: sessionId, path: file } = check.prepare('SELECT session_id, path FROM conversations WHERE is_subagent = 0 ORDER BY id LIMIT 1').get() as { session_id: string; path: string };
    check.close();
    expect((await run(home, ['history', 'handoff', '--db', db, '--json', '--conversation', sessionId, '--', 'next'])).code).toBe(0);
    fs.rmSync(file);
    const rebuilt = await run(home, ['index', '--db', db, '--rebuild', '--drop-missing', ...source]);
    expect(rebuilt.code).toBe(0);
    expect(rebuilt.err).toMatch(/1 handoff\(s\) of the old index belong to conversations the rebuilt one does not have/);
  });
});
