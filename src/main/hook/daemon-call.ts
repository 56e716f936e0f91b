// One call to the daemon for a hook: connect, authenticate, call, all before a deadline. Small on
// purpose (Node's net and JSON only): the hook runs on every prompt, and the full socket client
// would load zod to get at the error codes. A daemon that does not complete the handshake in time
// (none listening, or stopped with SIGSTOP: it still accepts connections and never answers) is
// "unavailable" and the hook may fall back; one that goes quiet mid-call uses up the deadline.
import { CodedError } from '../../shared/errors.js';
import { PROTOCOL_VERSION } from '../../shared/rpc.js';
import { jsonLines } from '../client/json-lines.js';

export class DaemonUnavailable extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DaemonUnavailable';
  }
}

export class DaemonError extends CodedError {}

export interface DaemonCallOptions {
  socketPath: string;
  client: string;
  token?: string;
  /** Connecting and `auth` must be done within this (ms). */
  handshakeMs: number;
  /** The call must be answered by this time (Date.now() ms). */
  deadline: number;
  /**
   * Told when the handshake ran past handshakeMs while the socket is still open: the call then goes
   * on to the deadline instead of failing as unavailable (a busy daemon answers late).
   */
  onSlow?: () => void;
}

export async function callDaemon<T>(method: string, params: unknown, options: DaemonCallOptions): Promise<T> {
  // Loaded on first use: a later prompt in the default mode never connects, and pays nothing for it.
  const { connect } = process.getBuiltinModule('node:net');
  return new Promise<T>((resolve, reject) => {
    const socket = connect(options.socketPath);
    let authed = false;
    let settled = false;
    const finish = (err: Error | null, value?: T) => {
      if (settled) return;
      settled = true;
      clearTimeout(handshake);
      clearTimeout(overall);
      socket.destroy();
      if (err) reject(err);
      else resolve(value as T);
    };
    const handshake = setTimeout(() => {
      if (options.onSlow) options.onSlow();
      else finish(new DaemonUnavailable(`no answer from ${options.socketPath} within ${options.handshakeMs} ms`));
    }, options.handshakeMs);
    const overall = setTimeout(() => finish(new Error(`${method} not answered before the deadline`)), Math.max(0, options.deadline - Date.now()));
    socket.setEncoding('utf8');
    socket.on('error', (err) => finish(authed ? err : new DaemonUnavailable(`cannot reach ${options.socketPath}: ${err.message}`)));
    socket.on('close', () => finish(authed ? new Error(`${options.socketPath} closed the connection`) : new DaemonUnavailable(`${options.socketPath} closed the connection`)));
    socket.on('connect', () => {
      const auth = { ...(options.token ? { token: options.token } : {}), client: options.client, protocol: PROTOCOL_VERSION };
      socket.write(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'auth', params: auth }) + '\n' + JSON.stringify({ jsonrpc: '2.0', id: 2, method, params }) + '\n');
    });
    // Once finished, the lines still in the chunk change nothing: finish() acts once.
    socket.on(
      'data',
      jsonLines((line) => {
        // A line that is JSON but not an object (`null`, a number) is no answer.
        if (typeof line !== 'object' || line === null) return;
        const msg = line as { id?: unknown; result?: T; error?: { code: number; message: string } };
        if (msg.error) return finish(new DaemonError(msg.error.code, msg.error.message));
        if (msg.id === 1) {
          authed = true;
          clearTimeout(handshake);
        } else if (msg.id === 2) finish(null, msg.result as T);
      }),
    );
  });
}
