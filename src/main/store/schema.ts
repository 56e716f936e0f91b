// Numbered, forward-only migrations. Each runs once, in one transaction with the version bump.
// Never edit a migration that has shipped: add the next one.

/** The tokenizer shared by every full-text table; src/main/recall/terms.ts mirrors it for queries. */
export const TOKENIZE = "porter unicode61 remove_diacritics 2";

export const MIGRATIONS: readonly string[] = [
  // 1: the first schema
  `
  CREATE TABLE source_files (
    id INTEGER PRIMARY KEY,
    path TEXT NOT NULL UNIQUE,
    kind TEXT NOT NULL,
    size INTEGER NOT NULL DEFAULT 0,
    mtime_ms INTEGER NOT NULL DEFAULT 0,
    inode INTEGER NOT NULL DEFAULT 0,
    committed_offset INTEGER NOT NULL DEFAULT 0,
    committed_line INTEGER NOT NULL DEFAULT 0,
    parser_state TEXT,
    status TEXT NOT NULL DEFAULT 'ok' CHECK (status IN ('ok', 'missing', 'error')),
    error TEXT,
    indexed_at INTEGER
  );

  CREATE TABLE conversations (
    id INTEGER PRIMARY KEY,
    source TEXT NOT NULL,
    key TEXT NOT NULL,
    session_id TEXT NOT NULL,
    file_id INTEGER REFERENCES source_files(id) ON DELETE SET NULL,
    path TEXT NOT NULL,
    workspace TEXT,
    title TEXT NOT NULL DEFAULT '',
    title_rank INTEGER NOT NULL DEFAULT 0,
    summary TEXT,
    created_at INTEGER,
    updated_at INTEGER,
    entry_count INTEGER NOT NULL DEFAULT 0,
    parent_key TEXT,
    parent_id INTEGER REFERENCES conversations(id) ON DELETE SET NULL,
    is_subagent INTEGER NOT NULL DEFAULT 0,
    leaf_source_id TEXT,
    UNIQUE (source, key)
  );
  CREATE INDEX conversations_updated ON conversations(updated_at DESC);
  CREATE INDEX conversations_workspace ON conversations(workspace);
  CREATE INDEX conversations_file ON conversations(file_id);
  CREATE INDEX conversations_session ON conversations(session_id);

  CREATE TABLE entries (
    id INTEGER PRIMARY KEY,
    conversation_id INTEGER NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
    seq INTEGER NOT NULL,
    source_id TEXT,
    parent_source_id TEXT,
    role TEXT NOT NULL,
    author TEXT,
    kind TEXT NOT NULL,
    text TEXT NOT NULL,
    indexed INTEGER NOT NULL DEFAULT 0,
    tool_name TEXT,
    tool_status TEXT,
    ts INTEGER,
    off_path INTEGER NOT NULL DEFAULT 0,
    first_kept_source_id TEXT,
    UNIQUE (conversation_id, seq)
  );
  CREATE INDEX entries_source_id ON entries(conversation_id, source_id);
  CREATE INDEX entries_boundaries ON entries(conversation_id, kind) WHERE kind IN ('compaction', 'reset');

  CREATE TABLE ingest_errors (
    id INTEGER PRIMARY KEY,
    path TEXT NOT NULL,
    line INTEGER,
    reason TEXT NOT NULL,
    at INTEGER NOT NULL
  );
  CREATE INDEX ingest_errors_path ON ingest_errors(path);

  -- Entry text (user and assistant text only). External content: snippets read entries.text.
  CREATE VIRTUAL TABLE entries_fts USING fts5(
    text, content='entries', content_rowid='id', tokenize='${TOKENIZE}'
  );

  -- Conversation title, summary and workspace (rowid = conversation id). It keeps its own copy of
  -- these short texts so a row can be replaced or deleted by rowid alone, safely and idempotently.
  CREATE VIRTUAL TABLE conversations_fts USING fts5(title, summary, workspace, tokenize='${TOKENIZE}');

  -- One document per conversation (rowid = conversation id) holding all its indexed text, title and
  -- summary. detail=none keeps it small; its vocabulary gives each term's conversation frequency,
  -- which the recall gate needs, and its rowids answer "which conversations mention this term".
  CREATE VIRTUAL TABLE conversation_terms USING fts5(
    text, content='', contentless_delete=1, detail=none, tokenize='${TOKENIZE}'
  );
  CREATE VIRTUAL TABLE conversation_terms_vocab USING fts5vocab(conversation_terms, 'row');
  `,
  // 2: what agents asked and were given, for the activity view and `throughline activity`
  `
  CREATE TABLE activity (
    id INTEGER PRIMARY KEY,
    at INTEGER NOT NULL,
    client TEXT NOT NULL,
    method TEXT NOT NULL,
    params TEXT NOT NULL,
    conversations TEXT NOT NULL DEFAULT '[]',
    bytes INTEGER NOT NULL DEFAULT 0
  );
  CREATE INDEX activity_at ON activity(at DESC);
  `,
  // 3: indexes the benchmark showed missing (BENCHMARKS.md). The writer links sub-agents to parents
  // after every batch: without conversations_unlinked that scanned every conversation per batch, so a
  // cold index grew quadratically. Resolving a conversation by session id, key or file path (every
  // read and history tool call) scanned the table for key and path: 7 ms per call at 10k. A re-scan
  // reads each file's state from source_files_state instead of the rows, which carry parser state.
  `
  CREATE INDEX conversations_unlinked ON conversations(parent_key) WHERE parent_key IS NOT NULL AND parent_id IS NULL;
  CREATE INDEX conversations_key ON conversations(key);
  CREATE INDEX conversations_path ON conversations(path);
  CREATE INDEX source_files_state ON source_files(path, status, size, mtime_ms, inode, committed_offset);
  `,
  // 4: handoffs (history_handoff) live beside the entries, not among them: the agent's own file keeps
  // numbering its entries, and a handoff stored as an entry would be overwritten by the next one.
  `
  CREATE TABLE handoffs (
    id INTEGER PRIMARY KEY,
    conversation_id INTEGER NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
    before_seq INTEGER NOT NULL,
    text TEXT NOT NULL,
    at INTEGER NOT NULL
  );
  CREATE INDEX handoffs_conversation ON handoffs(conversation_id, before_seq);
  `,
  // 5: a conversation whose conversation_terms document waits for the end of its file. A large file
  // commits in several batches, and rebuilding the whole document after each re-read the conversation
  // so far every time (quadratic); the flag survives a crash between batches, so the next run rebuilds it.
  `
  ALTER TABLE conversations ADD COLUMN terms_stale INTEGER NOT NULL DEFAULT 0;
  CREATE INDEX conversations_terms_stale ON conversations(id) WHERE terms_stale = 1;
  `,
  // 6: conversations kept out of the index by an exclusion (forget, settings). A row here makes the
  // writer drop whatever the conversation's file, a copy of it or an agent's push brings later, even
  // when that no longer names the excluded workspace (adapters send it once, at the top of a file).
  // It holds ids and a path, never text. Removing the exclusion lifts it and the file is read again.
  `
  CREATE TABLE forgotten (
    source TEXT NOT NULL,
    key TEXT NOT NULL,
    exclusion TEXT NOT NULL,
    path TEXT NOT NULL,
    at INTEGER NOT NULL,
    PRIMARY KEY (source, key)
  );
  `,
  // 7: the summary Throughline derives at index time when the agent wrote none (store/derived-summary.ts):
  // the first request and the outcome, extractive. NULL means not derived yet (an index from before this
  // migration, or a conversation read again): the writer derives those at the start of the next run.
  `
  ALTER TABLE conversations ADD COLUMN derived_summary TEXT;
  CREATE INDEX conversations_underived ON conversations(id) WHERE derived_summary IS NULL;
  `,
  // 8: which conversation an entry belongs to, and whether it is on the active path, without reading
  // the entry's row. Every recall query joins FTS5's matches to entries for these two columns; through
  // the table each lookup reads the row's page and, past a long text, its overflow pages (off_path is
  // stored after the text). Queries name the index (INDEXED BY): SQLite prefers the rowid otherwise.
  `
  CREATE INDEX entries_owner ON entries(id, conversation_id, off_path);
  `,
  // 9: a conversation's sub-agents by parent_id. Without it every conversations.get (the window's
  // detail, and the activity note of each history_* call on the daemon's event loop) scanned the whole
  // table: 2.5 s of the event loop's 8 s over 1,000 mixed socket calls at 10k (BENCHMARKS.md), and so
  // did SQLite's ON DELETE SET NULL for each conversation forgotten.
  `
  CREATE INDEX conversations_parent ON conversations(parent_id);
  `,
  // 10: OpenCode's message files keep their message's id and time as their reader's state, so a scan
  // orders the part folders without reading every message file (ingest/adapters/opencode-order.ts).
  // The message files indexed before kept none: they are read once more (their stamp no longer matches).
  `
  UPDATE source_files SET size = -1
   WHERE kind = 'opencode' AND parser_state = 'null' AND path LIKE '%/storage/message/%.json';
  `,
  // 11: the counts status and `stats` show, kept current by triggers as rows change (stats.ts reads
  // them). Counted by scanning conversations and source_files they took 70-170 ms at 10k, again after
  // every write (an append, each file a re-scan commits), on the daemon's event loop: another
  // client's status waited for them. A row a name: conversations:<source> and subagents:<source>
  // (rows), entries:<source> (their entry_count, sub-agents' included), files:<status>, file_rows
  // (source_files rows inserted or deleted, ever: what a folder's file count is counted again on),
  // errors (ingest_errors rows) and last_indexed_at (the latest indexed_at written).
  `
  CREATE TABLE index_counts (name TEXT PRIMARY KEY, value INTEGER NOT NULL) WITHOUT ROWID;
  INSERT INTO index_counts (name, value)
    SELECT iif(is_subagent <> 0, 'subagents:', 'conversations:') || source, count(*) FROM conversations GROUP BY 1
    UNION ALL SELECT 'entries:' || source, sum(entry_count) FROM conversations GROUP BY 1
    UNION ALL SELECT 'files:' || status, count(*) FROM source_files GROUP BY 1
    UNION ALL SELECT 'file_rows', count(*) FROM source_files
    UNION ALL SELECT 'errors', count(*) FROM ingest_errors
    UNION ALL SELECT 'last_indexed_at', m FROM (SELECT max(indexed_at) AS m FROM source_files) WHERE m IS NOT NULL;

  CREATE TRIGGER conversations_counted_insert AFTER INSERT ON conversations BEGIN
    INSERT INTO index_counts (name, value)
      VALUES (iif(new.is_subagent <> 0, 'subagents:', 'conversations:') || new.source, 1), ('entries:' || new.source, new.entry_count)
      ON CONFLICT (name) DO UPDATE SET value = value + excluded.value;
  END;
  CREATE TRIGGER conversations_counted_delete AFTER DELETE ON conversations BEGIN
    INSERT INTO index_counts (name, value)
      VALUES (iif(old.is_subagent <> 0, 'subagents:', 'conversations:') || old.source, -1), ('entries:' || old.source, -old.entry_count)
      ON CONFLICT (name) DO UPDATE SET value = value + excluded.value;
  END;
  CREATE TRIGGER conversations_counted_update AFTER UPDATE OF source, is_subagent, entry_count ON conversations
  WHEN old.source IS NOT new.source OR old.is_subagent IS NOT new.is_subagent OR old.entry_count IS NOT new.entry_count BEGIN
    INSERT INTO index_counts (name, value)
      VALUES (iif(old.is_subagent <> 0, 'subagents:', 'conversations:') || old.source, -1), ('entries:' || old.source, -old.entry_count),
             (iif(new.is_subagent <> 0, 'subagents:', 'conversations:') || new.source, 1), ('entries:' || new.source, new.entry_count)
      ON CONFLICT (name) DO UPDATE SET value = value + excluded.value;
  END;

  CREATE TRIGGER source_files_counted_insert AFTER INSERT ON source_files BEGIN
    INSERT INTO index_counts (name, value) VALUES ('files:' || new.status, 1), ('file_rows', 1)
      ON CONFLICT (name) DO UPDATE SET value = value + excluded.value;
  END;
  CREATE TRIGGER source_files_counted_delete AFTER DELETE ON source_files BEGIN
    INSERT INTO index_counts (name, value) VALUES ('files:' || old.status, -1), ('file_rows', 1)
      ON CONFLICT (name) DO UPDATE SET value = value + excluded.value;
  END;
  CREATE TRIGGER source_files_counted_status AFTER UPDATE OF status ON source_files WHEN old.status IS NOT new.status BEGIN
    INSERT INTO index_counts (name, value) VALUES ('files:' || old.status, -1), ('files:' || new.status, 1)
      ON CONFLICT (name) DO UPDATE SET value = value + excluded.value;
  END;
  CREATE TRIGGER source_files_indexed_at AFTER UPDATE OF indexed_at ON source_files WHEN new.indexed_at IS NOT NULL BEGIN
    INSERT INTO index_counts (name, value) VALUES ('last_indexed_at', new.indexed_at)
      ON CONFLICT (name) DO UPDATE SET value = max(value, excluded.value);
  END;
  CREATE TRIGGER source_files_indexed_at_insert AFTER INSERT ON source_files WHEN new.indexed_at IS NOT NULL BEGIN
    INSERT INTO index_counts (name, value) VALUES ('last_indexed_at', new.indexed_at)
      ON CONFLICT (name) DO UPDATE SET value = max(value, excluded.value);
  END;

  CREATE TRIGGER ingest_errors_counted_insert AFTER INSERT ON ingest_errors BEGIN
    INSERT INTO index_counts (name, value) VALUES ('errors', 1) ON CONFLICT (name) DO UPDATE SET value = value + 1;
  END;
  CREATE TRIGGER ingest_errors_counted_delete AFTER DELETE ON ingest_errors BEGIN
    INSERT INTO index_counts (name, value) VALUES ('errors', -1) ON CONFLICT (name) DO UPDATE SET value = value - 1;
  END;
  `,
];
