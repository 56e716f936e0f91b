// A large file is indexed in batches of about 1 MB, each its own commit, and its conversation_terms
// document is rebuilt once at the end rather than after every batch.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readLines } from '../../src/main/ingest/read-lines.js';
import { createIndexer } from '../../src/main/ingest/scan.js';
import { ADAPTERS } from '../../src/main/ingest/sources.js';
import { jsonlAdapter } from '../../src/main/ingest/adapters/jsonl.js';
import { openDb, type Db } from '../../src/main/store/db.js';
import { createWriter } from '../../src/main/store/writer.js';
import type { IngestOp } from '../../src/main/ingest/types.js';
import { useTmp } from '../helpers/tmp.js';

const tmp = useTmp('tl-batches-');
const MB = 1 << 20;

/** An import file of about `bytes` bytes, one conversation, with a word only in its first and one only in its last message. */
function writeLarge(file: string, bytes: number): void {
  const lines = [JSON.stringify({ type: 'conversation', id: 'big', workspace: '/tmp/big', title: 'big one' })];
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    const text = `${i === 0 ? 'zanzibarfirst ' : ''}message ${i} ${'lorem ipsum dolor sit amet '.repeat(40)}`;
    lines.push(JSON.stringify({ type: 'message', role: i % 2 ? 'assistant' : 'user', text }));
    size += lines.at(-1)!.length + 1;
  }
  lines.push(JSON.stringify({ type: 'message', role: 'user', text: 'and finally quetzallast' }));
  fs.writeFileSync(file, lines.join('\n') + '\n');
}

const df = (db: Db, term: string) =>
  (db.prepare('SELECT doc FROM conversation_terms_vocab WHERE term = ?').pluck().get(term) as number | undefined) ?? 0;
const stale = (db: Db) => db.prepare('SELECT count(*) FROM conversations WHERE terms_stale = 1').pluck().get() as number;

describe('large files', () => {
  it('are read in batches of about 1 MB, contiguous and complete', () => {
    const file = path.join(tmp(), 'big.jsonl');
    writeLarge(file, 3.5 * MB);
    const size = fs.statSync(file).size;
    const fd = fs.openSync(file, 'r');
    const chunks = [...readLines(fd, 0, size)];
    fs.closeSync(fd);
    expect(chunks.length).toBeGreaterThanOrEqual(4);
    let offset = 0;
    for (const c of chunks) {
      const bytes = c.lines.reduce((n, l) => n + Buffer.byteLength(l as string) + 1, 0);
      expect(c.endOffset - offset).toBe(bytes);
      expect(bytes).toBeLessThan(MB + 4096); // 1 MB and at most one more line
      offset = c.endOffset;
    }
    expect(offset).toBe(size);
    expect(chunks.flatMap((c) => c.lines)).toEqual(fs.readFileSync(file, 'utf8').split('\n').slice(0, -1));
  });

  it('commit batch by batch, and end with one complete conversation_terms document', () => {
    const dir = tmp();
    const root = path.join(dir, 'import');
    fs.mkdirSync(root);
    writeLarge(path.join(root, 'big.jsonl'), 3 * MB);
    const db = openDb(path.join(dir, 'index.sqlite'));
    let commits = 0;
    db.function('count_commit', () => void commits++);
    // A trigger on the file's progress row counts the batches that committed it.
    db.exec('CREATE TEMP TRIGGER count_batches AFTER UPDATE OF committed_offset ON source_files BEGIN SELECT count_commit(); END');
    createIndexer(db, ADAPTERS).scan([{ kind: 'jsonl', root }]);
    expect(commits).toBeGreaterThanOrEqual(3);
    expect(stale(db)).toBe(0);
    expect(df(db, 'zanzibarfirst')).toBe(1);
    expect(df(db, 'quetzallast')).toBe(1);
    db.close();
  });

  it('leave a stale document when a run stops between batches, rebuilt by the next run', () => {
    const dir = tmp();
    const file = path.join(dir, 'import', 'big.jsonl');
    fs.mkdirSync(path.dirname(file));
    fs.writeFileSync(
      file,
      [
        { type: 'conversation', id: 'c1', workspace: '/tmp/c1', title: 'stopped midway' },
        { type: 'message', role: 'user', text: 'first batch mentions pangolin' },
        { type: 'message', role: 'assistant', text: 'second batch mentions okapi' },
      ]
        .map((l) => JSON.stringify(l))
        .join('\n') + '\n',
    );
    const db = openDb(path.join(dir, 'index.sqlite'));
    const writer = createWriter(db);
    const parser = jsonlAdapter.createParser(file, undefined);
    const [head, first] = fs.readFileSync(file, 'utf8').split('\n');
    const ops: IngestOp[] = [...parser.line(head!, 1), ...parser.line(first!, 2)];
    const row = writer.ensureFile(file, 'jsonl');
    const offset = Buffer.byteLength(`${head}\n${first}\n`);
    const st = fs.statSync(file);
    // The first of two batches commits as scan.ts commits it (the file's size is stored with the last
    // batch only), then the run stops before the second.
    writer.commitBatch(row, ops, { offset, line: 2, state: parser.state(), size: offset, mtimeMs: Math.floor(st.mtimeMs), inode: st.ino }, true);
    expect(stale(db)).toBe(1);
    expect(df(db, 'pangolin')).toBe(0);
    const again = createIndexer(db, ADAPTERS).scan([{ kind: 'jsonl', root: path.dirname(file) }]);
    expect(again.bytes).toBe(st.size - offset); // resumed after the committed batch
    expect(stale(db)).toBe(0);
    expect(df(db, 'pangolin')).toBe(1);
    expect(df(db, 'okapi')).toBe(1);
    db.close();
  });
});
