// integrations.list / install / uninstall (Settings → Extensions) run the same installers as
// `throughline install`: the files they write are byte for byte the CLI's, the state they report
// follows, a broken config file is reported and left alone, and the agent socket may not call them.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../../src/main/api/core.js';
import { dispatch } from '../../src/main/api/dispatch.js';
import { guardedCall, localUser } from '../../src/main/api/access-policy.js';
import { INTEGRATIONS } from '../../src/main/integrations/registry.js';
import { BIN, runNode, tempDir } from '../server/helpers.js';

/** A home of its own: every agent's config lands under it. */
function agentEnv(home: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, HOME: home, THROUGHLINE_COMMAND: '/usr/bin/node /opt/throughline/bin/throughline.mjs' };
  for (const k of ['CLAUDE_CONFIG_DIR', 'CODEX_HOME', 'PI_CODING_AGENT_DIR']) delete env[k];
  return env;
}

/** The texts of `files` (paths under `from`), keyed by their path below it; the home itself reads HOME (MCP servers get paths under it pinned). */
function texts(files: string[], from: string, root: string): Record<string, string | null> {
  return Object.fromEntries(files.map((f) => {
    const rel = path.relative(from, f);
    const file = path.join(root, rel);
    return [rel, fs.existsSync(file) ? fs.readFileSync(file, 'utf8').replaceAll(root, 'HOME') : null];
  }));
}

describe('integrations over the api', () => {
  let dir: string;
  let home: string;
  let core: Core;
  beforeAll(() => {
    dir = tempDir();
    home = path.join(dir, 'home');
    fs.mkdirSync(home);
    core = createCore({ dbPath: path.join(dir, 'index.sqlite'), settingsPath: path.join(dir, 'settings.json'), sources: [], env: agentEnv(home) });
  });
  afterAll(() => core.close());

  it('lists every installer of the registry, none installed in a fresh home', async () => {
    const { items } = await core.api['integrations.list']({});
    expect(items.map((i) => i.id)).toEqual(INTEGRATIONS.map((i) => i.id));
    expect(items.every((i) => i.state === 'absent')).toBe(true);
    expect(items.find((i) => i.id === 'codex')!.files).toEqual([path.join(home, '.codex', 'config.toml'), path.join(home, '.codex', 'hooks.json')]);
  });

  it('install writes what `throughline install` writes; uninstall takes it away again', async () => {
    for (const { id } of INTEGRATIONS) {
      const done = await core.api['integrations.install']({ id });
      expect(done.integration.state, id).toBe('installed');
      expect(done.changed.length, id).toBeGreaterThan(0);
      // The CLI, into a home of its own: the same files, the same bytes.
      const cliHome = tempDir();
      const cli = await runNode([BIN, 'install', id, '--json'], { env: agentEnv(cliHome) });
      expect(cli.code, cli.stderr).toBe(0);
      const files = done.integration.files;
      expect(texts(files, home, cliHome), id).toEqual(texts(files, home, home));
      expect(Object.values(texts(files, home, home)).every((t) => t !== null), id).toBe(true);
      fs.rmSync(cliHome, { recursive: true, force: true });

      const removed = await core.api['integrations.uninstall']({ id });
      expect(removed.integration.state, id).toBe('absent');
    }
  }, 180_000); // one CLI run per installer (eight of them)

  it('a dry run says what would change and how, and writes nothing (the CLI\'s --dry-run is this call)', async () => {
    const config = path.join(home, '.codex', 'config.toml');
    const before = fs.existsSync(config) ? fs.readFileSync(config, 'utf8') : null;
    const dry = await core.api['integrations.install']({ id: 'codex', dryRun: true });
    expect(dry).toMatchObject({ dryRun: true, integration: { id: 'codex', state: 'absent' } });
    expect(dry.changed).toContain(config);
    expect(dry.diffs.find((d) => d.file === config)!.diff).toMatch(/^\+ \[mcp_servers\.throughline\]$/m);
    expect(fs.existsSync(config) ? fs.readFileSync(config, 'utf8') : null).toBe(before);
    await expect(dispatch(core.api, 'integrations.install', { id: 'codex', dryRun: 'yes' })).rejects.toMatchObject({ code: -32602, message: expect.stringMatching(/dryRun/) });
  });

  it('reports a config file it cannot read, and changes nothing', async () => {
    const settings = path.join(home, '.claude', 'settings.json');
    fs.mkdirSync(path.dirname(settings), { recursive: true });
    fs.writeFileSync(settings, '{ "hooks": ');
    const claude = (await core.api['integrations.list']({})).items.find((i) => i.id === 'claude')!;
    expect(claude.state).toBe('unreadable');
    expect(claude.problem).toMatch(/settings\.json is not valid JSON/);
    await expect(dispatch(core.api, 'integrations.install', { id: 'claude' })).rejects.toMatchObject({ code: -32006, message: expect.stringMatching(/Nothing was changed/) });
    expect(fs.readFileSync(settings, 'utf8')).toBe('{ "hooks": ');
    fs.rmSync(settings);
  });

  it('refuses an unknown integration by name, and the agent socket altogether', async () => {
    await expect(dispatch(core.api, 'integrations.install', { id: 'emacs' })).rejects.toMatchObject({ code: -32602, message: expect.stringMatching(/no integration "emacs"; one of claude, codex, pi/) });
    await expect(guardedCall(core.api, localUser(), 'integrations.install', { id: 'pi' })).rejects.toMatchObject({ code: -32003 });
    await expect(guardedCall(core.api, localUser(), 'integrations.uninstall', { id: 'pi' })).rejects.toMatchObject({ code: -32003 });
    expect(fs.existsSync(path.join(home, '.pi', 'agent', 'extensions', 'throughline.ts'))).toBe(false);
    // Looking is allowed.
    expect((await guardedCall(core.api, localUser(), 'integrations.list', {})).result).toMatchObject({ items: expect.any(Array) });
  });
});
