// Where a scan's parsed batches go: each committed at once in a transaction of its own, or, during a
// group's first attempt (see scan.ts, indexNext), held and then applied together in one transaction
// without savepoints.
import type { SourceKind } from '../../shared/types.js';
import { storeErrorFrom, type Db } from '../store/db.js';
import { writeTransaction } from '../store/write-lock.js';
import type { FileProgress, FileRow, LineProblem, Writer } from '../store/writer.js';
import type { IngestOp } from './types.js';

/** A group commits after at most this long, parsing and applying together: see withinTime. */
const GROUP_MS = 250;

/** A batch failed inside a group's savepoint-free first attempt: the group is redone with savepoints. */
export class RetryGroup extends Error {
  constructor(cause: unknown) {
    super(`batch failed inside a group: ${(cause as Error)?.message ?? String(cause)}`, { cause });
    this.name = 'RetryGroup';
  }
}

/** A failure of the index itself (disk full, read-only, damaged, busy) as a StoreError; anything else as is. */
export function guard<T>(db: Db, fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    throw storeErrorFrom(err, db.name) ?? err;
  }
}

type Held = () => void;

export class BatchGroup {
  /** The batches of the group being parsed, or null when no group is: then each batch commits at once. */
  private held: Held[] | null = null;
  /** How long applying a group's batches takes per ms spent parsing them, as last measured. */
  private applyPerParse = 8;
  private readonly commitTx: (row: FileRow, ops: IngestOp[], progress: FileProgress, problems: LineProblem[], more: boolean) => void;
  private readonly applyTx: (batches: readonly Held[]) => void;

  constructor(
    private readonly db: Db,
    private readonly writer: Writer,
  ) {
    // A batch's problems are recorded in the batch's own transaction: a crash between the two would
    // otherwise lose them (or, recorded first, count them twice on the re-read).
    this.commitTx = writeTransaction(db, (row: FileRow, ops: IngestOp[], progress: FileProgress, problems: LineProblem[], more: boolean) => {
      writer.commitBatch(row, ops, progress, more);
      if (problems.length) writer.recordProblems(row.path, problems);
    });
    this.applyTx = writeTransaction(db, (batches: readonly Held[]) => {
      try {
        writer.deferDerived(() => {
          for (const apply of batches) apply();
        });
      } catch (err) {
        // Part of a batch may be written, and only rolling back the whole group undoes it.
        throw new RetryGroup(err);
      }
    });
  }

  /** `more`: the next batch of this file follows at once (see writer.commitBatch). */
  commit(row: FileRow, ops: IngestOp[], progress: FileProgress, problems: LineProblem[], more: boolean): void {
    const held = this.held;
    if (!held) return this.commitTx(row, ops, progress, problems, more);
    held.push(() => {
      this.writer.commitBatchInTransaction(this.stored(row), ops, progress, more);
      if (problems.length) this.writer.recordProblems(row.path, problems);
    });
  }

  /**
   * The row a file not in the index yet starts with. In a group it is written with the file's first
   * batch, inside the group's one transaction (id 0 until then), rather than in a transaction of its
   * own per file before it.
   */
  newRow(path: string, kind: SourceKind): FileRow {
    if (!this.held) return this.writer.ensureFile(path, kind, true);
    return { id: 0, path, kind, size: 0, mtime_ms: 0, inode: 0, committed_offset: 0, committed_line: 0, parser_state: null, status: 'ok' };
  }

  /** `row` with the id of its stored row, written now if it is a new file's. */
  stored(row: FileRow): FileRow {
    return row.id ? row : { ...row, id: this.writer.ensureFile(row.path, row.kind, true).id };
  }

  /** Whether parsing that has taken `parsedMs` leaves room to apply it under the group's time bound. */
  withinTime(parsedMs: number): boolean {
    return parsedMs * (1 + this.applyPerParse) < GROUP_MS;
  }

  /**
   * Runs `parse` with its batches held, then applies them in one transaction (no write lock taken if
   * there are none: a re-scan of unchanged files). Throws RetryGroup when a batch failed: nothing of
   * the group is written then.
   */
  parseThenApply<T>(parse: () => T): T {
    const started = performance.now();
    this.held = [];
    let result: T;
    let batches: Held[];
    try {
      result = parse();
    } finally {
      batches = this.held;
      this.held = null;
    }
    const parsed = performance.now() - started;
    if (!batches.length) return result;
    guard(this.db, () => this.applyTx(batches));
    if (parsed >= 1) this.applyPerParse = (this.applyPerParse + (performance.now() - started - parsed) / parsed) / 2;
    return result;
  }
}
