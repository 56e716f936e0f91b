// A digest of an index, to tell whether two builds of it hold the same (an ingest change must not
// change what is stored): each table's rows, the full-text vocabularies and a few searches, hashed.
//   node bin/run-ts.mjs bench/index-digest.ts FILE
import crypto from 'node:crypto';
import Database from 'better-sqlite3';

const file = process.argv[2];
if (!file) throw new Error('usage: index-digest.ts FILE');
const db = new Database(file, { readonly: true });
const hash = (rows: unknown[]) => `${rows.length} ${crypto.createHash('sha1').update(JSON.stringify(rows)).digest('hex').slice(0, 12)}`;
const rows = (sql: string, ...params: unknown[]) => db.prepare(sql).raw().all(...params);

const out: Record<string, string> = {
  // Not indexed_at: the time of the run.
  source_files: hash(rows('SELECT path, kind, size, mtime_ms, inode, committed_offset, committed_line, parser_state, status, error FROM source_files ORDER BY path')),
  conversations: hash(rows('SELECT * FROM conversations ORDER BY id')),
  entries: hash(rows('SELECT * FROM entries ORDER BY id')),
  conversations_fts: hash(rows('SELECT rowid, title, summary, workspace FROM conversations_fts ORDER BY rowid')),
  ingest_errors: hash(rows('SELECT path, line, reason FROM ingest_errors ORDER BY id')),
  terms_vocab: hash(rows('SELECT term, doc FROM conversation_terms_vocab ORDER BY term')),
};
// A read-only connection may still make temp tables: the vocabularies of the other two FTS tables.
db.exec("CREATE VIRTUAL TABLE temp.entries_vocab USING fts5vocab(main, entries_fts, 'row')");
db.exec("CREATE VIRTUAL TABLE temp.convs_vocab USING fts5vocab(main, conversations_fts, 'col')");
out.entries_vocab = hash(rows('SELECT term, doc, cnt FROM temp.entries_vocab ORDER BY term'));
out.convs_vocab = hash(rows('SELECT term, col, doc, cnt FROM temp.convs_vocab ORDER BY term, col'));
for (const q of ['kafka', 'flaky test', 'migration', 'zelmor*', 'docker compose']) {
  out[`search: ${q}`] = hash(rows('SELECT rowid, round(bm25(entries_fts), 6) FROM entries_fts WHERE entries_fts MATCH ? ORDER BY bm25(entries_fts), rowid LIMIT 50', q));
  out[`terms: ${q}`] = hash(rows('SELECT rowid FROM conversation_terms WHERE conversation_terms MATCH ? ORDER BY rowid', q));
}
console.log(JSON.stringify(out, null, 1));
