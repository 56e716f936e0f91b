// `throughline install codex` / `uninstall codex`: the MCP server as `[mcp_servers.throughline]` in
// $CODEX_HOME/config.toml (default ~/.codex/config.toml). The file is edited as text — our table is
// replaced where it stands, or appended — so the user's comments, order and formatting survive;
// smol-toml checks the file before and after, and a result that does not parse to the intended
// value is never written.
//
// Codex starts MCP servers with only HOME, LOGNAME, PATH, SHELL, USER, LANG, LC_ALL, TERM, TMPDIR
// and TZ (its DEFAULT_ENV_VARS, codex-rs/rmcp-client/src/utils.rs) plus the table's `env`. Without
// XDG_RUNTIME_DIR, XDG_DATA_HOME and THROUGHLINE_* the server would look for another socket and
// another index than the person's shell, so the paths this shell resolves are pinned in `env`.
// (`env_vars` would forward them instead, but Codex builds without it reject the whole table.)
//
// And the turn-start hook: a UserPromptSubmit command hook in $CODEX_HOME/hooks.json (Claude Code's
// hooks schema: `hooks.UserPromptSubmit` = [{hooks: [{type: "command", command, timeout (s)}]}];
// codex-rs/config/src/hook_config.rs), edited like the JSON agents' settings so the person's own
// hooks and comments stay. Codex (0.124 and later) runs a hook the person has not trusted not at
// all, and says nothing: the install says to trust it in Codex's /hooks.
import path from 'node:path';
import { parse, stringify } from 'smol-toml';
import { emptyReport, home, InstallError, pinnedEnv, readText, removeFile, shellQuote, stateOf, updateFile, type InstallOptions, type InstallReport, type InstallState } from './files.js';
import { hasOurHook, readJsonSettings, withoutOurHook, withOurHook, type JsonHook } from './json-mcp-install.js';
import { agentCommand } from './launcher.js';

const codexHome = (env: NodeJS.ProcessEnv): string => env.CODEX_HOME || path.join(home(env), '.codex');

export function codexConfigPath(env: NodeJS.ProcessEnv = process.env): string {
  return path.join(codexHome(env), 'config.toml');
}

export function codexHooksPath(env: NodeJS.ProcessEnv = process.env): string {
  return path.join(codexHome(env), 'hooks.json');
}

const OUR_HOOK = /throughline(\.mjs)?'?\s+hook\s+codex\b/;

export const CODEX_HOOK: JsonHook = {
  event: ['hooks', 'UserPromptSubmit'],
  group: (cmd) => ({ hooks: [{ type: 'command', command: [cmd.command, ...cmd.args, 'hook', 'codex'].map(shellQuote).join(' '), timeout: 10 }] }),
  isOurs: (group) => {
    const hooks = (group as { hooks?: unknown } | null)?.hooks;
    return Array.isArray(hooks) && hooks.some((h) => typeof (h as { command?: unknown })?.command === 'string' && OUR_HOOK.test((h as { command: string }).command));
  },
};

const withNewline = (text: string): string => (text && !text.endsWith('\n') ? text + '\n' : text);

type Toml = Record<string, unknown>;

function parseToml(text: string, file: string): Toml {
  try {
    return parse(text) as Toml;
  } catch (err) {
    throw new InstallError('unreadable', `${file} is not valid TOML (${(err as Error).message.split('\n')[0]}); fix it by hand, then run this again. Nothing was changed.`);
  }
}

function ourEntry(config: Toml): unknown {
  const servers = config.mcp_servers as Toml | undefined;
  return servers?.throughline;
}

const HEADER = /^\s*\[\s*mcp_servers\s*\.\s*(?:throughline|"throughline")\s*(?:\]|\.)/;
const ANY_HEADER = /^\s*\[/;
const KEEP = /^\s*(#.*)?$/;

/**
 * Cuts `[mcp_servers.throughline]` and its sub-tables (`[mcp_servers.throughline.env]`) out of the
 * text, and says where the first one stood. Comments and blank lines that end one of our tables
 * stay: they sit above whatever follows and belong to it (a comment above the next table).
 */
function cutOurTables(text: string): { lines: string[]; at: number | null } {
  const lines = text.split('\n');
  const out: string[] = [];
  let at: number | null = null;
  let ours: string[] | null = null;
  const flush = () => {
    if (!ours) return;
    let keepFrom = ours.length;
    while (keepFrom > 0 && KEEP.test(ours[keepFrom - 1]!)) keepFrom--;
    const kept = ours.slice(keepFrom);
    // One blank line where the table was, not two.
    if (kept[0]?.trim() === '' && (out.length === 0 || out.at(-1)!.trim() === '')) kept.shift();
    out.push(...kept);
    ours = null;
  };
  for (const line of lines) {
    if (ANY_HEADER.test(line)) {
      flush();
      if (HEADER.test(line)) {
        at ??= out.length;
        ours = [];
        continue;
      }
    }
    if (ours) ours.push(line);
    else out.push(line);
  }
  flush();
  return { lines: out, at };
}

const trimEnd = (s: string) => s.replace(/\s*$/, '');

export function installCodex(options: InstallOptions = {}): InstallReport {
  const env = options.env ?? process.env;
  const file = codexConfigPath(env);
  const report = emptyReport(options.dryRun);
  const before = readText(file);
  parseToml(before ?? '', file);
  const hooksFile = codexHooksPath(env);
  const hooks = readJsonSettings(hooksFile);
  const cmd = options.command ?? agentCommand(env, report);

  const pins = pinnedEnv(env);
  // CODEX_HOME is dropped too; the server reads Codex's sessions to find its own conversation.
  if (env.CODEX_HOME) pins.CODEX_HOME = path.resolve(env.CODEX_HOME);
  const wanted = { command: cmd.command, args: [...cmd.args, 'mcp'], env: pins };
  const { lines, at } = cutOurTables(before ?? '');
  if (ourEntry(parseToml(lines.join('\n'), file)) !== undefined) {
    throw new InstallError('conflict', `${file} defines mcp_servers.throughline in a form this installer cannot edit (an inline table?); remove it by hand and run this again.`);
  }
  const table = trimEnd(stringify({ mcp_servers: { throughline: wanted } }));
  let next: string;
  if (at === null) {
    const base = trimEnd(lines.join('\n'));
    next = (base ? base + '\n\n' : '') + table + '\n';
  } else {
    // In place, where the old table stood, so a comment above it still describes it.
    const rest = lines.slice(at);
    const gap = rest.length && rest[0]!.trim() !== '' ? '\n' : '';
    next = trimEnd([...lines.slice(0, at), table + '\n' + gap + rest.join('\n')].join('\n')) + '\n';
  }

  const check = ourEntry(parseToml(next, file));
  if (JSON.stringify(check) !== JSON.stringify(wanted)) {
    throw new InstallError('conflict', `Could not add mcp_servers.throughline to ${file} cleanly; nothing was changed.`);
  }
  // Already installed the same way: leave the file byte for byte as it is.
  const current = before === undefined ? undefined : ourEntry(parseToml(before, file));
  updateFile(file, before, JSON.stringify(current) === JSON.stringify(wanted) ? before! : next, report);
  const hooksNext = withOurHook(hooks.text ?? '', CODEX_HOOK, cmd);
  updateFile(hooksFile, hooks.text, hooksNext === hooks.text ? hooks.text : withNewline(hooksNext), report);
  report.notes.push(
    `Codex runs the turn-start hook in ${hooksFile} only once you trust it: open /hooks in Codex and trust Throughline's UserPromptSubmit hook (hooks need Codex 0.124 or later).`,
  );
  report.notes.push(`Codex's MCP server will use the socket ${pins.THROUGHLINE_SOCKET} and the index ${pins.THROUGHLINE_DB} (pinned in config.toml: Codex passes MCP servers only a few environment variables).`);
  if (env.THROUGHLINE_TOKEN) {
    report.notes.push('THROUGHLINE_TOKEN is set here but is not written into config.toml; to pass it, add env_vars = ["THROUGHLINE_TOKEN"] to [mcp_servers.throughline].');
  }
  report.notes.push('Restart Codex to pick up the MCP server and the hook (`/mcp` and `/hooks` list them).');
  return report;
}

/** Takes our hook out of hooks.json; a file left holding only `{}` goes (an empty object says nothing). */
function uninstallCodexHook(env: NodeJS.ProcessEnv, report: InstallReport): void {
  const file = codexHooksPath(env);
  const { text } = readJsonSettings(file);
  if (text === undefined) return;
  const next = withoutOurHook(text, CODEX_HOOK);
  if (next !== text && /^\s*\{\s*\}\s*$/.test(next)) removeFile(file, report, false);
  else updateFile(file, text, next, report);
}

export function uninstallCodex(options: InstallOptions = {}): InstallReport {
  const env = options.env ?? process.env;
  const file = codexConfigPath(env);
  const report = emptyReport(options.dryRun);
  uninstallCodexHook(env, report);
  const before = readText(file);
  if (before === undefined) return report;
  const config = parseToml(before, file);
  if (ourEntry(config) === undefined) {
    report.unchanged.push(file);
    return report;
  }
  const { lines } = cutOurTables(before);
  let next = trimEnd(lines.join('\n')) + '\n';
  if (!next.trim()) next = '';
  if (ourEntry(parseToml(next, file)) !== undefined) {
    throw new InstallError('conflict', `${file} defines mcp_servers.throughline in a form this installer cannot edit; remove it by hand.`);
  }
  updateFile(file, before, next, report);
  return report;
}

/** Installed when config.toml has an mcp_servers.throughline that runs `… mcp` through Throughline, and hooks.json our hook. */
export function codexState(env: NodeJS.ProcessEnv = process.env): InstallState {
  const file = codexConfigPath(env);
  const hooksFile = codexHooksPath(env);
  const entry = ourEntry(parseToml(readText(file) ?? '', file)) as { command?: unknown; args?: unknown } | undefined;
  const words = entry ? [entry.command, ...(Array.isArray(entry.args) ? entry.args : [])].filter((w): w is string => typeof w === 'string') : [];
  return stateOf([words.some((w) => /throughline/.test(w)) && words.includes('mcp'), hasOurHook(readJsonSettings(hooksFile).config, CODEX_HOOK)], [file, hooksFile]);
}
