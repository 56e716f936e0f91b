// The only code that writes the index. Ops from an adapter are applied in one transaction together
// with the file's committed offset and parser state, so a crash never leaves half a batch or an
// offset that disagrees with the entries. The parts, each with its own statements:
//   writer-files.ts          source-file rows: progress, status, problems, reset
//   writer-place.ts          where a file's conversation is stored, or the exclusion keeping it out
//   writer-conversations.ts  conversation rows: insert, metadata, leaf, parent links
//   writer-entries.ts        entries with their entries_fts rows
//   writer-derived.ts        counts, active branch, derived summary, conversation_terms
// Here: a batch applied in that order, and the transactions around it.
import type { ConversationMeta, IngestOp } from './ops.js';
import type { SourceKind } from '../../shared/types.js';
import type { WritableDb } from './db.js';
import type { Announced, ConvRow, FileProgress, FileRow, Placed, Writer } from './interface.js';
import { writeTransaction } from './write-lock.js';
import { createForgetter } from './forget.js';
import { NO_EXCLUSIONS, type Exclusions } from '../privacy.js';
import { NamedError } from '../../shared/errors.js';
import { createFileRows } from './writer-files.js';
import { createPlacement } from './writer-place.js';
import { createConversationRows, mergeMeta } from './writer-conversations.js';
import { createEntryRows } from './writer-entries.js';
import { createDerived } from './writer-derived.js';
import { createFtsWrites } from './fts-writes.js';

export type { Announced, ConvRow, FileProgress, FileRow, LineProblem, Placed, Writer } from './interface.js';

/**
 * Another process (the daemon, a CLI run) committed this file after its row was read: this batch
 * would redo or undo that work. The caller stops reading the file; the other process has it.
 */
export class StaleFileError extends NamedError {
  constructor(path: string) {
    super(`${path} was indexed further by another process meanwhile`);
  }
}

export interface WriterOptions {
  /** The exclusions in force (read at every batch: settings change while a daemon runs). */
  exclusions?: () => Exclusions;
  /** Sources whose conversations are written from several files (see Adapter.sharesConversations). */
  sharesConversations?: (kind: SourceKind) => boolean;
}

export function createWriter(db: WritableDb, options: WriterOptions = {}): Writer {
  const fts = createFtsWrites();
  const files = createFileRows(db, fts);
  const conversations = createConversationRows(db);
  const forgetter = createForgetter(db);
  // Forgetting deletes full-text rows with statements of its own: the held writes go first.
  const forget: typeof forgetter.forget = (...args) => {
    fts.flush();
    return forgetter.forget(...args);
  };
  const placement = createPlacement(db, conversations, { ...forgetter, forget }, {
    exclusions: options.exclusions ?? (() => NO_EXCLUSIONS),
    sharesConversations: options.sharesConversations,
  });
  const entries = createEntryRows(db, fts);
  const derived = createDerived(db, fts);
  /**
   * While a group of batches is applied in one transaction (see deferDerived): the conversations its
   * batches touched, each with whether its last batch said `more`, derived once at the group's end.
   */
  let pending: Map<number, boolean> | null = null;
  let pendingRebuild = false;

  /**
   * Applies one batch of ops and commits the file's progress with it. `more`: another batch of the
   * same file follows at once, so the conversation_terms documents of the conversations it touched
   * are only marked stale, and rebuilt (with any other stale ones) by the first batch without `more`.
   * Returns the stored id of each conversation the ops name (null: excluded, nothing stored).
   */
  function commitBatchBody(file: FileRow, ops: readonly IngestOp[], progress: FileProgress, more = false): Map<string, number | null> {
    // Compare-and-set on the offset: two indexers on one file must not interleave their batches.
    const offset = files.committedOffset(file.path);
    if (offset !== undefined && offset !== file.committed_offset) throw new StaleFileError(file.path);
    const target = placement.targets(file, ops);
    const touched = new Map<string, ConvRow>();
    let inserted = false;
    const conversation = (key: string, sessionId?: string): ConvRow => {
      let row = touched.get(key);
      if (row) return row;
      row = conversations.byKey(file.kind, key);
      if (!row) {
        row = conversations.insert(file, key, sessionId ?? key);
        inserted = true;
      }
      touched.set(key, row);
      return row;
    };
    const leaves = new Map<number, string>();
    // Adapters send metadata with nearly every entry (updatedAt moves on each line); one UPDATE per
    // conversation per batch, with the metas merged as applying them in order would, is enough.
    const metas = new Map<ConvRow, ConversationMeta>();
    for (const op of ops) {
      const key = target.get(op.conv);
      if (typeof key !== 'string') continue; // excluded: its text never reaches the index
      if (op.op === 'conversation') {
        const row = conversation(key, op.meta.sessionId);
        metas.set(row, mergeMeta(metas.get(row), op.meta));
      } else if (op.op === 'entry') entries.upsert(conversation(key).id, op.entry);
      else if (op.op === 'record') entries.upsertRecord(conversation(key).id, op.entry);
      else if (op.op === 'drop') entries.drop(conversation(key).id, op.sourceId, op.parts === true);
      else if (op.op === 'append') entries.append(conversation(key).id, op.entry);
      else leaves.set(conversation(key).id, op.sourceId);
    }
    let parentKeySet = false;
    for (const [row, meta] of metas) {
      conversations.applyMeta(row, meta, file.id);
      if (meta.parentKey !== undefined) parentKeySet = true;
    }
    for (const [convId, leaf] of leaves) conversations.setLeaf(convId, leaf);
    if (pending) {
      for (const row of touched.values()) pending.set(row.id, more);
      if (!more) pendingRebuild = true;
    } else {
      for (const row of touched.values()) derived.finish(row.id, more);
      if (!more) derived.rebuildStale();
    }
    // Only a new conversation (a parent children may wait for) or a new parent key can link anything,
    // and only while some conversation is unlinked.
    if (inserted || parentKeySet) conversations.linkParents();
    files.commitProgress(file, progress);
    const ids = new Map<string, number | null>();
    for (const [conv, key] of target) ids.set(conv, key === null ? null : (touched.get(key)?.id ?? null));
    return ids;
  }

  // Each as its own IMMEDIATE transaction, or a savepoint of the caller's (see write-lock.ts).
  const commitBatchTx = writeTransaction(db, commitBatchBody);
  const resetFileTx = writeTransaction(db, files.reset);
  const refreshTermsTx = writeTransaction(db, derived.rebuildStale);
  const deriveMissingTx = writeTransaction(db, (ids: readonly number[]) => {
    for (const id of ids) derived.refreshSummary(id);
  });

  return {
    fileRow: files.fileRow,
    ensureFile: files.ensureFile,
    resetFile: (file) => resetFileTx(file),
    commitBatch: (file, ops, progress, more = false) => commitBatchTx(file, ops, progress, more),
    /**
     * The same batch with no savepoint of its own, for a caller whose transaction rolls back as a whole
     * if this throws (scan.ts indexes groups of files this way). A savepoint per batch makes FTS5 flush
     * its pending rows at every file; without them it writes a segment per many files (BENCHMARKS.md).
     */
    commitBatchInTransaction(file, ops, progress, more = false) {
      if (!db.inTransaction) throw new Error('commitBatchInTransaction needs an open transaction');
      commitBatchBody(file, ops, progress, more);
    },
    /**
     * Runs `apply` (batches committed in the caller's one transaction) with what is derived from a
     * conversation's entries (counts, active branch, summary, conversations_fts and
     * conversation_terms rows) done once per conversation at the end, not after every batch: the
     * files of one OpenCode conversation (a file per message and part) each re-derived all of it,
     * re-reading and re-tokenizing its whole text, quadratic in its files. The end state is the same:
     * each is derived from the entries as they stand, as the last batch touching it would have.
     */
    deferDerived<T>(apply: () => T): T {
      if (!db.inTransaction) throw new Error('deferDerived needs an open transaction');
      if (pending) return apply();
      pending = new Map();
      pendingRebuild = false;
      // The full-text rows are written after every other row of the group (see fts-writes.ts).
      return fts.held(() => {
        let done: Map<number, boolean>;
        let result: T;
        try {
          result = apply();
        } finally {
          done = pending!;
          pending = null;
        }
        // A conversation forgotten by a later batch of the group (an exclusion) has no row left to derive.
        for (const [convId, more] of done) if (derived.exists(convId)) derived.finish(convId, more);
        if (pendingRebuild) derived.rebuildStale();
        return result;
      });
    },
    place(file: FileRow, conv: string, announced: Announced): Placed {
      if (!db.inTransaction) throw new Error('place needs an open write transaction');
      return placement.place(file, conv, announced);
    },
    recordProblems: files.recordProblems,
    touchFile: files.touchFile,
    setFileStatus: files.setFileStatus,
    /**
     * Rebuilds the conversation_terms documents a run left stale when it stopped between two batches
     * of a file (killed, or the file cut short), and derives the summaries an index from before
     * migration 7 lacks (in transactions of 500, so other writers get their turn). A read first: no
     * write lock when there is nothing to do.
     */
    refreshStaleTerms() {
      if (derived.anyStale()) refreshTermsTx();
      const missing = derived.underived();
      for (let i = 0; i < missing.length; i += 500) deriveMissingTx(missing.slice(i, i + 500));
    },
  };
}
