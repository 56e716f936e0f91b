// A handoff must survive the agent going on writing its own session file.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createIndexer } from '../../src/main/ingest/scan.js';
import { ADAPTERS } from '../../src/main/ingest/sources.js';
import { createRecall, createRecallWrites } from '../../src/main/recall/index.js';
import { openDb } from '../../src/main/store/db.js';
import { createReader } from '../../src/main/store/read.js';
import { FIXTURES, useTmp } from '../helpers/tmp.js';

const tmp = useTmp('tl-handoff-');

describe('history_handoff on a live session file', () => {
  it('keeps the handoff and its boundary when the agent appends more entries', () => {
    const dir = tmp();
    const project = path.join(dir, 'projects', '-repo');
    fs.mkdirSync(project, { recursive: true });
    const inc = path.join(FIXTURES, 'large/claude-code/incremental-simple');
    const turn1 = fs.readFileSync(path.join(inc, 'turn-1.jsonl'));
    const turn2 = fs.readFileSync(path.join(inc, 'turn-2.jsonl'));
    const file = path.join(project, '3fb74381-1bf4-475e-8c6f-442d872b1bcf.jsonl');
    fs.writeFileSync(file, turn1);
    const db = openDb(path.join(dir, 'index.sqlite'));
    const indexer = createIndexer(db, ADAPTERS);
    const sources = [{ kind: 'claude-code' as const, root: path.join(dir, 'projects') }];
    indexer.scan(sources);
    const reader = createReader(db);
    const conv = reader.conversation(file)!;
    const before = reader.maxSeq(conv.id)!;
    const h = createRecallWrites(db).historyHandoff({ conversation: file, text: 'Goal: finish the hooks work. Next: tests.' });
    expect(h.entry).toBe(before + 1);
    fs.appendFileSync(file, turn2.subarray(turn1.length));
    indexer.scan(sources);
    expect(reader.maxSeq(conv.id)!).toBeGreaterThan(before + 1); // the agent's new entries arrived
    expect(reader.handoffs(conv.id)).toMatchObject([{ seq: before + 1, text: h.handoff }]);
    expect(reader.boundary(conv.id)).toBe(before + 1);
    const tail = createRecall(db).historyRead({ conversation: file, mode: 'tail', count: 3 });
    expect(Math.max(...tail.entries.map((e) => e.entry))).toBeLessThanOrEqual(before);
    db.close();
  });
});
