// Readable and writable handles (store/db.ts): a read-only caller cannot reach a write. The type
// checker holds it (`npm run typecheck` checks this file: each @ts-expect-error below fails the check
// the day its line compiles), and at run time the brand matches the connection's real mode.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { appendEntries } from '../../src/main/api/append.js';
import { createRecall, createRecallWrites, type Recall } from '../../src/main/recall/index.js';
import { createActivityLog, recentActivity } from '../../src/main/store/activity.js';
import { openDb, requireWritable, StoreError, type ReadableDb, type WritableDb } from '../../src/main/store/db.js';
import { createExclusionCoverage, createExclusionKeeper } from '../../src/main/store/exclusions.js';
import { createForgetter, scrub } from '../../src/main/store/forget.js';
import { appendHandoff } from '../../src/main/store/handoff.js';
import { createReader } from '../../src/main/store/read.js';
import { createSearch } from '../../src/main/store/search.js';
import { createWriter } from '../../src/main/store/writer.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tl-handles-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** Never called: its body exists for the type checker. Every write refuses a readable handle. */
export function readOnlyCallerCannotWrite(db: ReadableDb): void {
  // @ts-expect-error the writer needs a writable handle
  createWriter(db);
  // @ts-expect-error handoffs write
  appendHandoff(db, 1, 'text');
  // @ts-expect-error forgetting writes
  createForgetter(db);
  // @ts-expect-error scrubbing rewrites the file
  scrub(db);
  // @ts-expect-error recording activity writes
  createActivityLog(db);
  // @ts-expect-error the recall tool that writes (history_handoff) is made from a writable handle only
  createRecallWrites(db);
  // @ts-expect-error ingest.append writes
  appendEntries(db, createWriter(requireWritable(db)), { conversation: { id: 'x' }, entries: [] });
  // @ts-expect-error keeping exclusions forgets conversations
  createExclusionKeeper(db, createWriter(requireWritable(db)));
  // @ts-expect-error an unbranded connection is neither: only openDb and requireWritable make handles
  createReader({} as import('better-sqlite3').Database);
  // Reads take it as it is.
  createReader(db);
  createSearch(db);
  createExclusionCoverage(db);
  recentActivity(db, 10);
  const recall: Recall = createRecall(db);
  // @ts-expect-error Recall only reads: history_handoff is not on it
  void recall.historyHandoff;
}

/** A writable handle is a readable one too. */
export function writableReads(db: WritableDb): void {
  createReader(db);
  createRecall(db);
  createWriter(db);
}

it('openDb brands by the mode the connection was opened in; requireWritable refuses a read-only one', () => {
  const file = path.join(dir, 'index.sqlite');
  const writable = openDb(file);
  expect(writable.readonly).toBe(false);
  expect(requireWritable(writable)).toBe(writable);
  writable.close();
  const readable = openDb(file, { readonly: true });
  try {
    expect(() => requireWritable(readable)).toThrow(StoreError);
    expect(() => requireWritable(readable)).toThrow(/opened read-only/);
  } finally {
    readable.close();
  }
});
