// Keeping the index in line with the exclusions in settings: what they cover is removed (unless the
// person chose to keep it when adding the exclusion), and what an exclusion no longer covers, because
// the person removed it, is read again from its file.
import type { Exclusions } from '../privacy.js';
import type { ReadableDb, WritableDb } from './db.js';
import { createForgetter, nothingForgotten, type Forgotten } from './forget.js';
import { writeTransaction } from './write-lock.js';
import type { Writer } from './writer.js';

interface Subject {
  id: number;
  source: string;
  key: string;
  session_id: string;
  path: string;
  workspace: string | null;
  forgotten: number;
}

export interface Reconciled {
  /** Conversations whose exclusion was removed: their files are read again by the next scan. */
  lifted: number;
  forgotten: Forgotten;
}

export interface Covered {
  conversations: { id: number; source: string; key: string; path: string }[];
  entries: number;
}

export interface ExclusionCoverage {
  /** What `ex` covers in the index now, for a person deciding whether to remove it. */
  covered(ex: Exclusions): Covered;
}

export interface ExclusionKeeper extends ExclusionCoverage {
  /** Lifts what no exclusion holds any more, and forgets what the exclusions newly cover. */
  reconcile(ex: Exclusions): Reconciled;
  /** Keeps what `ex` covers out from now on, without removing what is indexed of it. */
  keep(ex: Exclusions): number;
}

/** Conversations an exclusion would cover that none holds yet (top-level ones first): a read. */
function createSubjects(db: ReadableDb) {
  const subjects = db.prepare<[], Subject>(
    `SELECT c.id, c.source, c.key, c.session_id, c.path, c.workspace,
       EXISTS (SELECT 1 FROM forgotten t WHERE t.source = c.source AND t.key = c.key) AS forgotten
     FROM conversations c ORDER BY c.parent_id IS NOT NULL, c.id`,
  );
  const entryCount = db.prepare<[number], number>('SELECT count(*) FROM entries WHERE conversation_id = ?').pluck();

  /** Conversations `ex` covers that no exclusion holds yet (top-level ones first). */
  function uncovered(ex: Exclusions): Subject[] {
    if (!ex.patterns.length) return [];
    return subjects.all().filter((c) => !c.forgotten && ex.conversation({ path: c.path, workspace: c.workspace, ids: [c.session_id, c.key] }) !== null);
  }
  return {
    uncovered,
    covered(ex: Exclusions): Covered {
      const list = uncovered(ex);
      return { conversations: list.map((c) => ({ id: c.id, source: c.source, key: c.key, path: c.path })), entries: list.reduce((n, c) => n + entryCount.get(c.id)!, 0) };
    },
  };
}

export function createExclusionCoverage(db: ReadableDb): ExclusionCoverage {
  const { covered } = createSubjects(db);
  return { covered };
}

export function createExclusionKeeper(db: WritableDb, writer: Writer): ExclusionKeeper {
  const forgetter = createForgetter(db);
  const { uncovered, covered } = createSubjects(db);
  const tombstones = db.prepare<[], { source: string; key: string; exclusion: string; path: string }>('SELECT source, key, exclusion, path FROM forgotten');
  const lift = db.prepare('DELETE FROM forgotten WHERE source = ? AND key = ?');
  // A size no file has: the next scan does not take the file as unchanged.
  const unstat = db.prepare('UPDATE source_files SET size = -1 WHERE id = ?');

  /** The next scan reads the file from the start (what it produced so far is dropped now). */
  function readAgain(path: string): void {
    const row = writer.fileRow(path);
    if (!row) return;
    writer.resetFile(row);
    unstat.run(row.id);
  }

  /** Lifts what no exclusion holds any more, and forgets what the exclusions newly cover. */
  const reconcile = writeTransaction(db, (ex: Exclusions): Reconciled => {
    const active = new Set(ex.patterns);
    let lifted = 0;
    const paths = new Set<string>();
    for (const t of tombstones.all()) {
      if (active.has(t.exclusion)) continue;
      lift.run(t.source, t.key);
      paths.add(t.path);
      lifted++;
    }
    for (const path of paths) readAgain(path);
    const forgotten = nothingForgotten();
    for (const c of uncovered(ex)) {
      const exclusion = ex.conversation({ path: c.path, workspace: c.workspace, ids: [c.session_id, c.key] })!;
      // A sub-agent may already have gone with its parent.
      forgetter.forget(c.id, exclusion, forgotten);
    }
    return { lifted, forgotten };
  });

  return {
    reconcile,
    covered,
    /** Keeps what `ex` covers out from now on, without removing what is indexed of it. */
    keep: writeTransaction(db, (ex: Exclusions): number => {
      const list = uncovered(ex);
      for (const c of list) forgetter.tombstone(c.source, c.key, ex.conversation({ path: c.path, workspace: c.workspace, ids: [c.session_id, c.key] })!, c.path);
      return list.length;
    }),
  };
}
