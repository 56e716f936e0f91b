// Where a file's conversation is stored, decided before anything of it is written: its own key (a
// copy of another file's session gets one of its own), or the exclusion that keeps it out.
import fs from 'node:fs';
import type { SourceKind } from '../../shared/types.js';
import type { WritableDb } from './db.js';
import type { Forgetter } from './forget.js';
import type { Announced, FileRow, Placed } from './interface.js';
import type { IngestOp } from './ops.js';
import type { ConversationRows } from './writer-conversations.js';
import type { Exclusions } from '../privacy.js';

export interface Placement {
  /**
   * For each conversation the ops name, the key it is stored under, or null when it is kept out.
   * Decided before anything is written, so an excluded conversation's text never enters the index
   * (FTS5 would keep its words in its segments even if the rows were deleted in the same batch).
   */
  targets(file: FileRow, ops: readonly IngestOp[]): Map<string, string | null>;
  /** See Writer.place. Call inside a write transaction: an exclusion found forgets or tombstones at once. */
  place(file: FileRow, conv: string, a: Announced): Placed;
}

export interface PlacementOptions {
  exclusions: () => Exclusions;
  sharesConversations?: (kind: SourceKind) => boolean;
}

export function createPlacement(db: WritableDb, conversations: ConversationRows, forgetter: Forgetter, options: PlacementOptions): Placement {
  const fileById = db.prepare<[number], { path: string; status: string }>('SELECT path, status FROM source_files WHERE id = ?');

  /**
   * Where the conversation a file calls `conv` is stored: its key and current row, or the exclusion
   * keeping it out (then it is forgotten, or held out from now on). The one resolution every write
   * goes through: ingest.append checks access on exactly the conversation it then appends to.
   */
  function place(file: FileRow, conv: string, a: Announced): Placed {
    const key = ownKey(file, conv);
    const held = forgetter.exclusionOf(file.kind, key);
    if (held !== undefined) return { exclusion: held };
    // The workspace, session and parent come once, at the top of a file: later batches know them from the row.
    const row = conversations.byKey(file.kind, key);
    const parentKey = a.parentKey ?? row?.parent_key ?? undefined;
    const exclusion =
      options.exclusions().conversation({ path: file.path, workspace: a.workspace ?? row?.workspace, ids: [a.sessionId ?? row?.session_id, key] }) ??
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
    const row = conversations.byKey(file.kind, key);
    if (!row || row.file_id === null || row.file_id === file.id) return key;
    const own = `${key}@${file.path}`;
    if (conversations.byKey(file.kind, own)) return own;
    return ownerPresent(row.file_id) ? own : key;
  }

  function ownerPresent(fileId: number): boolean {
    const owner = fileById.get(fileId);
    if (!owner || owner.status === 'missing') return false;
    // Pushed conversations (ingest.append) live in the index only: their "file" is always there.
    return /^[a-z][a-z0-9+.-]*:\/\//.test(owner.path) || fs.existsSync(owner.path);
  }

  return {
    targets(file, ops) {
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
    },
    place,
  };
}
