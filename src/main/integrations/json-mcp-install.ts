// `throughline install gemini|opencode|copilot|cursor|droid`: agents that load MCP servers from a JSON
// (or JSON-with-comments) settings file. One installer, a spec per agent (json-mcp-agents.ts) saying
// where the file is, where the servers live in it and what an entry looks like there. The file is
// edited in place (jsonc-edit.ts), so the person's comments and formatting survive; idempotent,
// backed up, and `uninstall` removes exactly what `install` added.
import { parseJsonc, removeJsonc, setJsonc, JsoncError } from './jsonc-edit.js';
import { emptyReport, InstallError, pinnedEnv, readText, stateOf, updateFile, type InstallOptions, type InstallReport, type InstallState, type JsonObject, type Launch } from './files.js';
import { agentCommand } from './launcher.js';

export interface JsonMcpAgent {
  /** `throughline install <id>`. */
  id: string;
  /** The agent, as people call it. */
  agent: string;
  /** The settings file (from the agent's own docs or source). */
  file(env: NodeJS.ProcessEnv): string;
  /** Where its MCP servers are, given the file's content (OpenCode has two layouts). */
  serversPath(config: JsonObject): string[];
  /** Our server's entry in the agent's schema (`servers`: where it goes, from serversPath). */
  entry(cmd: Launch, env: Record<string, string>, servers: readonly string[]): JsonObject;
  /** A turn-start hook in the same file, where the agent has one (Gemini CLI's BeforeAgent). */
  hook?: JsonHook;
  restart: string;
}

/** A hook in a JSON settings file: the path of its event's groups, our group, and how to know ours. */
export interface JsonHook {
  event: string[];
  group(cmd: Launch): JsonObject;
  isOurs(group: unknown): boolean;
}

const WORD = /throughline/;

/** An MCP entry that runs `… throughline … mcp` (command and args, or OpenCode's command array). */
export function runsThroughlineMcp(entry: unknown): boolean {
  if (typeof entry !== 'object' || entry === null) return false;
  const e = entry as { command?: unknown; args?: unknown };
  const words = [...(Array.isArray(e.command) ? e.command : [e.command]), ...(Array.isArray(e.args) ? e.args : [])].filter((w): w is string => typeof w === 'string');
  return words.some((w) => WORD.test(w)) && words.includes('mcp');
}

/** A JSON (with comments) settings file's text and value; refuses one that is not a JSON object. */
export function readJsonSettings(file: string): { text: string | undefined; config: JsonObject } {
  const text = readText(file);
  let value: unknown;
  try {
    value = text === undefined ? undefined : parseJsonc(text);
  } catch (err) {
    const why = err instanceof JsoncError ? err.message : (err as Error).message;
    throw new InstallError('unreadable', `${file} is not valid JSON (${why}); fix it by hand, then run this again. Nothing was changed.`);
  }
  if (value === undefined) return { text, config: {} };
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new InstallError('unreadable', `${file} does not hold a JSON object; nothing was changed.`);
  return { text, config: value as JsonObject };
}

const at = (config: unknown, path: readonly string[]): unknown =>
  path.reduce<unknown>((v, k) => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as JsonObject)[k] : undefined), config);

/** Removes `path` and then each parent it leaves empty (down to, not including, the root). */
function removeEmptying(text: string, path: readonly string[]): string {
  let out = removeJsonc(text, path);
  for (let n = path.length - 1; n > 0; n--) {
    const parent = at(parseJsonc(out), path.slice(0, n));
    if (typeof parent !== 'object' || parent === null || Object.keys(parent).length) break;
    out = removeJsonc(out, path.slice(0, n));
  }
  return out;
}

/** `text` without our hook group (and without the event and parents that leaves empty). */
export function withoutOurHook(text: string, hook: JsonHook): string {
  const groups = at(parsed(text), hook.event);
  if (!Array.isArray(groups) || !groups.some(hook.isOurs)) return text;
  const rest = groups.filter((g) => !hook.isOurs(g));
  return rest.length ? setJsonc(text, hook.event, rest) : removeEmptying(text, hook.event);
}

/** `text` with our hook group, once, after the person's own; the same text when it is already so. */
export function withOurHook(text: string, hook: JsonHook, cmd: Launch): string {
  const group = hook.group(cmd);
  const groups = at(parsed(text), hook.event);
  const ours = Array.isArray(groups) ? groups.filter(hook.isOurs) : [];
  if (ours.length === 1 && JSON.stringify(ours[0]) === JSON.stringify(group)) return text;
  const without = withoutOurHook(text, hook);
  const now = at(parsed(without), hook.event);
  return setJsonc(without, hook.event, [...(Array.isArray(now) ? now : []), group]);
}

/** Whether `config` holds our hook group. */
export function hasOurHook(config: JsonObject, hook: JsonHook): boolean {
  const groups = at(config, hook.event);
  return Array.isArray(groups) && groups.some(hook.isOurs);
}

export function installJsonMcp(spec: JsonMcpAgent, options: InstallOptions = {}): InstallReport {
  const env = options.env ?? process.env;
  const report = emptyReport(options.dryRun);
  const file = spec.file(env);
  const { text, config } = readJsonSettings(file);
  const cmd = options.command ?? agentCommand(env, report);
  const servers = spec.serversPath(config);
  const existing = at(config, [...servers, 'throughline']);
  if (existing !== undefined && !runsThroughlineMcp(existing)) report.notes.push(`Replaced an MCP server named "throughline" in ${file} that did not run Throughline (backed up).`);
  const wanted = spec.entry(cmd, pinnedEnv(env), servers);
  let next = text ?? '';
  let changed = false;
  if (JSON.stringify(existing) !== JSON.stringify(wanted)) {
    next = setJsonc(next, [...servers, 'throughline'], wanted);
    changed = true;
  }
  if (spec.hook) {
    const withHook = withOurHook(next, spec.hook, cmd);
    changed ||= withHook !== next;
    next = withHook;
  }
  if (changed && !next.endsWith('\n')) next += '\n';
  // Already installed the same way: the file stays byte for byte as it is.
  updateFile(file, text, changed ? next : (text ?? next), report);
  report.notes.push(`${spec.agent}'s MCP server will use the socket ${pinnedEnv(env).THROUGHLINE_SOCKET} and the index ${pinnedEnv(env).THROUGHLINE_DB} (pinned in its env).`);
  report.notes.push(spec.restart);
  return report;
}

/** The value of a text this module already read or wrote. */
function parsed(text: string): JsonObject {
  return (parseJsonc(text) as JsonObject | undefined) ?? {};
}

export function uninstallJsonMcp(spec: JsonMcpAgent, options: InstallOptions = {}): InstallReport {
  const env = options.env ?? process.env;
  const report = emptyReport(options.dryRun);
  const file = spec.file(env);
  const { text, config } = readJsonSettings(file);
  if (text === undefined) return report;
  const servers = spec.serversPath(config);
  let next = text;
  if (runsThroughlineMcp(at(config, [...servers, 'throughline']))) next = removeEmptying(next, [...servers, 'throughline']);
  if (spec.hook) next = withoutOurHook(next, spec.hook);
  updateFile(file, text, next, report);
  return report;
}

export function jsonMcpState(spec: JsonMcpAgent, env: NodeJS.ProcessEnv = process.env): InstallState {
  const file = spec.file(env);
  const { config } = readJsonSettings(file);
  const found = [runsThroughlineMcp(at(config, [...spec.serversPath(config), 'throughline']))];
  if (spec.hook) found.push(hasOurHook(config, spec.hook));
  return stateOf(found, [file]);
}
