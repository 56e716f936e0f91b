// `throughline install claude` / `uninstall claude`. Adds to the user's Claude Code configuration:
//  - in settings.json ($CLAUDE_CONFIG_DIR or ~/.claude): a UserPromptSubmit hook (the pointer block on a
//    session's first prompt) and a SessionStart hook for "compact" (where the forgotten part went);
//  - in the global config (.claude.json in $CLAUDE_CONFIG_DIR, else ~/.claude.json): a user-scope MCP server
//    "throughline", what `claude mcp add -s user` writes.
// Idempotent (a second install changes nothing), every change after a timestamped backup, and
// uninstall removes exactly these entries, recognised by the command they run.
import path from 'node:path';
import { emptyReport, home, pinnedEnv, readJsonObject, readText, shellQuote, stateOf, updateFile, type InstallOptions, type InstallReport, type InstallState, type JsonObject } from './files.js';
import { agentCommand } from './launcher.js';

export interface ClaudePaths {
  settings: string;
  globalConfig: string;
}

export function claudePaths(env: NodeJS.ProcessEnv = process.env): ClaudePaths {
  const dir = env.CLAUDE_CONFIG_DIR;
  return {
    settings: path.join(dir || path.join(home(env), '.claude'), 'settings.json'),
    globalConfig: path.join(dir || home(env), '.claude.json'),
  };
}

interface HookCommand {
  type: string;
  command?: string;
  timeout?: number;
}
interface HookGroup {
  matcher?: string;
  hooks?: HookCommand[];
}

/** A hook command Throughline installed: it runs `throughline … hook claude`. */
const OUR_HOOK = /throughline(\.mjs)?'?\s+hook\s+claude\b/;
const HOOK_EVENTS: { event: string; matcher?: string }[] = [{ event: 'UserPromptSubmit' }, { event: 'SessionStart', matcher: 'compact' }];

function isOurServer(entry: unknown): boolean {
  if (typeof entry !== 'object' || entry === null) return false;
  const e = entry as { command?: unknown; args?: unknown };
  const words = [e.command, ...(Array.isArray(e.args) ? e.args : [])].filter((w): w is string => typeof w === 'string');
  return words.some((w) => /throughline/.test(w)) && words.includes('mcp');
}

/** Removes our hook commands; groups and events left empty by that removal go too. */
function withoutOurHooks(settings: JsonObject): JsonObject {
  const hooks = settings.hooks;
  if (typeof hooks !== 'object' || hooks === null || Array.isArray(hooks)) return settings;
  const next: Record<string, unknown> = {};
  let touched = false;
  for (const [event, groups] of Object.entries(hooks)) {
    if (!Array.isArray(groups)) {
      next[event] = groups;
      continue;
    }
    const kept: unknown[] = [];
    for (const group of groups as HookGroup[]) {
      const list = Array.isArray(group?.hooks) ? group.hooks : null;
      const ours = list?.filter((h) => typeof h?.command === 'string' && OUR_HOOK.test(h.command)) ?? [];
      if (!ours.length) {
        kept.push(group);
        continue;
      }
      touched = true;
      const rest = list!.filter((h) => !ours.includes(h));
      if (rest.length) kept.push({ ...group, hooks: rest });
    }
    if (kept.length || !touched) next[event] = kept;
  }
  if (!touched) return settings;
  const out = { ...settings };
  if (Object.keys(next).length) out.hooks = next;
  else delete out.hooks;
  return out;
}

function withOurHooks(settings: JsonObject, hookCommand: string): JsonObject {
  const clean = withoutOurHooks(settings);
  const hooks = { ...((clean.hooks as Record<string, unknown>) ?? {}) };
  for (const { event, matcher } of HOOK_EVENTS) {
    const groups = Array.isArray(hooks[event]) ? [...(hooks[event] as unknown[])] : [];
    const entry: HookCommand = { type: 'command', command: hookCommand, timeout: 10 };
    groups.push(matcher ? { matcher, hooks: [entry] } : { hooks: [entry] });
    hooks[event] = groups;
  }
  return { ...clean, hooks };
}

const serialize = (value: JsonObject): string => JSON.stringify(value, null, 2) + '\n';

export function installClaude(options: InstallOptions = {}): InstallReport {
  const env = options.env ?? process.env;
  const paths = claudePaths(env);
  const report = emptyReport(options.dryRun);
  const cmd = options.command ?? agentCommand(env, report);

  const settingsText = readText(paths.settings);
  const settings = readJsonObject(paths.settings) ?? {};
  const hookCommand = [cmd.command, ...cmd.args, 'hook', 'claude'].map(shellQuote).join(' ');
  const nextSettings = withOurHooks(settings, hookCommand);
  updateFile(paths.settings, settingsText, settingsText !== undefined && sameJson(settings, nextSettings) ? settingsText : serialize(nextSettings), report);

  const globalText = readText(paths.globalConfig);
  const global = readJsonObject(paths.globalConfig) ?? {};
  const servers = { ...((global.mcpServers as JsonObject | undefined) ?? {}) };
  const existing = servers.throughline;
  if (existing !== undefined && !isOurServer(existing)) report.notes.push(`Replaced an MCP server named "throughline" that did not run Throughline (backed up).`);
  servers.throughline = { type: 'stdio', command: cmd.command, args: [...cmd.args, 'mcp'], env: pinnedEnv(env) };
  const nextGlobal = { ...global, mcpServers: servers };
  updateFile(paths.globalConfig, globalText, globalText !== undefined && sameJson(global, nextGlobal) ? globalText : serialize(nextGlobal), report);
  report.notes.push('Restart Claude Code (or run /hooks and /mcp) to pick up the hook and the MCP server.');
  return report;
}

export function uninstallClaude(options: InstallOptions = {}): InstallReport {
  const env = options.env ?? process.env;
  const paths = claudePaths(env);
  const report = emptyReport(options.dryRun);

  const settingsText = readText(paths.settings);
  const settings = readJsonObject(paths.settings);
  if (settings && settingsText !== undefined) {
    const next = withoutOurHooks(settings);
    updateFile(paths.settings, settingsText, sameJson(settings, next) ? settingsText : serialize(next), report);
  }

  const globalText = readText(paths.globalConfig);
  const global = readJsonObject(paths.globalConfig);
  if (global && globalText !== undefined) {
    const servers = global.mcpServers as JsonObject | undefined;
    if (servers && isOurServer(servers.throughline)) {
      const rest = { ...servers };
      delete rest.throughline;
      const next: JsonObject = { ...global, mcpServers: rest };
      // An mcpServers that only held ours goes with it, so install + uninstall is a no-op.
      if (!Object.keys(rest).length) delete next.mcpServers;
      updateFile(paths.globalConfig, globalText, serialize(next), report);
    } else {
      report.unchanged.push(paths.globalConfig);
    }
  }
  return report;
}

/** Whether our hook is in `event`'s groups (for SessionStart, under the "compact" matcher). */
function hasOurHook(settings: JsonObject, event: string, matcher?: string): boolean {
  const groups = (settings.hooks as Record<string, unknown> | undefined)?.[event];
  if (!Array.isArray(groups)) return false;
  return (groups as HookGroup[]).some(
    (g) => (matcher === undefined || g?.matcher === matcher) && Array.isArray(g?.hooks) && g.hooks.some((h) => typeof h?.command === 'string' && OUR_HOOK.test(h.command)),
  );
}

/** Both hooks and the MCP server: installed; some of them: partial. Throws InstallError on a file it cannot read. */
export function claudeState(env: NodeJS.ProcessEnv = process.env): InstallState {
  const paths = claudePaths(env);
  const settings = readJsonObject(paths.settings) ?? {};
  const global = readJsonObject(paths.globalConfig) ?? {};
  const servers = global.mcpServers as JsonObject | undefined;
  const found = [...HOOK_EVENTS.map((h) => hasOurHook(settings, h.event, h.matcher)), isOurServer(servers?.throughline)];
  return stateOf(found, [paths.settings, paths.globalConfig]);
}

function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
