// Builds real on-disk indexes for recall tests through the writer (the same path ingest uses).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach } from 'vitest';
import type { EntryKind, Role, SourceKind } from '../../src/shared/types.js';
import { openDb, type Db } from '../../src/main/store/db.js';
import { createWriter } from '../../src/main/store/writer.js';
import type { IngestOp } from '../../src/main/ingest/types.js';

export const DAY = 86_400_000;
export const NOW = Date.parse('2026-11-29T12:00:00Z');

export interface EntrySpec {
  text: string;
  role?: Role;
  kind?: EntryKind;
  indexed?: boolean;
  toolName?: string;
  toolStatus?: string;
  sourceId?: string;
  parentSourceId?: string;
  firstKeptSourceId?: string;
  author?: string;
}

export interface ConvSpec {
  key: string;
  source?: SourceKind;
  workspace?: string;
  title?: string;
  summary?: string;
  /** Days before NOW of the last activity. */
  daysAgo?: number;
  isSubagent?: boolean;
  parentKey?: string;
  /** Plain strings are user/assistant messages, alternating from user. */
  entries?: (string | EntrySpec)[];
  leaf?: string;
}

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

export function tmpDir(): string {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'tl-recall-'));
  dirs.push(d);
  return d;
}

/** Writes conversations into the index, one session file row each. */
export function addConversations(db: Db, dir: string, convs: readonly ConvSpec[]): Map<string, number> {
  const writer = createWriter(db);
  const ids = new Map<string, number>();
  for (const c of convs) {
    const source = c.source ?? 'pi';
    const file = writer.ensureFile(path.join(dir, `${source}-${c.key}.jsonl`), source);
    const at = NOW - (c.daysAgo ?? 100) * DAY;
    const ops: IngestOp[] = [
      {
        op: 'conversation',
        conv: c.key,
        meta: {
          sessionId: `session-${c.key}`,
          workspace: c.workspace,
          title: c.title ?? c.key,
          titleRank: 2,
          summary: c.summary,
          createdAt: at - DAY,
          updatedAt: at,
          isSubagent: c.isSubagent,
          parentKey: c.parentKey,
        },
      },
    ];
    (c.entries ?? []).forEach((e, seq) => {
      const spec: EntrySpec = typeof e === 'string' ? { text: e, role: seq % 2 === 0 ? 'user' : 'assistant' } : e;
      const kind = spec.kind ?? 'message';
      const role = spec.role ?? 'user';
      const indexed = spec.indexed ?? (kind === 'message' && (role === 'user' || role === 'assistant'));
      ops.push({
        op: 'entry',
        conv: c.key,
        entry: {
          seq,
          role,
          kind,
          text: spec.text,
          indexed,
          toolName: spec.toolName,
          toolStatus: spec.toolStatus,
          sourceId: spec.sourceId,
          parentSourceId: spec.parentSourceId,
          firstKeptSourceId: spec.firstKeptSourceId,
          author: spec.author,
          ts: at - DAY + seq * 1000,
        },
      });
    });
    if (c.leaf) ops.push({ op: 'leaf', conv: c.key, sourceId: c.leaf });
    writer.commitBatch(file, ops, { offset: 1, line: 1, state: null, size: 1, mtimeMs: 1, inode: 1 });
    const id = db.prepare('SELECT id FROM conversations WHERE source = ? AND key = ?').pluck().get(source, c.key) as number;
    ids.set(c.key, id);
  }
  return ids;
}

export function buildIndex(convs: readonly ConvSpec[]): { db: Db; ids: Map<string, number>; dir: string; file: string } {
  const dir = tmpDir();
  const file = path.join(dir, 'index.sqlite');
  const db = openDb(file);
  const ids = addConversations(db, dir, convs);
  return { db, ids, dir, file };
}

/** `n` filler conversations (everyday words), so that document frequencies are realistic. */
export function filler(n: number, prefix = 'bg', workspace = '/w/other'): ConvSpec[] {
  const words = ['update', 'the', 'config', 'tests', 'change', 'build', 'review', 'code', 'deploy', 'error', 'fix', 'function'];
  return Array.from({ length: n }, (_, i) => ({
    key: `${prefix}${i}`,
    workspace,
    title: `routine ${words[i % words.length]} work ${i}`,
    daysAgo: 200 + i,
    entries: [`please ${words[i % words.length]} and ${words[(i + 3) % words.length]} now`, `done: ${words[(i + 5) % words.length]} ok`],
  }));
}
