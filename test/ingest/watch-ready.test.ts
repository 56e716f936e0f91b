// core.watch() resolves once every folder found is watched. The watches are set a slice at a time
// (watch.ts), so without waiting for the walk a session written to right after watch() resolved could
// be in a folder not watched yet: its new turn waited for the periodic scan (30 s), and the bench's
// append → searchable round timed out.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../../src/main/api/core.js';
import { userTurnLines } from '../../bench/lib-append.js';
import { FIXTURES, useTmp } from '../helpers/tmp.js';

const tmp = useTmp('tl-watch-ready-');
let core: Core | undefined;
afterEach(() => core?.close());

describe('core.watch()', () => {
  it('resolves with every folder watched: a turn written right after it is indexed live', async () => {
    const dir = tmp();
    const root = path.join(dir, 'sessions');
    // Enough folders that the walk takes several slices, sessions spread among them.
    for (let i = 0; i < 3000; i++) fs.mkdirSync(path.join(root, `--project-${i}--`), { recursive: true });
    const fixture = fs.readFileSync(path.join(FIXTURES, 'pi/agent-sessions-pi-small-v3.jsonl'), 'utf8');
    const files: string[] = [];
    for (let i = 0; i < 3000; i += 100) {
      const file = path.join(root, `--project-${i}--`, `session-${i}.jsonl`);
      // Each its own session id, as pi writes them.
      fs.writeFileSync(file, fixture.replace('019e19b4-eb48-746a-aa6b-8dfcfa37954b', `019e19b4-eb48-746a-aa6b-${String(i).padStart(12, '0')}`));
      files.push(file);
    }
    core = createCore({ dbPath: path.join(dir, 'index.sqlite'), settingsPath: path.join(dir, 'settings.json'), env: { HOME: dir }, sources: [{ kind: 'pi', root }] });
    await core.watch();
    for (const [i, file] of files.entries()) fs.appendFileSync(file, userTurnLines('pi', file, `where is the zebrafinch${i} config`));
    const found = () => core!.db.prepare("SELECT count(*) FROM entries WHERE text LIKE 'where is the zebrafinch%'").pluck().get() as number;
    const end = Date.now() + 10_000;
    while (found() < files.length && Date.now() < end) await new Promise((resolve) => setTimeout(resolve, 25));
    expect(found()).toBe(files.length);
  }, 60_000);
});
