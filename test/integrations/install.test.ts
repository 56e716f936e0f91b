// install / uninstall for Claude Code, Codex and pi: idempotent, backed up, and uninstall removes
// exactly what install added, leaving the user's own settings as they were.
import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'smol-toml';
import { describe, expect, it } from 'vitest';
import { installClaude, uninstallClaude } from '../../src/main/integrations/claude-install.js';
import { installCodex, uninstallCodex } from '../../src/main/integrations/codex-install.js';
import { pinnedEnv } from '../../src/main/integrations/files.js';
import { launcherPath, launcherScript } from '../../src/main/integrations/launcher.js';
import { installPi, piExtensionSource, uninstallPi } from '../../src/main/integrations/pi-install.js';
import { BIN, runNode, tempDir } from '../server/helpers.js';

/** An environment whose data folder (where the launcher goes) is a temporary one. */
const envIn = (dir: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv => ({ ...process.env, XDG_DATA_HOME: path.join(dir, 'data'), ...extra });

const backups = (dir: string) => fs.readdirSync(dir).filter((f) => f.includes('.throughline-backup-'));
const readJson = (file: string) => JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;

describe('install claude', () => {
  const userSettings = {
    model: 'opus',
    permissions: { allow: ['Bash(npm test)'] },
    hooks: {
      UserPromptSubmit: [{ hooks: [{ type: 'command', command: 'echo mine', timeout: 5 }] }],
      PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'guard.sh' }] }],
    },
  };
  const userGlobal = { numStartups: 12, projects: { '/p': { mcpServers: {} } }, mcpServers: { other: { type: 'stdio', command: 'other-mcp', args: [] } } };

  function setup() {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, 'settings.json'), JSON.stringify(userSettings, null, 2) + '\n');
    fs.writeFileSync(path.join(dir, '.claude.json'), JSON.stringify(userGlobal, null, 2) + '\n');
    return { dir, env: envIn(dir, { CLAUDE_CONFIG_DIR: dir }) };
  }

  it('adds the hooks and the MCP server beside the user’s own, once', () => {
    const { dir, env } = setup();
    const report = installClaude({ env, command: { command: '/usr/bin/node', args: ['/opt/throughline/bin/throughline.mjs'] } });
    expect(report.changed).toHaveLength(2);
    expect(backups(dir)).toHaveLength(2);

    const settings = readJson(path.join(dir, 'settings.json')) as typeof userSettings & { hooks: Record<string, { matcher?: string; hooks: { command: string }[] }[]> };
    expect(settings.model).toBe('opus');
    expect(settings.hooks.UserPromptSubmit).toHaveLength(2);
    expect(settings.hooks.UserPromptSubmit[1]!.hooks[0]!.command).toBe('/usr/bin/node /opt/throughline/bin/throughline.mjs hook claude');
    expect(settings.hooks.SessionStart).toEqual([{ matcher: 'compact', hooks: [{ type: 'command', command: '/usr/bin/node /opt/throughline/bin/throughline.mjs hook claude', timeout: 10 }] }]);
    expect(settings.hooks.PreToolUse).toEqual(userSettings.hooks.PreToolUse);
    const global = readJson(path.join(dir, '.claude.json')) as { mcpServers: Record<string, unknown>; numStartups: number };
    expect(global.numStartups).toBe(12);
    expect(global.mcpServers.other).toEqual(userGlobal.mcpServers.other);
    expect(global.mcpServers.throughline).toEqual({ type: 'stdio', command: '/usr/bin/node', args: ['/opt/throughline/bin/throughline.mjs', 'mcp'], env: pinnedEnv(env) });

    // Again: nothing changes, no new backups.
    const again = installClaude({ env, command: { command: '/usr/bin/node', args: ['/opt/throughline/bin/throughline.mjs'] } });
    expect(again.changed).toEqual([]);
    expect(backups(dir)).toHaveLength(2);
  });

  it('uninstall removes exactly what install added', () => {
    const { dir, env } = setup();
    installClaude({ env });
    // Without THROUGHLINE_COMMAND, the agents run the launcher.
    const settings = readJson(path.join(dir, 'settings.json')) as { hooks: { UserPromptSubmit: { hooks: { command: string }[] }[] } };
    expect(settings.hooks.UserPromptSubmit[1]!.hooks[0]!.command).toBe(`${launcherPath(env)} hook claude`);
    uninstallClaude({ env });
    expect(readJson(path.join(dir, 'settings.json'))).toEqual(userSettings);
    expect(readJson(path.join(dir, '.claude.json'))).toEqual(userGlobal);
    expect(uninstallClaude({ env }).changed).toEqual([]);
  });

  it('creates the files when Claude Code has none yet, and quotes paths with spaces', () => {
    const dir = tempDir();
    const env = envIn(dir, { CLAUDE_CONFIG_DIR: dir });
    installClaude({ env, command: { command: '/usr/bin/node', args: ['/Users/me/My Apps/throughline.mjs'] } });
    const settings = readJson(path.join(dir, 'settings.json')) as { hooks: { UserPromptSubmit: { hooks: { command: string }[] }[] } };
    expect(settings.hooks.UserPromptSubmit[0]!.hooks[0]!.command).toBe(`/usr/bin/node '/Users/me/My Apps/throughline.mjs' hook claude`);
    uninstallClaude({ env });
    expect(readJson(path.join(dir, 'settings.json'))).toEqual({});
    expect(readJson(path.join(dir, '.claude.json'))).toEqual({});
  });

  it('refuses to touch a settings file it cannot parse', () => {
    const { dir, env } = setup();
    fs.writeFileSync(path.join(dir, 'settings.json'), '{ "model": "opus", }');
    expect(() => installClaude({ env })).toThrow(/not valid JSON.*Nothing was changed/);
    expect(fs.readFileSync(path.join(dir, 'settings.json'), 'utf8')).toBe('{ "model": "opus", }');
  });
});

describe('install codex', () => {
  const userToml = `# my codex config
model = "o3" # the good one

[mcp_servers.docs]
command = "docs-mcp"
args = ["--fast"]

[profiles.work]
model = "gpt-5"
`;

  it('adds [mcp_servers.throughline], keeping comments and order; idempotent; uninstall restores the file', () => {
    const dir = tempDir();
    const file = path.join(dir, 'config.toml');
    fs.writeFileSync(file, userToml);
    const env = envIn(dir, { CODEX_HOME: dir });
    const cmd = { command: '/usr/bin/node', args: ['/opt/throughline/bin/throughline.mjs'] };
    installCodex({ env, command: cmd });
    const text = fs.readFileSync(file, 'utf8');
    expect(text.startsWith(userToml.trimEnd())).toBe(true);
    const config = parse(text) as { mcp_servers: Record<string, unknown>; profiles: unknown };
    expect(config.mcp_servers.throughline).toEqual({
      command: '/usr/bin/node',
      args: ['/opt/throughline/bin/throughline.mjs', 'mcp'],
      env: { ...pinnedEnv(env), CODEX_HOME: dir },
    });
    expect(config.mcp_servers.docs).toEqual({ command: 'docs-mcp', args: ['--fast'] });
    expect(backups(dir)).toHaveLength(1);

    expect(installCodex({ env, command: cmd }).changed).toEqual([]);
    expect(fs.readFileSync(file, 'utf8')).toBe(text);

    uninstallCodex({ env });
    expect(fs.readFileSync(file, 'utf8')).toBe(userToml);
  });

  it('replaces an older throughline entry (with its env sub-table) where it stood, keeping the comments around it', () => {
    const dir = tempDir();
    const file = path.join(dir, 'config.toml');
    const before = [
      'model = "o3"',
      '',
      '# Throughline: my past conversations',
      '[mcp_servers.throughline]',
      'command = "old"',
      '',
      '[mcp_servers.throughline.env]',
      'X = "1"',
      '',
      '# notifications for long runs',
      '[tui]',
      'notifications = true',
      '',
    ].join('\n');
    fs.writeFileSync(file, before);
    const env = envIn(dir, { CODEX_HOME: dir });
    installCodex({ env, command: { command: 'new', args: [] } });
    const text = fs.readFileSync(file, 'utf8');
    const config = parse(text) as { mcp_servers: Record<string, unknown>; tui: unknown };
    expect(config.mcp_servers.throughline).toEqual({ command: 'new', args: ['mcp'], env: { ...pinnedEnv(env), CODEX_HOME: dir } });
    expect(config.tui).toEqual({ notifications: true });
    // The comment above our table still sits right above it; the one above [tui] above [tui].
    expect(text).toMatch(/# Throughline: my past conversations\n\[mcp_servers\.throughline\]\n/);
    expect(text).toMatch(/# notifications for long runs\n\[tui\]/);
    expect(text.startsWith('model = "o3"\n\n# Throughline')).toBe(true);
    expect(text).not.toContain('command = "old"');
    // Uninstall takes the table out and leaves both comments.
    uninstallCodex({ env });
    const after = fs.readFileSync(file, 'utf8');
    expect(after).toContain('# Throughline: my past conversations');
    expect(after).toMatch(/# notifications for long runs\n\[tui\]/);
    expect((parse(after) as { mcp_servers?: unknown }).mcp_servers).toBeUndefined();
  });

  it('--dry-run says what would change and writes nothing', () => {
    const dir = tempDir();
    const file = path.join(dir, 'config.toml');
    fs.writeFileSync(file, userToml);
    const env = envIn(dir, { CODEX_HOME: dir });
    const report = installCodex({ env, dryRun: true });
    expect(report.dryRun).toBe(true);
    expect(report.changed).toContain(file);
    expect(report.diffs.find((d) => d.file === file)!.diff).toMatch(/^\+ \[mcp_servers\.throughline\]$/m);
    expect(fs.readFileSync(file, 'utf8')).toBe(userToml);
    expect(backups(dir)).toEqual([]);
    expect(fs.existsSync(launcherPath(env))).toBe(false);
  });

  it('creates config.toml when there is none, and refuses a file that is not TOML', () => {
    const dir = tempDir();
    const env = envIn(dir, { CODEX_HOME: dir });
    installCodex({ env });
    expect(Object.keys((parse(fs.readFileSync(path.join(dir, 'config.toml'), 'utf8')) as { mcp_servers: object }).mcp_servers)).toEqual(['throughline']);
    fs.writeFileSync(path.join(dir, 'config.toml'), 'model = ');
    expect(() => installCodex({ env })).toThrow(/not valid TOML/);
  });
});

describe('the launcher agents run', () => {
  it('outlives a Node upgrade: with the Node that installed it gone, it runs the Node on PATH; a hook never fails', async () => {
    const dir = tempDir();
    const launcher = path.join(dir, 'throughline');
    fs.writeFileSync(launcher, launcherScript('/opt/node-v20.0.0-gone/bin/node', BIN), { mode: 0o755 });
    const { spawnSync } = await import('node:child_process');
    const env = { ...process.env, PATH: `${path.dirname(process.execPath)}:/usr/bin:/bin` };
    const help = spawnSync(launcher, ['help'], { env, encoding: 'utf8' });
    expect(help.status, help.stderr).toBe(0);
    expect(help.stdout).toMatch(/Usage: throughline COMMAND/);
    // Nothing left at all (no Node on PATH, the checkout gone): a hook still exits 0, anything else fails.
    fs.writeFileSync(launcher, launcherScript('/opt/gone/node', '/opt/gone/bin/throughline.mjs'), { mode: 0o755 });
    const bare = { PATH: '/nonexistent' };
    expect(spawnSync('/bin/sh', [launcher, 'hook', 'claude'], { env: bare, input: '{}' }).status).toBe(0);
    expect(spawnSync('/bin/sh', [launcher, 'mcp'], { env: bare }).status).toBe(127);
  }, 30_000);
});

describe('install pi', () => {
  it('copies the extension where pi discovers it; idempotent; uninstall removes only ours', () => {
    const dir = tempDir();
    const env = envIn(dir, { PI_CODING_AGENT_DIR: dir });
    const target = path.join(dir, 'extensions', 'throughline.ts');
    installPi({ env });
    expect(fs.readFileSync(target, 'utf8')).toBe(fs.readFileSync(piExtensionSource(), 'utf8'));
    expect(installPi({ env }).changed).toEqual([]);
    uninstallPi({ env });
    expect(fs.existsSync(target)).toBe(false);
    fs.writeFileSync(target, 'export default function mine() {}\n');
    uninstallPi({ env });
    expect(fs.existsSync(target)).toBe(true);
  });
});

describe('the CLI', () => {
  it('`throughline install codex` reports what it did; a wrong agent is a usage error; a refusal is one line', async () => {
    const dir = tempDir();
    const env = envIn(dir, { CODEX_HOME: dir });
    const broken = tempDir();
    fs.writeFileSync(path.join(broken, 'config.toml'), 'model = ');
    const [install, bad, refused] = await Promise.all([
      runNode([BIN, 'install', 'codex', '--json'], { env }),
      runNode([BIN, 'uninstall', 'vim'], { env }),
      runNode([BIN, 'install', 'codex'], { env: envIn(broken, { CODEX_HOME: broken }) }),
    ]);
    expect(install.code).toBe(0);
    expect(JSON.parse(install.stdout).changed).toEqual([launcherPath(env), path.join(dir, 'config.toml'), path.join(dir, 'hooks.json')]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/claude, codex/);
    expect(refused.code).toBe(1);
    expect(refused.stderr.trim().split('\n')).toHaveLength(1);
    expect(refused.stderr).toMatch(/^throughline install codex: .*config\.toml is not valid TOML/);
    expect(refused.stderr).not.toMatch(/InstallError|\n\s+at /);
    const dry = await runNode([BIN, 'uninstall', 'codex', '--dry-run'], { env });
    expect(dry.code).toBe(0);
    expect(dry.stdout).toMatch(/would change .*config\.toml/);
    expect(dry.stdout).toMatch(/- \[mcp_servers\.throughline\]/);
    expect(dry.stdout).toMatch(/Dry run: nothing was changed/);
    expect(fs.readFileSync(path.join(dir, 'config.toml'), 'utf8')).toContain('[mcp_servers.throughline]');
  }, 30_000);
});
