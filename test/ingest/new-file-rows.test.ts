// A first index reads no new file's whole row: discovery found none for it, so its row is inserted with
// its first batch (tried as an insert, looked up only if another process inserted it meanwhile), and a
// batch's compare-and-set reads the committed offset alone from the covering index. Each whole-row
// read decoded the parser state too, four times per file (a tenth of a cold 10k index's SQL).
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createIndexer } from '../../src/main/ingest/scan.js';
import { ADAPTERS } from '../../src/main/ingest/sources.js';
import { openDb, type Db } from '../../src/main/store/db.js';
import { FIXTURES, useTmp } from '../helpers/tmp.js';

const tmp = useTmp('tl-new-file-rows-');
const TURN = fs.readFileSync(path.join(FIXTURES, 'large/claude-code/incremental-simple/turn-1.jsonl'));
const FILES = 30;

/** How many times a statement reading a source_files row whole (`SELECT * …`) was run on this connection from now on. */
function wholeRowReads(db: Db): () => number {
  let n = 0;
  const prepare = db.prepare.bind(db);
  (db as { prepare: typeof db.prepare }).prepare = ((sql: string) => {
    const statement = prepare(sql);
    if (!/^SELECT \* FROM source_files\b/.test(sql)) return statement;
    const get = statement.get.bind(statement);
    statement.get = ((...params: unknown[]) => {
      n++;
      return get(...params);
    }) as typeof statement.get;
    return statement;
  }) as typeof db.prepare;
  return () => n;
}

describe('new files in a scan', () => {
  it('are indexed without reading their rows whole, and a changed file is read from its row', () => {
    const dir = tmp();
    const root = path.join(dir, 'projects', '-tmp-project');
    fs.mkdirSync(root, { recursive: true });
    const files = Array.from({ length: FILES }, (_, i) => path.join(root, `${String(i).padStart(8, '0')}-aaaa-bbbb-cccc-dddddddddddd.jsonl`));
    for (const f of files) fs.writeFileSync(f, TURN);
    const db = openDb(path.join(dir, 'index.sqlite'));
    const reads = wholeRowReads(db);
    const indexer = createIndexer(db, ADAPTERS);
    const sources = [{ kind: 'claude-code' as const, root: path.dirname(root) }];
    expect(indexer.scan(sources).parsedFiles).toBe(FILES);
    expect(db.prepare('SELECT count(*) FROM source_files WHERE committed_offset = ?').pluck().get(TURN.length)).toBe(FILES);
    expect(reads()).toBe(0);

    // A file that grew is read on from its row (its offset and parser state).
    fs.appendFileSync(files[0]!, TURN);
    const again = indexer.scan(sources);
    expect(again.parsedFiles).toBe(1);
    expect(reads()).toBeGreaterThanOrEqual(1);
    expect(db.prepare('SELECT committed_offset FROM source_files WHERE path = ?').pluck().get(files[0])).toBe(2 * TURN.length);
    db.close();
  });
});
