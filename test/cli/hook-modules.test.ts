// The hook's later prompt (every prompt after a session's first: it reads the transcript's head and
// prints nothing) loads none of Node's stream modules. An ES module that imports 'node:fs' gets the
// whole namespace built, and building it runs fs's lazy getters: its streams (with all of stream)
// and util's MIME types came with every prompt (src/main/builtins.ts). Runs the real
// bin/throughline.mjs from a copy of the project's layout with .build/ made by scripts/build-cli.mjs,
// as users run it, and reads the modules Node loaded from process.moduleLoadList at exit.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = path.resolve(__dirname, '../..');

let tmp: string;

describe("the hook's later prompt", () => {
  beforeAll(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'tl-hook-modules-'));
  });
  afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

  it('loads no stream module', () => {
    const root = path.join(tmp, 'project');
    fs.mkdirSync(path.join(root, 'bin'), { recursive: true });
    fs.copyFileSync(path.join(ROOT, 'bin', 'throughline.mjs'), path.join(root, 'bin', 'throughline.mjs'));
    fs.symlinkSync(path.join(ROOT, 'src'), path.join(root, 'src'));
    fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(root, 'node_modules'));
    const built = spawnSync(process.execPath, [path.join(ROOT, 'scripts', 'build-cli.mjs'), path.join(root, '.build')], { encoding: 'utf8', timeout: 120_000 });
    expect(built.status, built.stderr).toBe(0);

    const transcript = path.join(tmp, 'transcript.jsonl');
    fs.writeFileSync(transcript, JSON.stringify({ type: 'user', message: { role: 'user', content: 'an earlier prompt' } }) + '\n');
    const input = JSON.stringify({ session_id: 's', cwd: tmp, hook_event_name: 'UserPromptSubmit', prompt: 'where were we', transcript_path: transcript });
    const list = path.join(tmp, 'modules.txt');
    // Written at exit by a module given to --import as a data: URL (no file of its own to load).
    const dump = `data:text/javascript,process.on('exit',()=>process.getBuiltinModule('node:fs').writeFileSync(process.env.TL_MODULES,process.moduleLoadList.join('\\n')))`;
    const env = { ...process.env, HOME: tmp, XDG_STATE_HOME: path.join(tmp, 'state'), TL_MODULES: list };
    const args = ['--import', dump, path.join(root, 'bin', 'throughline.mjs'), 'hook', 'claude', '--socket', path.join(tmp, 'none.sock')];
    const r = spawnSync(process.execPath, args, { env, input, encoding: 'utf8', timeout: 60_000 });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toBe('');

    const loaded = fs.readFileSync(list, 'utf8').split('\n');
    // The bundle ran (through tsx, its loader brings far more).
    expect(loaded.some((m) => m.includes('tsx'))).toBe(false);
    // internal/streams/utils is loaded by every Node process (`node -e 0` too); stream itself is not.
    expect(loaded.filter((m) => /^NativeModule (stream|internal\/streams\/(?!utils$)|internal\/fs\/streams)/.test(m))).toEqual([]);
  }, 180_000);
});
