// `throughline install codex` / `uninstall codex`: the MCP server as `[mcp_servers.throughline]` in
// $CODEX_HOME/config.toml (default ~/.codex/config.toml). The file is edited as text — our table is
// cut out and appended — so the user's comments, order and formatting survive; smol-toml checks the
// file before and after, and a result that does not parse to the intended value is never written.
import path from 'node:path';
import { parse, stringify } from 'smol-toml';
import { emptyReport, home, InstallError, readText, stateOf, throughlineCommand, updateFile, type InstallReport, type InstallState } from './files.js';

export function codexConfigPath(env: NodeJS.ProcessEnv = process.env): string {
  return path.join(env.CODEX_HOME || path.join(home(env), '.codex'), 'config.toml');
}

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

/** Cuts `[mcp_servers.throughline]` and its sub-tables (`[mcp_servers.throughline.env]`) out of the text. */
function withoutOurTables(text: string): string {
  const lines = text.split('\n');
  const out: string[] = [];
  let inOurs = false;
  for (const line of lines) {
    if (ANY_HEADER.test(line)) inOurs = HEADER.test(line);
    if (!inOurs) out.push(line);
  }
  return out.join('\n').replace(/\n{3,}$/, '\n\n');
}

export interface CodexInstallOptions {
  env?: NodeJS.ProcessEnv;
  command?: { command: string; args: string[] };
}

export function installCodex(options: CodexInstallOptions = {}): InstallReport {
  const env = options.env ?? process.env;
  const file = codexConfigPath(env);
  const cmd = options.command ?? throughlineCommand(env);
  const report = emptyReport();
  const before = readText(file);
  parseToml(before ?? '', file);

  const wanted = { command: cmd.command, args: [...cmd.args, 'mcp'] };
  const base = withoutOurTables(before ?? '');
  if (ourEntry(parseToml(base, file)) !== undefined) {
    throw new InstallError('conflict', `${file} defines mcp_servers.throughline in a form this installer cannot edit (an inline table?); remove it by hand and run this again.`);
  }
  const table = stringify({ mcp_servers: { throughline: wanted } });
  const trimmed = base.replace(/\s*$/, '');
  const next = (trimmed ? trimmed + '\n\n' : '') + table.replace(/\s*$/, '') + '\n';

  const check = ourEntry(parseToml(next, file));
  if (JSON.stringify(check) !== JSON.stringify(wanted)) {
    throw new InstallError('conflict', `Could not add mcp_servers.throughline to ${file} cleanly; nothing was changed.`);
  }
  // Already installed with the same command: leave the file byte for byte as it is.
  const current = before === undefined ? undefined : ourEntry(parseToml(before, file));
  updateFile(file, before, JSON.stringify(current) === JSON.stringify(wanted) ? before! : next, report);
  report.notes.push('Restart Codex to pick up the MCP server (`/mcp` lists it).');
  return report;
}

export function uninstallCodex(options: CodexInstallOptions = {}): InstallReport {
  const env = options.env ?? process.env;
  const file = codexConfigPath(env);
  const report = emptyReport();
  const before = readText(file);
  if (before === undefined) return report;
  const config = parseToml(before, file);
  if (ourEntry(config) === undefined) {
    report.unchanged.push(file);
    return report;
  }
  let next = withoutOurTables(before).replace(/\s*$/, '') + '\n';
  if (!next.trim()) next = '';
  if (ourEntry(parseToml(next, file)) !== undefined) {
    throw new InstallError('conflict', `${file} defines mcp_servers.throughline in a form this installer cannot edit; remove it by hand.`);
  }
  updateFile(file, before, next, report);
  return report;
}

/** Installed when config.toml has an mcp_servers.throughline that runs `… mcp` through Throughline. */
export function codexState(env: NodeJS.ProcessEnv = process.env): InstallState {
  const file = codexConfigPath(env);
  const entry = ourEntry(parseToml(readText(file) ?? '', file)) as { command?: unknown; args?: unknown } | undefined;
  const words = entry ? [entry.command, ...(Array.isArray(entry.args) ? entry.args : [])].filter((w): w is string => typeof w === 'string') : [];
  return stateOf([words.some((w) => /throughline/.test(w)) && words.includes('mcp')], [file]);
}
