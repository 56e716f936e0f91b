// What the writer derives from a conversation's entries once a batch has written them: its counts
// and dates, which entries are off the active branch, the derived summary with the conversations_fts
// row, and the conversation_terms document (rebuilt at once, or marked stale while more batches of
// the same file follow).
import type { WritableDb } from './db.js';
import type { ConvRow } from './interface.js';
import { deriveSummary } from './derived-summary.js';
import type { FtsWrites } from './fts-writes.js';

export interface Derived {
  /** Everything derived from the conversation's entries, after a batch; `deferTerms`: its terms document is only marked stale. */
  finish(convId: number, deferTerms: boolean): void;
  /** Whether the conversation's row is there (not forgotten since). */
  exists(convId: number): boolean;
  /** Whether any conversation_terms document is marked stale. */
  anyStale(): boolean;
  /** Every document marked stale (by this run's earlier batches, or a run that stopped between two). */
  rebuildStale(): void;
  /** Conversations with no derived summary yet (an index from before migration 7). */
  underived(): number[];
  /** The derived summary and conversations_fts row of one conversation, from its entries as they stand. */
  refreshSummary(convId: number): void;
}

export function createDerived(db: WritableDb, fts: FtsWrites): Derived {
  const s = {
    convById: db.prepare<[number], ConvRow>('SELECT id, title, summary, workspace, file_id, session_id, parent_key FROM conversations WHERE id = ?'),
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

  /**
   * Derives the conversation's summary from its text as it now stands and writes its conversations_fts
   * row: the summary field holds the agent's own summary, else the derived one (so the summary signal
   * has something to match when the agent wrote none). conversation_terms does not need it: every word
   * of the derived summary is already in the conversation's title or messages.
   */
  function refreshSummaryFields(conv: ConvRow): void {
    const derived = deriveSummary({ firstRequest: s.firstRequest.get(conv.id) ?? null, lastReply: s.lastReply.get(conv.id) ?? null });
    s.setDerived.run(derived, conv.id, derived);
    fts.run(s.convFtsDelete, conv.id);
    fts.run(s.convFtsInsert, conv.id, conv.title, conv.summary ?? (derived || null), conv.workspace);
  }

  /** The conversation's one conversation_terms document, from all its indexed text. */
  function rebuildTerms(convId: number, conv = s.convById.get(convId)): void {
    fts.run(s.termsDelete, convId);
    s.termsFresh.run(convId);
    if (!conv) return;
    const text = s.convText.get(convId)?.text ?? '';
    fts.run(s.termsInsert, convId, `${conv.title}\n${conv.summary ?? ''}\n${text}`);
  }

  return {
    finish(convId, deferTerms) {
      const stats = s.convStats.get(convId)!;
      s.setStats.run(stats.n, stats.first, stats.last, convId);
      if (deferTerms) s.termsStale.run(convId);
      markOffPath(convId);
      const conv = s.convById.get(convId)!;
      refreshSummaryFields(conv);
      if (!deferTerms) rebuildTerms(convId, conv);
    },
    exists: (convId) => s.convById.get(convId) !== undefined,
    anyStale: () => s.staleTerms.get() !== undefined,
    rebuildStale() {
      for (const id of s.staleTerms.all()) rebuildTerms(id);
    },
    underived: () => s.underived.all(),
    refreshSummary(convId) {
      const conv = s.convById.get(convId);
      if (conv) refreshSummaryFields(conv);
    },
  };
}
