// install / uninstall for Claude Code, Codex and pi: idempotent, backed up, and uninstall removes
// exactly what install added, leaving the user's own settings as they were.
import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'smol-toml';
import { describe, expect, it } from 'vitest';
import { installClaude, uninstallClaude } from '../../src/main/integrations/claude-install.js';
import { installCodex, uninstallCodex } from '../../src/main/integrations/codex-install.js';
import { installPi, piExtensionSource, uninstallPi } from '../../src/main/integrations/pi-install.js';
import { BIN, runNode, tempDir } from '../server/helpers.js';

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
    return { dir, env: { ...process.env, CLAUDE_CONFIG_DIR: dir } };
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
    expect(global.mcpServers.throughline).toEqual({ type: 'stdio', command: '/usr/bin/node', args: ['/opt/throughline/bin/throughline.mjs', 'mcp'], env: {} });

    // Again: nothing changes, no new backups.
    const again = installClaude({ env, command: { command: '/usr/bin/node', args: ['/opt/throughline/bin/throughline.mjs'] } });
    expect(again.changed).toEqual([]);
    expect(backups(dir)).toHaveLength(2);
  });

  it('uninstall removes exactly what install added', () => {
    const { dir, env } = setup();
    installClaude({ env });
    uninstallClaude({ env });
    expect(readJson(path.join(dir, 'settings.json'))).toEqual(userSettings);
    expect(readJson(path.join(dir, '.claude.json'))).toEqual(userGlobal);
    expect(uninstallClaude({ env }).changed).toEqual([]);
  });

  it('creates the files when Claude Code has none yet, and quotes paths with spaces', () => {
    const dir = tempDir();
    const env = { ...process.env, CLAUDE_CONFIG_DIR: dir };
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
    const env = { ...process.env, CODEX_HOME: dir };
    const cmd = { command: '/usr/bin/node', args: ['/opt/throughline/bin/throughline.mjs'] };
    installCodex({ env, command: cmd });
    const text = fs.readFileSync(file, 'utf8');
    expect(text.startsWith(userToml.trimEnd())).toBe(true);
    const config = parse(text) as { mcp_servers: Record<string, unknown>; profiles: unknown };
    expect(config.mcp_servers.throughline).toEqual({ command: '/usr/bin/node', args: ['/opt/throughline/bin/throughline.mjs', 'mcp'] });
    expect(config.mcp_servers.docs).toEqual({ command: 'docs-mcp', args: ['--fast'] });
    expect(backups(dir)).toHaveLength(1);

    expect(installCodex({ env, command: cmd }).changed).toEqual([]);
    expect(fs.readFileSync(file, 'utf8')).toBe(text);

    uninstallCodex({ env });
    expect(fs.readFileSync(file, 'utf8')).toBe(userToml);
  });

  it('replaces an older throughline entry (with its env sub-table) in place of duplicating it', () => {
    const dir = tempDir();
    const file = path.join(dir, 'config.toml');
    fs.writeFileSync(file, `[mcp_servers.throughline]\ncommand = "old"\n\n[mcp_servers.throughline.env]\nX = "1"\n\n[tui]\nnotifications = true\n`);
    installCodex({ env: { ...process.env, CODEX_HOME: dir }, command: { command: 'new', args: [] } });
    const config = parse(fs.readFileSync(file, 'utf8')) as { mcp_servers: Record<string, unknown>; tui: unknown };
    expect(config.mcp_servers.throughline).toEqual({ command: 'new', args: ['mcp'] });
    expect(config.tui).toEqual({ notifications: true });
  });

  it('creates config.toml when there is none, and refuses a file that is not TOML', () => {
    const dir = tempDir();
    const env = { ...process.env, CODEX_HOME: dir };
    installCodex({ env });
    expect(Object.keys((parse(fs.readFileSync(path.join(dir, 'config.toml'), 'utf8')) as { mcp_servers: object }).mcp_servers)).toEqual(['throughline']);
    fs.writeFileSync(path.join(dir, 'config.toml'), 'model = ');
    expect(() => installCodex({ env })).toThrow(/not valid TOML/);
  });
});

describe('install pi', () => {
  it('copies the extension where pi discovers it; idempotent; uninstall removes only ours', () => {
    const dir = tempDir();
    const env = { ...process.env, PI_CODING_AGENT_DIR: dir };
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
  it('`throughline install codex` reports what it did; a wrong agent is a usage error', async () => {
    const dir = tempDir();
    const env = { ...process.env, CODEX_HOME: dir };
    const [install, bad] = await Promise.all([runNode([BIN, 'install', 'codex', '--json'], { env }), runNode([BIN, 'uninstall', 'vim'], { env })]);
    expect(install.code).toBe(0);
    expect(JSON.parse(install.stdout).changed).toEqual([path.join(dir, 'config.toml')]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/claude, codex, pi/);
  }, 30_000);
});
