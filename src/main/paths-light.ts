// Where Throughline keeps its files, with no heavy imports: the Claude Code hook runs on every
// prompt and must not load zod or SQLite to find out where the settings and the index are.
import os from 'node:os';
import path from 'node:path';

const homeOf = (env: NodeJS.ProcessEnv): string => env.HOME || os.homedir();

/** `$XDG_CONFIG_HOME/throughline` (default ~/.config/throughline). */
export function configDir(env: NodeJS.ProcessEnv = process.env): string {
  return path.join(env.XDG_CONFIG_HOME || path.join(homeOf(env), '.config'), 'throughline');
}

export function defaultSettingsPath(env: NodeJS.ProcessEnv = process.env): string {
  return env.THROUGHLINE_SETTINGS || path.join(configDir(env), 'settings.json');
}

/** `$XDG_DATA_HOME/throughline` (default ~/.local/share/throughline). */
export function dataDir(env: NodeJS.ProcessEnv = process.env): string {
  return path.join(env.XDG_DATA_HOME || path.join(homeOf(env), '.local', 'share'), 'throughline');
}

/** `--db` beats THROUGHLINE_DB beats `$XDG_DATA_HOME/throughline/index.sqlite`. */
export function defaultDbPath(env: NodeJS.ProcessEnv = process.env): string {
  return env.THROUGHLINE_DB || path.join(dataDir(env), 'index.sqlite');
}
