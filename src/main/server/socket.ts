// The agent socket: JSON-RPC 2.0, one JSON object per line, over a Unix socket only this user can open.
// Each connection answers its requests in order, one at a time; connections take turns (a
// setImmediate between calls, also between the calls of a batch) because every index call is
// synchronous SQLite work. Memory per connection is bounded: a line is cut off at maxRequestBytes,
// reading pauses while the queue is full or the client is not reading its answers, and a vanished
// client's queue is dropped. The parts: connection.ts reads, queues and answers one connection's
// lines in turn; call-session.ts answers each call for whoever the connection is; here, the server.
import net from 'node:net';
import type { Api } from '../../shared/api.js';
import { claimSocket, releaseSocket } from '../pid-lock.js';
import { ensureSocketDir } from '../paths-light.js';
import { CallSession, type ActivityRecorder, type LogFn } from './call-session.js';
import { Connection } from './connection.js';

export type { ActivityRecorder, LogFn } from './call-session.js';

export interface SocketServerOptions {
  socketPath: string;
  api: Api;
  /** Records every call for the activity view; omitted in tests that do not care. */
  activity?: ActivityRecorder | null;
  log?: LogFn;
  /** A request line longer than this is refused (default 1 MiB). */
  maxRequestBytes?: number;
  /** A call still waiting this long after it arrived is refused with -32001 (default 10 s). */
  timeoutMs?: number;
  /** Requests one connection may have waiting before we stop reading from it (default 64). */
  maxQueue?: number;
  maxConnections?: number;
}

export interface SocketServer {
  socketPath: string;
  connections(): number;
  close(): Promise<void>;
}

export async function startSocketServer(options: SocketServerOptions): Promise<SocketServer> {
  const { api, socketPath } = options;
  const log: LogFn = options.log ?? (() => {});
  const maxRequestBytes = options.maxRequestBytes ?? 1024 * 1024;
  const timeoutMs = options.timeoutMs ?? 10_000;
  const maxQueue = options.maxQueue ?? 64;
  const sockets = new Set<net.Socket>();

  ensureSocketDir(socketPath);
  await claimSocket(socketPath);

  const server = net.createServer({ allowHalfOpen: true }, (socket) => serve(socket));
  server.maxConnections = options.maxConnections ?? 1000;
  server.on('error', (err) => log('error', `socket server: ${err.message}`));

  function serve(socket: net.Socket): void {
    sockets.add(socket);
    const session = new CallSession({ api, activity: options.activity ?? null, log, timeoutMs });
    new Connection(socket, session, { maxRequestBytes, maxQueue }, log, () => sockets.delete(socket));
  }

  await new Promise<void>((resolve, reject) => {
    const onError = (err: Error) => reject(err);
    server.once('error', onError);
    // The socket file is created 0600 (umask) rather than chmod-ed after a window at the default mode.
    const oldMask = process.umask(0o177);
    try {
      server.listen(socketPath, () => {
        server.off('error', onError);
        resolve();
      });
    } finally {
      process.umask(oldMask);
    }
  }).catch(async (err) => {
    await releaseSocket(socketPath);
    throw err;
  });

  let closing: Promise<void> | null = null;
  return {
    socketPath,
    connections: () => sockets.size,
    close() {
      closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const s of sockets) s.destroy();
      }).then(() => releaseSocket(socketPath));
      return closing;
    },
  };
}
