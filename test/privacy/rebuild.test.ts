// Issue 11 §10: `index --rebuild` replaces the index file, so it must never replace a file that is not
// an index (`--db notes.txt`), and never silently drop what only the index still holds: conversations
// whose session files are gone (Claude Code deletes transcripts after 30 days) and conversations
// pushed over the socket. It refuses, says how to proceed, and changes nothing; --drop-missing
// rebuilds without them.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createCore } from '../../src/main/api/core.js';
import { fakeHome, importFile, piSession, type FakeHome } from './home.js';

let home: FakeHome;
afterEach(() => fs.rmSync(home.dir, { recursive: true, force: true }));

const bytes = (file: string) => fs.readFileSync(file).toString('base64');

describe('index --rebuild --db FILE', () => {
  it('refuses a file that is not an index and leaves it as it was', async () => {
    home = fakeHome();
    importFile(home, 'notes-case', '/w/notes');
    const notes = path.join(home.dir, 'notes.txt');
    fs.writeFileSync(notes, 'my notes\nnothing to do with Throughline\n'.repeat(200));
    const before = bytes(notes);
    const r = await home.cli(['index', '--rebuild', '--db', notes]);
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/notes\.txt is not a Throughline index \(not an SQLite database\), so it is not replaced/);
    expect(bytes(notes)).toBe(before);
    expect(fs.readdirSync(home.dir).filter((f) => f.startsWith('notes.txt'))).toEqual(['notes.txt']);
  });

  it('still rebuilds a damaged index (binary, in whole pages), which is what --rebuild is for', async () => {
    home = fakeHome();
    importFile(home, 'damaged-case', '/w/damaged');
    expect((await home.cli(['index'])).code).toBe(0);
    const fd = fs.openSync(home.db, 'r+');
    fs.writeSync(fd, Buffer.alloc(4096, 0), 0, 4096, 0);
    fs.closeSync(fd);
    const r = await home.cli(['index', '--rebuild']);
    expect(r.code, r.out).toBe(0);
    expect(await home.search('first message secret work')).toHaveLength(1);
  });
});

describe('index --rebuild with conversations only the index holds', () => {
  async function indexWithGoneFile(markedMissing: boolean): Promise<void> {
    home = fakeHome();
    importFile(home, 'kept-case', '/w/kept');
    const pi = piSession(home);
    pi.append('zyxonlycopy lives on in the index');
    expect((await home.cli(['index'])).code).toBe(0);
    fs.rmSync(pi.file);
    if (markedMissing) expect((await home.cli(['index'])).out).toMatch(/1 session file is gone; their conversations are kept/);
  }

  it.each([
    ['seen gone by the last run', true],
    ['deleted since the last run', false],
  ])('refuses, changes nothing and says how to proceed (a session file %s)', async (_name, marked) => {
    await indexWithGoneFile(marked);
    const before = bytes(home.db);
    const r = await home.cli(['index', '--rebuild']);
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/holds 1 conversation\(s\) whose session files are gone .* Nothing was changed\. To rebuild without them: throughline index --rebuild --drop-missing/);
    expect(bytes(home.db)).toBe(before);
    expect(await home.search('zyxonlycopy')).toHaveLength(1);
  });

  it('--drop-missing rebuilds without them, and says so', async () => {
    await indexWithGoneFile(true);
    const r = await home.cli(['index', '--rebuild', '--drop-missing']);
    expect(r.code, r.out).toBe(0);
    expect(r.out).toMatch(/dropped 1 conversation\(s\) whose session files are gone, as --drop-missing asked/);
    expect(await home.search('zyxonlycopy')).toEqual([]);
    expect(await home.search('first message secret work')).toHaveLength(1);
  });

  it('counts a conversation pushed over the socket, which has no file to rebuild from', async () => {
    home = fakeHome();
    importFile(home, 'with-push', '/w/push');
    expect((await home.cli(['index'])).code).toBe(0);
    const core = createCore({ dbPath: home.db, settingsPath: home.settings, sources: [] });
    try {
      await core.api['ingest.append']({ conversation: { id: 'pushed-1', workspace: '/w/push' }, entries: [{ role: 'user', text: 'zyxpushedword' }] });
    } finally {
      core.close();
    }
    const r = await home.cli(['index', '--rebuild']);
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/holds 1 conversation\(s\) whose session files are gone or that were pushed over the socket/);
    expect(await home.search('zyxpushedword')).toHaveLength(1);
    expect((await home.cli(['index', '--drop-missing'])).code).toBe(2);
  });
});
