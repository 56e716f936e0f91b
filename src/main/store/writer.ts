// The only code that writes the index. Ops from an adapter are applied in one transaction together
// with the file's committed offset and parser state, so a crash never leaves half a batch or an
// offset that disagrees with the entries.
import fs from 'node:fs';
import type { ConversationMeta, EntryRecord, IngestOp, SourcedRecord } from './ops.js';
import type { SourceKind } from '../../shared/types.js';
import type { Statement } from 'better-sqlite3';
import type { WritableDb } from './db.js';
import type { Announced, ConvRow, FileProgress, FileRow, LineProblem, Placed, Writer } from './interface.js';
import { writeTransaction } from './write-lock.js';
import { createForgetter } from './forget.js';
import { NO_EXCLUSIONS, redactPrivate, type Exclusions } from '../privacy.js';
import { deriveSummary } from './derived-summary.js';
import { NamedError } from '../../shared/errors.js';

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
  const exclusions = options.exclusions ?? (() => NO_EXCLUSIONS);
  const forgetter = createForgetter(db);
  const s = {
    file: db.prepare<[string], FileRow>('SELECT * FROM source_files WHERE path = ?'),
    // Another process (a second `index` run, the daemon) may insert the same file between our read
    // and this insert: theirs is as good as ours.
    insertFile: db.prepare('INSERT INTO source_files (path, kind) VALUES (?, ?) ON CONFLICT (path) DO NOTHING'),
    updateFile: db.prepare(
      `UPDATE source_files SET size = @size, mtime_ms = @mtimeMs, inode = @inode, committed_offset = @offset,
        committed_line = @line, parser_state = @state, status = 'ok', error = NULL, indexed_at = @now WHERE id = @id`,
    ),
    touchFile: db.prepare("UPDATE source_files SET size = ?, mtime_ms = ?, status = 'ok' WHERE id = ?"),
    fileStatus: db.prepare('UPDATE source_files SET status = ?, error = ? WHERE id = ?'),
    conv: db.prepare<[string, string], ConvRow>(
      'SELECT id, title, summary, workspace, file_id, session_id, parent_key FROM conversations WHERE source = ? AND key = ?',
    ),
    convById: db.prepare<[number], ConvRow>('SELECT id, title, summary, workspace, file_id, session_id, parent_key FROM conversations WHERE id = ?'),
    fileById: db.prepare<[number], { path: string; status: string }>('SELECT path, status FROM source_files WHERE id = ?'),
    insertConv: db.prepare('INSERT INTO conversations (source, key, session_id, file_id, path) VALUES (?, ?, ?, ?, ?)'),
    entry: db.prepare<[number, number], { id: number; text: string; indexed: number }>(
      'SELECT id, text, indexed FROM entries WHERE conversation_id = ? AND seq = ?',
    ),
    bySource: db.prepare<[number, string], { id: number; seq: number; text: string; indexed: number }>(
      'SELECT id, seq, text, indexed FROM entries WHERE conversation_id = ? AND source_id = ? ORDER BY seq',
    ),
    // '$' follows '#': the range is every source id that starts with `<id>#`.
    byParts: db.prepare<[number, string, string], { id: number; seq: number; text: string; indexed: number }>(
      'SELECT id, seq, text, indexed FROM entries WHERE conversation_id = ? AND source_id > ? AND source_id < ?',
    ),
    lastSeq: db.prepare<[number], number | null>('SELECT max(seq) FROM entries WHERE conversation_id = ?').pluck(),
    deleteEntry: db.prepare('DELETE FROM entries WHERE id = ?'),
    insertEntry: db.prepare(
      `INSERT INTO entries (conversation_id, seq, source_id, parent_source_id, role, author, kind, text, indexed,
        tool_name, tool_status, ts, first_kept_source_id)
       VALUES (@conversation_id, @seq, @source_id, @parent_source_id, @role, @author, @kind, @text, @indexed,
        @tool_name, @tool_status, @ts, @first_kept_source_id)`,
    ),
    updateEntry: db.prepare(
      `UPDATE entries SET source_id = @source_id, parent_source_id = @parent_source_id, role = @role, author = @author,
        kind = @kind, text = @text, indexed = @indexed, tool_name = @tool_name, tool_status = @tool_status, ts = @ts,
        first_kept_source_id = @first_kept_source_id WHERE id = @id`,
    ),
    ftsInsert: db.prepare('INSERT INTO entries_fts (rowid, text) VALUES (?, ?)'),
    ftsDelete: db.prepare("INSERT INTO entries_fts (entries_fts, rowid, text) VALUES ('delete', ?, ?)"),
    convFtsInsert: db.prepare('INSERT INTO conversations_fts (rowid, title, summary, workspace) VALUES (?, ?, ?, ?)'),
    convFtsDelete: db.prepare('DELETE FROM conversations_fts WHERE rowid = ?'),
    termsDelete: db.prepare('DELETE FROM conversation_terms WHERE rowid = ?'),
    termsInsert: db.prepare('INSERT INTO conversation_terms (rowid, text) VALUES (?, ?)'),
    termsStale: db.prepare('UPDATE conversations SET terms_stale = 1 WHERE id = ? AND terms_stale = 0'),
    termsFresh: db.prepare('UPDATE conversations SET terms_stale = 0 WHERE id = ? AND terms_stale = 1'),
    staleTerms: db.prepare<[], number>('SELECT id FROM conversations WHERE terms_stale = 1').pluck(),
    convText: db.prepare<[number], { text: string | null }>(
      "SELECT group_concat(text, char(10)) AS text FROM entries WHERE conversation_id = ? AND indexed = 1",
    ),
    convStats: db.prepare<[number], { n: number; first: number | null; last: number | null }>(
      'SELECT count(*) AS n, min(ts) AS first, max(ts) AS last FROM entries WHERE conversation_id = ?',
    ),
    setStats: db.prepare(
      `UPDATE conversations SET entry_count = ?,
        created_at = coalesce(created_at, ?), updated_at = max(coalesce(updated_at, 0), coalesce(?, 0)) WHERE id = ?`,
    ),
    treeEntries: db.prepare<[number], { id: number; source_id: string | null; parent_source_id: string | null; off_path: number }>(
      'SELECT id, source_id, parent_source_id, off_path FROM entries WHERE conversation_id = ?',
    ),
    setOffPath: db.prepare('UPDATE entries SET off_path = ? WHERE id = ?'),
    leaf: db.prepare<[number], { leaf_source_id: string | null }>('SELECT leaf_source_id FROM conversations WHERE id = ?'),
    setLeaf: db.prepare('UPDATE conversations SET leaf_source_id = ? WHERE id = ?'),
    anyUnlinked: db.prepare('SELECT 1 FROM conversations WHERE parent_key IS NOT NULL AND parent_id IS NULL LIMIT 1'),
    linkParents: db.prepare(
      `UPDATE conversations SET parent_id = (SELECT p.id FROM conversations p WHERE p.source = conversations.source AND p.key = conversations.parent_key)
       WHERE parent_key IS NOT NULL AND parent_id IS NULL`,
    ),
    error: db.prepare('INSERT INTO ingest_errors (path, line, reason, at) VALUES (?, ?, ?, ?)'),
    fileConvs: db.prepare<[number], { id: number; title: string; summary: string | null; workspace: string | null }>(
      'SELECT id, title, summary, workspace FROM conversations WHERE file_id = ?',
    ),
    convEntries: db.prepare<[number], { id: number; text: string }>('SELECT id, text FROM entries WHERE conversation_id = ? AND indexed = 1'),
    deleteEntries: db.prepare('DELETE FROM entries WHERE conversation_id = ?'),
    resetConv: db.prepare(
      'UPDATE conversations SET title = \'\', title_rank = 0, summary = NULL, derived_summary = NULL, entry_count = 0, leaf_source_id = NULL WHERE id = ?',
    ),
    // The first real user message and the last assistant message on the active path (indexed: real text,
    // not injected context), read backwards and forwards along the (conversation_id, seq) key.
    firstRequest: db.prepare<[number], string>(
      "SELECT text FROM entries WHERE conversation_id = ? AND role = 'user' AND kind = 'message' AND indexed = 1 AND off_path = 0 ORDER BY seq LIMIT 1",
    ).pluck(),
    lastReply: db.prepare<[number], string>(
      "SELECT text FROM entries WHERE conversation_id = ? AND role = 'assistant' AND kind = 'message' AND indexed = 1 AND off_path = 0 ORDER BY seq DESC LIMIT 1",
    ).pluck(),
    setDerived: db.prepare('UPDATE conversations SET derived_summary = ? WHERE id = ? AND derived_summary IS NOT ?'),
    underived: db.prepare<[], number>('SELECT id FROM conversations WHERE derived_summary IS NULL').pluck(),
  };

  // applyMeta's UPDATE depends on which fields are set: a handful of shapes, each prepared once.
  const metaStatements = new Map<string, Statement>();

  function fileRow(path: string): FileRow | undefined {
    return s.file.get(path);
  }

  const insertFile = writeTransaction(db, (path: string, kind: SourceKind) => s.insertFile.run(path, kind), { inline: true });
  function ensureFile(path: string, kind: SourceKind): FileRow {
    const existing = s.file.get(path);
    if (existing) return existing;
    insertFile(path, kind);
    return s.file.get(path)!;
  }

  /** Drops everything a file produced, keeping conversation rows (and so their ids) for re-indexing. */
  const resetFileTx = writeTransaction(db, (file: FileRow) => {
    for (const conv of s.fileConvs.all(file.id)) {
      for (const e of s.convEntries.all(conv.id)) s.ftsDelete.run(e.id, e.text);
      s.deleteEntries.run(conv.id);
      s.convFtsDelete.run(conv.id);
      s.termsDelete.run(conv.id);
      s.resetConv.run(conv.id);
    }
    db.prepare('UPDATE source_files SET committed_offset = 0, committed_line = 0, parser_state = NULL WHERE id = ?').run(file.id);
  });

  /**
   * Applies one batch of ops and commits the file's progress with it. `more`: another batch of the
   * same file follows at once, so the conversation_terms documents of the conversations it touched
   * are only marked stale, and rebuilt (with any other stale ones) by the first batch without `more`.
   */
  /** Returns the stored id of each conversation the ops name (null: excluded, nothing stored). */
  function commitBatchBody(file: FileRow, ops: readonly IngestOp[], progress: FileProgress, more = false): Map<string, number | null> {
    // Compare-and-set on the offset: two indexers on one file must not interleave their batches.
    const current = s.file.get(file.path);
    if (current && current.committed_offset !== file.committed_offset) throw new StaleFileError(file.path);
    const target = targets(file, ops);
    const touched = new Map<string, ConvRow>();
    let inserted = false;
    const conversation = (key: string, sessionId?: string): ConvRow => {
      let row = touched.get(key);
      if (row) return row;
      row = s.conv.get(file.kind, key);
      if (!row) {
        const id = Number(s.insertConv.run(file.kind, key, sessionId ?? key, file.id, file.path).lastInsertRowid);
        row = { id, title: '', summary: null, workspace: null, file_id: file.id, session_id: sessionId ?? key, parent_key: null };
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
      } else if (op.op === 'entry') upsertEntry(conversation(key).id, op.entry);
      else if (op.op === 'record') upsertRecord(conversation(key).id, op.entry);
      else if (op.op === 'drop') dropRecord(conversation(key).id, op.sourceId, op.parts === true);
      else if (op.op === 'append') appendEntry(conversation(key).id, op.entry);
      else leaves.set(conversation(key).id, op.sourceId);
    }
    let parentKeySet = false;
    for (const [row, meta] of metas) {
      applyMeta(row, meta, file.id);
      if (meta.parentKey !== undefined) parentKeySet = true;
    }
    for (const [convId, leaf] of leaves) s.setLeaf.run(leaf, convId);
    for (const row of touched.values()) finishConversation(row.id, more);
    if (!more) rebuildStaleTerms();
    // Only a new conversation (a parent children may wait for) or a new parent key can link anything,
    // and only while some conversation is unlinked (a cheap read on a partial index). The UPDATE also
    // writes a foreign-key column: see applyMeta for why that is not done for nothing.
    if ((inserted || parentKeySet) && s.anyUnlinked.get()) s.linkParents.run();
    s.updateFile.run({ ...progress, state: JSON.stringify(progress.state ?? null), id: file.id, now: Date.now() });
    const ids = new Map<string, number | null>();
    for (const [conv, key] of target) ids.set(conv, key === null ? null : (touched.get(key)?.id ?? null));
    return ids;
  }

  /**
   * For each conversation the ops name, the key it is stored under, or null when it is kept out.
   * Decided before anything is written, so an excluded conversation's text never enters the index
   * (FTS5 would keep its words in its segments even if the rows were deleted in the same batch).
   */
  function targets(file: FileRow, ops: readonly IngestOp[]): Map<string, string | null> {
    const announced = new Map<string, Announced>();
    for (const op of ops) {
      let a = announced.get(op.conv);
      if (!a) announced.set(op.conv, (a = {}));
      if (op.op !== 'conversation') continue;
      a.workspace = op.meta.workspace ?? a.workspace;
      a.sessionId = op.meta.sessionId ?? a.sessionId;
      a.parentKey = op.meta.parentKey ?? a.parentKey;
    }
    const out = new Map<string, string | null>();
    for (const [conv, a] of announced) {
      const placed = place(file, conv, a);
      out.set(conv, 'key' in placed ? placed.key : null);
    }
    return out;
  }

  /**
   * Where the conversation a file calls `conv` is stored: its key and current row, or the exclusion
   * keeping it out (then it is forgotten, or held out from now on). The one resolution every write
   * goes through: ingest.append checks access on exactly the conversation it then appends to.
   * Call inside a write transaction.
   */
  function place(file: FileRow, conv: string, a: Announced): Placed {
    const key = ownKey(file, conv);
    const held = forgetter.exclusionOf(file.kind, key);
    if (held !== undefined) return { exclusion: held };
    // The workspace, session and parent come once, at the top of a file: later batches know them from the row.
    const row = s.conv.get(file.kind, key);
    const parentKey = a.parentKey ?? row?.parent_key ?? undefined;
    const exclusion =
      exclusions().conversation({ path: file.path, workspace: a.workspace ?? row?.workspace, ids: [a.sessionId ?? row?.session_id, key] }) ??
      (parentKey !== undefined ? forgetter.exclusionOf(file.kind, parentKey) : undefined);
    if (!exclusion) return { key, row };
    if (row) forgetter.forget(row.id, exclusion);
    else forgetter.tombstone(file.kind, key, exclusion, file.path);
    return { exclusion };
  }

  /**
   * The key this file's conversation is stored under. A conversation belongs to the file that first
   * wrote it; another file with the same session id (a backup, a sync-conflict copy, a shorter
   * export) gets a conversation of its own, or its entries, numbered from 0 too, would overwrite the
   * first file's and its tree would hide theirs. A file that is gone hands its conversation on (an
   * agent moved it).
   */
  function ownKey(file: FileRow, key: string): string {
    if (options.sharesConversations?.(file.kind)) return key;
    const row = s.conv.get(file.kind, key);
    if (!row || row.file_id === null || row.file_id === file.id) return key;
    const own = `${key}@${file.path}`;
    if (s.conv.get(file.kind, own)) return own;
    return ownerPresent(row.file_id) ? own : key;
  }

  function ownerPresent(fileId: number): boolean {
    const owner = s.fileById.get(fileId);
    if (!owner || owner.status === 'missing') return false;
    // Pushed conversations (ingest.append) live in the index only: their "file" is always there.
    return /^[a-z][a-z0-9+.-]*:\/\//.test(owner.path) || fs.existsSync(owner.path);
  }
  const commitBatchTx = writeTransaction(db, commitBatchBody);

  /** `next` applied after `acc`, as one meta: the same result as applying both in turn. */
  function mergeMeta(acc: ConversationMeta | undefined, next: ConversationMeta): ConversationMeta {
    if (!acc) return { ...next };
    const out: ConversationMeta = { ...acc };
    for (const k of ['sessionId', 'workspace', 'summary', 'parentKey'] as const) if (next[k] !== undefined) out[k] = next[k];
    if (next.isSubagent !== undefined) out.isSubagent = next.isSubagent;
    if (next.createdAt !== undefined) out.createdAt = out.createdAt === undefined ? next.createdAt : Math.min(out.createdAt, next.createdAt);
    if (next.updatedAt !== undefined) out.updatedAt = out.updatedAt === undefined ? next.updatedAt : Math.max(out.updatedAt, next.updatedAt);
    // A title replaces one of the same or lower rank: the stored title_rank decides the rest in SQL.
    if (next.title !== undefined && (out.title === undefined || (next.titleRank ?? 0) >= (out.titleRank ?? 0))) {
      out.title = next.title;
      out.titleRank = next.titleRank ?? 0;
    }
    return out;
  }

  function applyMeta(row: ConvRow, meta: ConversationMeta, fileId: number): void {
    // file_id is written only when it changes. An UPDATE that writes a foreign-key column runs in a
    // statement journal, and opening one makes FTS5 flush its pending rows into a new segment: done
    // on every batch, that is a segment per file per FTS table for the merges to work through.
    const sets: string[] = row.file_id === fileId ? [] : ['file_id = @fileId'];
    const params: Record<string, unknown> = { id: row.id, fileId };
    const plain: [keyof ConversationMeta, string][] = [
      ['sessionId', 'session_id'],
      ['workspace', 'workspace'],
      ['summary', 'summary'],
      ['parentKey', 'parent_key'],
    ];
    for (const [field, column] of plain) {
      if (meta[field] !== undefined) {
        sets.push(`${column} = @${field}`);
        params[field] = field === 'summary' ? redactPrivate(String(meta[field])) : meta[field];
      }
    }
    if (meta.isSubagent !== undefined) {
      sets.push('is_subagent = @isSubagent');
      params.isSubagent = meta.isSubagent ? 1 : 0;
    }
    if (meta.createdAt !== undefined) {
      sets.push('created_at = min(coalesce(created_at, @createdAt), @createdAt)');
      params.createdAt = meta.createdAt;
    }
    if (meta.updatedAt !== undefined) {
      sets.push('updated_at = max(coalesce(updated_at, 0), @updatedAt)');
      params.updatedAt = meta.updatedAt;
    }
    if (meta.title !== undefined) {
      // A title only replaces one of the same or lower rank (custom name > generated title > first prompt).
      const rank = meta.titleRank ?? 0;
      sets.push('title = CASE WHEN title_rank <= @rank THEN @title ELSE title END');
      sets.push('title_rank = max(title_rank, @rank)');
      params.title = redactPrivate(meta.title);
      params.rank = rank;
    }
    if (sets.length === 0) return;
    const sql = `UPDATE conversations SET ${sets.join(', ')} WHERE id = @id`;
    let stmt = metaStatements.get(sql);
    if (!stmt) metaStatements.set(sql, (stmt = db.prepare(sql)));
    stmt.run(params);
  }

  function upsertEntry(convId: number, e: EntryRecord): void {
    const row = {
      conversation_id: convId,
      seq: e.seq,
      source_id: e.sourceId ?? null,
      parent_source_id: e.parentSourceId ?? null,
      role: e.role,
      author: e.author ?? null,
      kind: e.kind,
      // Private spans are dropped before storage: what is never stored can never be searched or leaked.
      text: redactPrivate(e.text),
      indexed: e.indexed && e.text.length > 0 ? 1 : 0,
      tool_name: e.toolName ?? null,
      tool_status: e.toolStatus ?? null,
      ts: e.ts ?? null,
      first_kept_source_id: e.firstKeptSourceId ?? null,
    };
    const old = s.entry.get(convId, e.seq);
    if (old) {
      if (old.indexed) s.ftsDelete.run(old.id, old.text);
      s.updateEntry.run({ ...row, id: old.id });
      if (row.indexed) s.ftsInsert.run(old.id, row.text);
    } else {
      const id = s.insertEntry.run(row).lastInsertRowid;
      if (row.indexed) s.ftsInsert.run(id, row.text);
    }
  }

  /** An entry found by its source id: it keeps its seq when the conversation has it, else goes last. */
  function upsertRecord(convId: number, e: SourcedRecord): void {
    const seq = s.bySource.get(convId, e.sourceId)?.seq ?? (s.lastSeq.get(convId) ?? -1) + 1;
    upsertEntry(convId, { ...e, seq });
  }

  /** After the conversation's last entry as it stands now, in this batch's transaction. */
  function appendEntry(convId: number, e: Omit<EntryRecord, 'seq'>): void {
    upsertEntry(convId, { ...e, seq: (s.lastSeq.get(convId) ?? -1) + 1 });
  }

  function dropRecord(convId: number, sourceId: string, parts: boolean): void {
    const rows = s.bySource.all(convId, sourceId);
    if (parts) rows.push(...s.byParts.all(convId, `${sourceId}#`, `${sourceId}$`));
    for (const old of rows) {
      if (old.indexed) s.ftsDelete.run(old.id, old.text);
      s.deleteEntry.run(old.id);
    }
  }

  function finishConversation(convId: number, deferTerms: boolean): void {
    const stats = s.convStats.get(convId)!;
    s.setStats.run(stats.n, stats.first, stats.last, convId);
    if (deferTerms) s.termsStale.run(convId);
    markOffPath(convId);
    const conv = s.convById.get(convId)!;
    refreshSummaryFields(conv);
    if (!deferTerms) rebuildTerms(convId, conv);
  }

  /**
   * Derives the conversation's summary from its text as it now stands and writes its conversations_fts
   * row: the summary field holds the agent's own summary, else the derived one (so the summary signal
   * has something to match when the agent wrote none). conversation_terms does not need it: every word
   * of the derived summary is already in the conversation's title or messages.
   */
  function refreshSummaryFields(conv: ConvRow): void {
    const derived = deriveSummary({ firstRequest: s.firstRequest.get(conv.id) ?? null, lastReply: s.lastReply.get(conv.id) ?? null });
    s.setDerived.run(derived, conv.id, derived);
    s.convFtsDelete.run(conv.id);
    s.convFtsInsert.run(conv.id, conv.title, conv.summary ?? (derived || null), conv.workspace);
  }

  /** Every document marked stale (by this run's earlier batches, or a run that stopped between two). */
  function rebuildStaleTerms(): void {
    for (const id of s.staleTerms.all()) rebuildTerms(id);
  }

  /** The conversation's one conversation_terms document, from all its indexed text. */
  function rebuildTerms(convId: number, conv = s.convById.get(convId)): void {
    s.termsDelete.run(convId);
    s.termsFresh.run(convId);
    if (!conv) return;
    const text = s.convText.get(convId)?.text ?? '';
    s.termsInsert.run(convId, `${conv.title}\n${conv.summary ?? ''}\n${text}`);
  }

  /** In a tree session only the path from the leaf to the root is the active branch. */
  function markOffPath(convId: number): void {
    const leaf = s.leaf.get(convId)?.leaf_source_id;
    if (!leaf) return;
    const rows = s.treeEntries.all(convId);
    const parentOf = new Map<string, string | null>();
    for (const r of rows) if (r.source_id) parentOf.set(r.source_id, r.parent_source_id);
    const onPath = new Set<string>();
    for (let id: string | null | undefined = leaf; id && !onPath.has(id); id = parentOf.get(id)) onPath.add(id);
    for (const r of rows) {
      const off = r.source_id !== null && !onPath.has(r.source_id) ? 1 : 0;
      if (off !== r.off_path) s.setOffPath.run(off, r.id);
    }
  }

  const recordProblems = writeTransaction(db, (path: string, problems: readonly LineProblem[]): void => {
    const now = Date.now();
    for (const p of problems) s.error.run(path, p.line, p.reason, now);
  });

  // Each as its own IMMEDIATE transaction, or a savepoint of the caller's (see write-lock.ts).
  const resetFile = (file: FileRow): void => resetFileTx(file);
  const commitBatch = (file: FileRow, ops: readonly IngestOp[], progress: FileProgress, more = false): Map<string, number | null> =>
    commitBatchTx(file, ops, progress, more);
  /**
   * The same batch with no savepoint of its own, for a caller whose transaction rolls back as a whole
   * if this throws (scan.ts indexes groups of files this way). A savepoint per batch makes FTS5 flush
   * its pending rows at every file; without them it writes a segment per many files (BENCHMARKS.md).
   */
  const commitBatchInTransaction = (file: FileRow, ops: readonly IngestOp[], progress: FileProgress, more = false): void => {
    if (!db.inTransaction) throw new Error('commitBatchInTransaction needs an open transaction');
    commitBatchBody(file, ops, progress, more);
  };
  const placeInTransaction = (file: FileRow, conv: string, announced: Announced): Placed => {
    if (!db.inTransaction) throw new Error('place needs an open write transaction');
    return place(file, conv, announced);
  };

  const refreshTermsTx = writeTransaction(db, rebuildStaleTerms);
  const deriveMissingTx = writeTransaction(db, (ids: readonly number[]) => {
    for (const id of ids) {
      const conv = s.convById.get(id);
      if (conv) refreshSummaryFields(conv);
    }
  });
  /**
   * Rebuilds the conversation_terms documents a run left stale when it stopped between two batches
   * of a file (killed, or the file cut short), and derives the summaries an index from before
   * migration 7 lacks (in transactions of 500, so other writers get their turn). A read first: no
   * write lock when there is nothing to do.
   */
  const refreshStaleTerms = (): void => {
    if (s.staleTerms.get() !== undefined) refreshTermsTx();
    const missing = s.underived.all();
    for (let i = 0; i < missing.length; i += 500) deriveMissingTx(missing.slice(i, i + 500));
  };

  return {
    fileRow,
    refreshStaleTerms,
    ensureFile,
    resetFile,
    commitBatch,
    commitBatchInTransaction,
    place: placeInTransaction,
    recordProblems,
    /** The file is unchanged but its mtime moved (e.g. touched): remember it so the next scan skips it. */
    touchFile: writeTransaction(db, (file: FileRow, size: number, mtimeMs: number) => void s.touchFile.run(size, mtimeMs, file.id), { inline: true }),
    setFileStatus: writeTransaction(db, (file: FileRow, status: FileRow['status'], error: string | null) => void s.fileStatus.run(status, error, file.id), {
      inline: true,
    }),
  };
}
