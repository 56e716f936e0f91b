// One reader thread of the daemon's read pool (read-pool.ts): its own read-only connection to the
// index (WAL lets it read while the daemon's single writer commits) and its own recall engine, so a
// recall, a suggestion or a transcript read runs here instead of on the daemon's event loop.
// Every call starts a new read transaction, so a reader sees everything committed before the call
// was sent: a client that appends and then reads finds what it appended.
import { parentPort, workerData } from 'node:worker_threads';
import { createRecall } from '../recall/index.js';
import { openDb } from '../store/db.js';
import { KindError } from '../../shared/errors.js';
import { callReads, localReads, type CheckpointMessage, type CheckpointReply, type ReadMessage, type ReadReply, type ReaderStart } from './read-calls.js';
import { openCheckpointer, type Checkpointer } from '../store/checkpoint.js';

const start = workerData as ReaderStart;
// Each reader keeps a small page cache (4 MB, read-pool.ts) beside the writer's 32 MB: the pages are in
// the OS's cache anyway, and 4 MB against 16 MB made no difference to a call's CPU time at 10k.
const db = openDb(start.dbPath, { readonly: true, nativeBinding: start.nativeBinding, cacheKiB: start.cacheKiB });

const reads = localReads(createRecall(db));
// The first recall loads what every later one reuses (the word table, the statements): done before
// this thread says it is ready, so no caller waits for it (the main thread answers meanwhile).
try {
  await reads.recall({ query: 'throughline', workspace: 'all', limit: 1 });
} catch {
  // An empty or odd index: the real calls will say what is wrong.
}

/** Its connection for the WAL's checkpoints (daemon only: api/checkpoints.ts), opened on the first one. */
let checkpointer: Checkpointer | null = null;
function checkpoint(): CheckpointReply {
  const started = performance.now();
  try {
    checkpointer ??= openCheckpointer(start.dbPath, start.nativeBinding);
    return { checkpointed: { ...checkpointer.run(), ms: performance.now() - started } };
  } catch (err) {
    return { checkpointed: { error: (err as Error).message } };
  }
}

const port = parentPort!;
port.on('message', async (message: ReadMessage | CheckpointMessage) => {
  if ('checkpoint' in message) return port.postMessage(checkpoint());
  let reply: ReadReply;
  const started = performance.now();
  const waitedMs = Math.max(0, performance.timeOrigin + started - message.sentAt);
  try {
    const value = await callReads(reads, message.call);
    reply = { id: message.id, waitedMs, ms: performance.now() - started, ok: true, value };
  } catch (err) {
    const e = err as Error;
    reply = { id: message.id, waitedMs, ms: performance.now() - started, ok: false, error: { name: e.name, message: e.message, kind: err instanceof KindError ? String(err.kind) : undefined } };
  }
  port.postMessage(reply);
});
port.postMessage({ ready: true });
