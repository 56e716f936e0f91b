// The parse worker of a cold index (parse-ahead.ts): it reads and parses the new files it is sent,
// one after another, and sends back each file's batches as data while the scan's thread writes the
// files before them. It never touches the index. After each message it bumps a shared counter, so a
// scan that waits synchronously (Atomics.wait) wakes up and takes the message off its port.
import fs from 'node:fs';
import { workerData, type MessagePort } from 'node:worker_threads';
import { lineBatches, readDocument } from './parse-file.js';
import { READY, type ParseJob, type ParseReply, type ParseWorkerData } from './parse-protocol.js';
import { openRegular } from './regular-file.js';
import { ADAPTERS } from './sources.js';

const { port, signal } = workerData as ParseWorkerData;

function send(reply: ParseReply | typeof READY): void {
  port.postMessage(reply);
  Atomics.add(signal, 0, 1);
  Atomics.notify(signal, 0);
}

function parse(job: ParseJob): void {
  let fd: number;
  try {
    fd = openRegular(job.file); // read-only: Throughline never writes an agent's files
  } catch (err) {
    return send({ id: job.id, done: true, error: { reason: (err as Error).message, opening: true } });
  }
  try {
    const adapter = ADAPTERS.get(job.kind);
    if (!adapter) throw new Error(`No adapter for source kind ${job.kind}`);
    if (job.whole) {
      if (!adapter.createReader) throw new Error(`The ${job.kind} adapter reads no document`);
      send({ id: job.id, done: true, document: readDocument(adapter.createReader(job.file, undefined), fd, job.size, undefined) });
      return;
    }
    if (!adapter.createParser) throw new Error(`The ${job.kind} adapter reads ${job.file} neither whole nor by line`);
    for (const batch of lineBatches(adapter.createParser(job.file, undefined), fd, 0, 0, job.size)) send({ id: job.id, done: false, batch });
    send({ id: job.id, done: true });
  } catch (err) {
    // An adapter or data bug in this one file: the scan sets it aside after the batches before it.
    send({ id: job.id, done: true, error: { reason: (err as Error).message, opening: false } });
  } finally {
    fs.closeSync(fd);
  }
}

(port as MessagePort).on('message', parse);
send(READY);
