// Where Throughline keeps its files (settings, the index, the agent socket, its pid file, the daemon's
// log) and the checks that keep the socket's folder private to this user. No heavy imports: the
// Claude Code hook runs on every prompt and must not load zod or SQLite to find out where things are.
import { fs, os, path } from './builtins.js';
import { KindError } from '../shared/errors.js';

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

export class SocketPathError extends KindError<'unsafe-dir' | 'too-long' | 'io'> {}

/** Unix socket paths are limited to ~107 bytes (sun_path); longer ones fail with a confusing EINVAL. */
export const MAX_SOCKET_PATH = 104;

function uid(): number {
  return typeof process.getuid === 'function' ? process.getuid() : 0;
}

/** The folder used when XDG_RUNTIME_DIR is unset: per user, created 0700, ownership verified. */
export function fallbackSocketDir(): string {
  return path.join('/tmp', `throughline-${uid()}`);
}

/** `$THROUGHLINE_SOCKET`, else `$XDG_RUNTIME_DIR/throughline/agent.sock`, else `/tmp/throughline-$UID/agent.sock`. */
export function defaultSocketPath(env: NodeJS.ProcessEnv = process.env): string {
  if (env.THROUGHLINE_SOCKET) return env.THROUGHLINE_SOCKET;
  if (env.XDG_RUNTIME_DIR) return path.join(env.XDG_RUNTIME_DIR, 'throughline', 'agent.sock');
  return path.join(fallbackSocketDir(), 'agent.sock');
}

/** The pid file beside the socket names the process that serves it. */
export function pidPathFor(socketPath: string): string {
  return socketPath.replace(/\.sock$/, '') + '.pid';
}

/** `$XDG_STATE_HOME/throughline/` (default ~/.local/state/throughline): logs of the daemon and the hook. */
export function stateDir(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.XDG_STATE_HOME || path.join(homeOf(env), '.local', 'state');
  return path.join(base, 'throughline');
}

export function defaultLogPath(env: NodeJS.ProcessEnv = process.env): string {
  return path.join(stateDir(env), 'daemon.log');
}

/**
 * Makes the socket's folder exist and be private. A folder we did not create must belong to us and
 * be closed to others: in /tmp another user could have made it first to intercept the socket.
 */
export function ensureSocketDir(socketPath: string): void {
  if (Buffer.byteLength(socketPath) > MAX_SOCKET_PATH) {
    throw new SocketPathError('too-long', `The socket path ${socketPath} is longer than ${MAX_SOCKET_PATH} bytes; pass a shorter --socket.`);
  }
  const dir = path.dirname(socketPath);
  try {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  } catch (err) {
    throw new SocketPathError('io', `Cannot create ${dir}: ${(err as Error).message}`);
  }
  const st = fs.lstatSync(dir);
  if (!st.isDirectory()) throw new SocketPathError('unsafe-dir', `${dir} is not a directory (a symlink?); remove it or pass --socket.`);
  if (st.uid !== uid()) {
    throw new SocketPathError('unsafe-dir', `${dir} belongs to uid ${st.uid}, not to you (uid ${uid()}); remove it or pass --socket.`);
  }
  if ((st.mode & 0o077) !== 0) {
    // Our own folders (the runtime dir's and the /tmp fallback) are tightened; anything else is refused
    // rather than changed behind the user's back.
    const ours = path.basename(dir) === 'throughline' || dir === fallbackSocketDir();
    if (!ours) {
      throw new SocketPathError('unsafe-dir', `${dir} is open to other users (mode ${(st.mode & 0o777).toString(8)}); use a private folder for --socket.`);
    }
    fs.chmodSync(dir, 0o700);
  }
}
