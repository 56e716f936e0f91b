// Issue 11 §5: after `forget`, the forgotten words are in no file of the index folder (FTS segments,
// free pages, the WAL, the activity log's queries and handoff text); the folder is 0700 and every
// index file 0600.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { connectRpc } from '../../src/main/client/socket-client.js';
import { startDaemon } from '../../src/main/daemon/daemon.js';
import { fakeHome, importFile, type FakeHome } from './home.js';

let home: FakeHome;
afterEach(() => fs.rmSync(home.dir, { recursive: true, force: true }));

/** The index folder's files that contain `needle` anywhere in their bytes (grep -a). */
function filesHolding(dir: string, needle: string): string[] {
  return fs.readdirSync(dir).filter((f) => fs.statSync(path.join(dir, f)).isFile() && fs.readFileSync(path.join(dir, f)).includes(needle));
}

describe('forget', () => {
  it('leaves none of the forgotten words in any file of the index folder', async () => {
    home = fakeHome();
    const secret = importFile(home, 'scrub-secret', '/secret/five');
    for (let i = 0; i < 40; i++) secret.append(`zyxscrubword number ${i}: the launch code and the zyxscrubsecond plan`);
    const open = importFile(home, 'scrub-open', '/open/kept');
    open.append('zyxkeptword stays');
    expect((await home.cli(['index'])).code).toBe(0);
    // An agent works in the secret conversation: its queries and its handoff go into the activity log.
    const daemon = await startDaemon({ dbPath: home.db, settingsPath: home.settings, socketPath: path.join(home.dir, 'run.sock'), log: false, watch: false });
    const rpc = await connectRpc(daemon.socketPath);
    await rpc.call('history_search', { conversation: 'scrub-secret', query: 'zyxscrubquery launch' });
    await rpc.call('history_handoff', { conversation: 'scrub-secret', text: 'zyxscrubhandoff: continue the launch' });
    expect((await rpc.call('recall_conversations', { query: 'zyxscrubword', workspace: 'all' })).hits).toHaveLength(1);
    rpc.close();
    await daemon.close();

    const dataDir = path.dirname(home.db);
    expect(filesHolding(dataDir, 'zyxscrubword')).not.toEqual([]);
    const forgot = await home.cli(['forget', '/secret/five']);
    expect(forgot.code, forgot.out).toBe(0);
    for (const word of ['zyxscrubword', 'zyxscrubsecond', 'zyxscrubquery', 'zyxscrubhandoff']) expect(filesHolding(dataDir, word), word).toEqual([]);
    // What was not forgotten is all there.
    expect(await home.search('zyxkeptword')).toHaveLength(1);
    const stats = await home.cli(['stats', '--json']);
    expect(JSON.parse(stats.out).conversations).toBe(1);
  });
});

describe('an exclusion written into settings.json', () => {
  it.each(['the next index run', 'the daemon’s next answer'])('leaves none of the words it covers in the index folder after %s', async (when) => {
    home = fakeHome();
    const secret = importFile(home, 'hand-scrub', '/secret/by-hand');
    for (let i = 0; i < 40; i++) secret.append(`zyxhandscrub number ${i} of the private plan`);
    importFile(home, 'hand-open', '/open/kept').append('zyxhandkept stays');
    expect((await home.cli(['index'])).code).toBe(0);
    const dataDir = path.dirname(home.db);
    expect(filesHolding(dataDir, 'zyxhandscrub')).not.toEqual([]);
    fs.mkdirSync(path.dirname(home.settings), { recursive: true });
    fs.writeFileSync(home.settings, JSON.stringify({ exclusions: ['/secret/**'] }));
    if (when === 'the next index run') expect((await home.cli(['index'])).code).toBe(0);
    else {
      const daemon = await startDaemon({ dbPath: home.db, settingsPath: home.settings, socketPath: path.join(home.dir, 'run.sock'), log: false, watch: false });
      const rpc = await connectRpc(daemon.socketPath);
      // Its next answer (a query naming the word would itself go into the activity log).
      expect((await rpc.call('status', {})).conversations).toBe(1);
      rpc.close();
      await daemon.close();
    }
    expect(filesHolding(dataDir, 'zyxhandscrub')).toEqual([]);
    expect(await home.search('zyxhandkept')).toHaveLength(1);
  });
});

describe('file modes', () => {
  const mode = (p: string) => (fs.statSync(p).mode & 0o777).toString(8);

  it('a new index folder is 0700 and every index file 0600', async () => {
    home = fakeHome();
    importFile(home, 'modes', '/w/modes');
    expect((await home.cli(['index'])).code).toBe(0);
    const dataDir = path.dirname(home.db);
    expect(mode(dataDir)).toBe('700');
    const files = fs.readdirSync(dataDir).filter((f) => f.startsWith('index.sqlite'));
    expect(files).toContain('index.sqlite');
    for (const f of files) expect(mode(path.join(dataDir, f)), f).toBe('600');
  });

  it('an index left readable to others by an older version is closed at the next start', async () => {
    home = fakeHome();
    importFile(home, 'modes', '/w/modes');
    expect((await home.cli(['index'])).code).toBe(0);
    const dataDir = path.dirname(home.db);
    fs.chmodSync(dataDir, 0o755);
    for (const f of fs.readdirSync(dataDir).filter((n) => n.startsWith('index.sqlite'))) fs.chmodSync(path.join(dataDir, f), 0o644);
    const daemon = await startDaemon({ dbPath: home.db, settingsPath: home.settings, socketPath: path.join(home.dir, 'run.sock'), log: false, watch: false });
    await daemon.close();
    expect(mode(dataDir)).toBe('700');
    for (const f of fs.readdirSync(dataDir).filter((n) => n.startsWith('index.sqlite'))) expect(mode(path.join(dataDir, f)), f).toBe('600');
  });
});
