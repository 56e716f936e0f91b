import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createIndexer } from '../src/main/ingest/scan.js';
import { ADAPTERS } from '../src/main/ingest/sources.js';
import { createExclusions, redactPrivate } from '../src/main/privacy.js';
import { openDb } from '../src/main/store/db.js';
import { main } from '../src/main/cli/main.js';
import { useTmp } from './helpers/tmp.js';

const tmp = useTmp('tl-privacy-');

describe('private spans', () => {
  it('replaces each span, across lines, case-insensitively', () => {
    expect(redactPrivate('a <private>secret\nkey</private> b <PRIVATE>x</PRIVATE> c')).toBe('a [private] b [private] c');
  });
  it('treats an unclosed span as running to the end', () => {
    expect(redactPrivate('keep <private>token=abc123 and the rest')).toBe('keep [private]');
  });
  it('leaves text without spans as it is', () => {
    expect(redactPrivate('private matters: <privateKey>, <private-key> and a < private_b')).toBe('private matters: <privateKey>, <private-key> and a < private_b');
  });
});

describe('exclusions', () => {
  const ex = createExclusions(['/home/u/secret', '/home/u/**/clients-*', '  ', 'session:abc-123']);
  const m = (value: string) => ex.path(value) !== null;
  it('matches a folder and everything under it, not a sibling with the same prefix', () => {
    expect(m('/home/u/secret')).toBe(true);
    expect(m('/home/u/secret/a/b.jsonl')).toBe(true);
    expect(m('/home/u/secret-not')).toBe(false);
  });
  it('matches globs', () => {
    expect(m('/home/u/work/clients-acme')).toBe(true);
    expect(m('/home/u/work/clients-acme/x.jsonl')).toBe(true);
    expect(m('/home/u/work/client')).toBe(false);
  });
  it('matches nothing when empty', () => {
    expect(createExclusions([]).path('/anything')).toBe(null);
  });
  it('names the pattern that matched, and matches a session by its id, not as a path', () => {
    expect(ex.path('/home/u/secret/x')).toBe('/home/u/secret');
    expect(ex.conversation({ path: '/elsewhere/f.jsonl', workspace: '/w', ids: ['abc-123'] })).toBe('session:abc-123');
    expect(ex.conversation({ path: '/elsewhere/f.jsonl', workspace: '/w', ids: ['abc-1234'] })).toBe(null);
    expect(ex.path('session:abc-123')).toBe(null);
  });
});

function importFile(dir: string, name: string, lines: object[]): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
  return file;
}

describe('never indexed', () => {
  it('private spans are neither stored nor searchable; excluded workspaces and paths are not kept', () => {
    const dir = tmp();
    const src = path.join(dir, 'import');
    fs.mkdirSync(src);
    importFile(src, 'a.jsonl', [
      { type: 'conversation', id: 'open', workspace: '/w/open', title: 'Deploy <private>hunter2</private> notes' },
      { type: 'message', role: 'user', text: 'the password is <private>hunter2</private>, rotate the zebrafish key' },
    ]);
    importFile(src, 'b.jsonl', [
      { type: 'conversation', id: 'secret', workspace: '/w/secret', title: 'Secret work' },
      { type: 'message', role: 'user', text: 'confidential zebrafish plans' },
    ]);
    fs.mkdirSync(path.join(src, 'skipme'));
    importFile(path.join(src, 'skipme'), 'c.jsonl', [
      { type: 'conversation', id: 'skipped', workspace: '/w/other' },
      { type: 'message', role: 'user', text: 'zebrafish in a skipped folder' },
    ]);
    const db = openDb(path.join(dir, 'index.sqlite'));
    const ex = createExclusions(['/w/secret', path.join(src, 'skipme')]);
    createIndexer(db, ADAPTERS, { exclusions: () => ex }).scan([{ kind: 'jsonl', root: src }]);
    expect(db.prepare('SELECT key FROM conversations ORDER BY key').pluck().all()).toEqual(['open']);
    expect(db.prepare('SELECT title FROM conversations').pluck().get()).toBe('Deploy [private] notes');
    const all = JSON.stringify(db.prepare('SELECT * FROM entries').all());
    expect(all).not.toContain('hunter2');
    expect(db.prepare("SELECT count(*) FROM entries_fts WHERE entries_fts MATCH 'hunter2'").pluck().get()).toBe(0);
    expect(db.prepare("SELECT count(*) FROM entries_fts WHERE entries_fts MATCH 'zebrafish'").pluck().get()).toBe(1);
    expect(db.prepare("SELECT count(*) FROM conversation_terms WHERE conversation_terms MATCH 'confidential'").pluck().get()).toBe(0);
    db.close();
  });
});

describe('throughline forget', () => {
  it('removes a workspace, says what it removed, and keeps it out of the next index run', async () => {
    const dir = tmp();
    const src = path.join(dir, 'import');
    fs.mkdirSync(src);
    importFile(src, 'a.jsonl', [
      { type: 'conversation', id: 'one', workspace: '/w/gone', title: 'First' },
      { type: 'message', role: 'user', text: 'alpha' },
      { type: 'conversation', id: 'two', workspace: '/w/gone', title: 'Second' },
      { type: 'message', role: 'user', text: 'beta' },
      { type: 'conversation', id: 'three', workspace: '/w/kept', title: 'Third' },
      { type: 'message', role: 'user', text: 'gamma' },
    ]);
    const env = { HOME: dir, XDG_CONFIG_HOME: path.join(dir, 'config') };
    const db = path.join(dir, 'index.sqlite');
    let out = '';
    const io = { out: (t: string) => void (out += t), err: (t: string) => void (out += t), isTTY: false, env };
    const indexed = await main(['index', '--db', db, '--source', `jsonl=${src}`, '--json'], io);
    expect(indexed, out).toBe(0);
    out = '';
    expect(await main(['forget', '--db', db, '--json', '/w/gone'], io)).toBe(0);
    const result = JSON.parse(out);
    expect(result.removed.conversations.map((c: { title: string }) => c.title).sort()).toEqual(['First', 'Second']);
    expect(result.removed.entries).toBe(2);
    expect(result.excluded).toBe('/w/gone');
    out = '';
    expect(await main(['index', '--db', db, '--source', `jsonl=${src}`, '--rebuild', '--json'], io), out).toBe(0);
    const check = openDb(db, { readonly: true });
    expect(check.prepare('SELECT title FROM conversations').pluck().all()).toEqual(['Third']);
    check.close();
    expect(await main(['forget', '--db', db, 'no-such-thing'], io)).toBe(1);
  });
});
