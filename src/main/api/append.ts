// `ingest.append`: an agent whose files Throughline does not read pushes its entries live.
// They are stored as a `jsonl` conversation keyed by the agent's own id, through the same writer.
import type { Access, AppendParams, AppendResult } from '../../shared/api.js';
import type { Db } from '../store/db.js';
import type { EntryRecord, IngestOp } from '../store/ops.js';
import { writeTransaction } from '../store/write-lock.js';
import type { Writer } from '../store/writer.js';
import { FULL_ACCESS, within } from './access.js';
import { ForbiddenError } from './errors.js';

export const APPEND_PREFIX = 'throughline-append://';

export function appendEntries(db: Db, writer: Writer, params: AppendParams, access: Access = FULL_ACCESS): AppendResult {
  // One transaction: the conversation checked is the one appended to, whoever writes meanwhile.
  return writeTransaction(db, (): AppendResult => {
    const key = params.conversation.id;
    const file = writer.ensureFile(APPEND_PREFIX + encodeURIComponent(key), 'jsonl');
    // The writer's own resolution (exclusions, which file owns the key), not a lookup of ours that could differ.
    const placed = writer.place(file, key, { workspace: params.conversation.workspace, sessionId: key });
    if ('exclusion' in placed) return { conversation: null, entries: 0, excluded: placed.exclusion };
    const existing = placed.row;
    // An existing conversation keeps its workspace: an append must never move one into a caller's reach.
    const workspace = existing ? existing.workspace : params.conversation.workspace;
    if (!within(workspace, access.workspaces)) {
      throw new ForbiddenError(`Conversation "${key}" is outside the workspaces this caller may reach (${access.workspaces?.join(', ')}).`);
    }
    const now = Date.now();
    const ops: IngestOp[] = [];
    const firstUser = params.entries.find((e) => e.role === 'user')?.text.trim().split('\n')[0]?.slice(0, 80);
    ops.push({
      op: 'conversation',
      conv: key,
      meta: {
        sessionId: key,
        workspace: existing ? undefined : params.conversation.workspace,
        title: params.conversation.title ?? firstUser,
        titleRank: params.conversation.title ? 3 : 1,
        updatedAt: now,
      },
    });
    for (const e of params.entries) {
      // Numbered by the writer, after the last entry, in the same transaction (see IngestOp 'append').
      const entry: Omit<EntryRecord, 'seq'> = {
        sourceId: e.id,
        role: e.role,
        kind: e.tool ? 'tool_call' : 'message',
        text: e.text,
        indexed: !e.tool && (e.role === 'user' || e.role === 'assistant'),
        toolName: e.tool?.name,
        toolStatus: e.tool?.status,
        ts: e.ts ? Date.parse(e.ts) : now,
      };
      ops.push({ op: 'append', conv: key, entry });
    }
    const ids = writer.commitBatch(file, ops, { offset: 0, line: 0, state: null, size: 0, mtimeMs: now, inode: 0 });
    return { conversation: ids.get(key) ?? null, entries: params.entries.length };
  })();
}
