// `ingest.append`: an agent whose files Throughline does not read pushes its entries live.
// They are stored as a `jsonl` conversation keyed by the agent's own id, through the same writer.
import type { AppendParams, AppendResult } from '../../shared/api.js';
import type { Db } from '../store/db.js';
import type { EntryRecord, IngestOp } from '../ingest/types.js';
import type { Writer } from '../store/writer.js';

export const APPEND_PREFIX = 'throughline-append://';

export function appendEntries(db: Db, writer: Writer, params: AppendParams): AppendResult {
  const key = params.conversation.id;
  const filePath = APPEND_PREFIX + encodeURIComponent(key);
  const file = writer.ensureFile(filePath, 'jsonl');
  const convId = db.prepare("SELECT id FROM conversations WHERE source = 'jsonl' AND key = ?").pluck().get(key) as number | undefined;
  const next = convId === undefined ? 0 : ((db.prepare('SELECT max(seq) FROM entries WHERE conversation_id = ?').pluck().get(convId) as number | null) ?? -1) + 1;
  const now = Date.now();
  const ops: IngestOp[] = [];
  const firstUser = params.entries.find((e) => e.role === 'user')?.text.trim().split('\n')[0]?.slice(0, 80);
  ops.push({
    op: 'conversation',
    conv: key,
    meta: {
      sessionId: key,
      workspace: params.conversation.workspace,
      title: params.conversation.title ?? firstUser,
      titleRank: params.conversation.title ? 3 : 1,
      updatedAt: now,
    },
  });
  params.entries.forEach((e, i) => {
    const entry: EntryRecord = {
      seq: next + i,
      sourceId: e.id,
      role: e.role,
      kind: e.tool ? 'tool_call' : 'message',
      text: e.text,
      indexed: !e.tool && (e.role === 'user' || e.role === 'assistant'),
      toolName: e.tool?.name,
      toolStatus: e.tool?.status,
      ts: e.ts ? Date.parse(e.ts) : now,
    };
    ops.push({ op: 'entry', conv: key, entry });
  });
  writer.commitBatch(file, ops, { offset: 0, line: 0, state: null, size: 0, mtimeMs: now, inode: 0 });
  const id = db.prepare("SELECT id FROM conversations WHERE source = 'jsonl' AND key = ?").pluck().get(key) as number;
  return { conversation: id, entries: params.entries.length };
}
