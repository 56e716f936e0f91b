// Taking the socket path: one server per socket. The pid file beside the socket is the lock (created
// exclusively, so two servers starting at once cannot both win) and names the running process when
// a second one is refused. A socket file nobody listens on is stale and replaced.
import fs from 'node:fs';
import net from 'node:net';
import { pidPathFor } from './paths-light.js';

export class AlreadyRunningError extends Error {
  readonly kind = 'already-running';
  constructor(
    readonly socketPath: string,
    readonly pid: number | null,
  ) {
    super(
      `Throughline is already serving agents on ${socketPath}` +
        (pid ? ` (process ${pid}${describe(pid)}).` : ' (process unknown: no pid file).') +
        ' Stop it first, or pass another --socket.',
    );
    this.name = 'AlreadyRunningError';
  }
}

function describe(pid: number): string {
  try {
    const cmd = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean).join(' ');
    return cmd ? `: ${cmd.slice(0, 120)}` : '';
  } catch {
    return '';
  }
}

/** True when something accepts connections on the socket within `timeoutMs`. */
export function probeSocket(socketPath: string, timeoutMs = 500): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.connect(socketPath);
    const done = (ok: boolean) => {
      clearTimeout(timer);
      s.destroy();
      resolve(ok);
    };
    const timer = setTimeout(() => done(false), timeoutMs);
    s.once('connect', () => done(true));
    s.once('error', () => done(false));
  });
}

export function readPid(pidPath: string): number | null {
  try {
    const n = Number.parseInt(fs.readFileSync(pidPath, 'utf8').trim(), 10);
    return Number.isInteger(n) && n > 0 ? n : null;
  } catch {
    return null;
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it exists but belongs to someone else.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Claims the socket path for this process or throws AlreadyRunningError. */
export async function claimSocket(socketPath: string): Promise<void> {
  const pidPath = pidPathFor(socketPath);
  let claimed = false;
  for (let attempt = 0; attempt < 5 && !claimed; attempt++) {
    try {
      const fd = fs.openSync(pidPath, 'wx', 0o600);
      fs.writeSync(fd, `${process.pid}\n`);
      fs.closeSync(fd);
      claimed = true;
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    const other = readPid(pidPath);
    if (other !== null && alive(other)) {
      if (await probeSocket(socketPath)) throw new AlreadyRunningError(socketPath, other);
      // Alive but not (yet) listening: a server still starting, or a reused pid. Give it a moment.
      for (let i = 0; i < 10; i++) {
        await sleep(100);
        if (await probeSocket(socketPath)) throw new AlreadyRunningError(socketPath, other);
      }
    }
    // The owner is gone (or never listened): the pid file is stale.
    fs.rmSync(pidPath, { force: true });
  }
  if (!claimed) throw new AlreadyRunningError(socketPath, readPid(pidPath));
  // We hold the lock. A socket file left behind is stale unless something (a server without a pid
  // file, e.g. an older version) still answers on it.
  if (fs.existsSync(socketPath)) {
    if (await probeSocket(socketPath)) {
      fs.rmSync(pidPath, { force: true });
      throw new AlreadyRunningError(socketPath, null);
    }
    fs.rmSync(socketPath, { force: true });
  }
}

/** Removes the socket and the pid file, the latter only while it still names this process. */
export async function releaseSocket(socketPath: string): Promise<void> {
  const pidPath = pidPathFor(socketPath);
  if (readPid(pidPath) === process.pid) {
    fs.rmSync(socketPath, { force: true });
    fs.rmSync(pidPath, { force: true });
  }
}
