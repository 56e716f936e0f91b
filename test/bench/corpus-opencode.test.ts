// The benchmark corpus's OpenCode conversations (one JSON file per session, message and part) read
// back by the real OpenCode adapter through the real indexer, and the harness's OpenCode helpers
// (a new turn as new files, a conversation's files for the baselines) on the same files.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openConversation, sessionPath, type ConversationSpec } from '../../bench/corpus-formats.js';
import { corpusSources, generateCorpus } from '../../bench/corpus.js';
import { appendUserTurn } from '../../bench/lib-append.js';
import { conversationFiles, listSessionFiles } from '../../bench/lib-baselines.js';
import { createRng } from '../../bench/lib-prng.js';
import { createIndexer } from '../../src/main/ingest/scan.js';
import { ADAPTERS } from '../../src/main/ingest/sources.js';
import { openDb } from '../../src/main/store/db.js';
import { agentIndex } from '../helpers/agent-index.js';
import { useTmp } from '../helpers/tmp.js';

const tmp = useTmp('tl-bench-opencode-');
const kinds = (es: { kind: string; role: string }[]) => es.map((e) => `${e.kind}/${e.role}`);

describe('bench corpus: OpenCode storage', () => {
  it('one written conversation is read by the OpenCode adapter: title, workspace, times, turns, tools, compaction', () => {
    const t = agentIndex(tmp(), 'opencode');
    const start = new Date('2025-06-02T10:00:00Z');
    const spec: ConversationSpec = { agent: 'opencode', root: t.home, workspace: '/work/ledger', start, sessionId: 'aa11bb22-cc33-4d44-8e55-ff6677889900', rng: createRng(7) };
    const w = openConversation(spec);
    w.user('Why does zorblatQueue drop the last batch?');
    w.assistant(null, [
      { name: 'grep', args: { pattern: 'zorblatQueue', path: 'src' }, output: 'src/queue.ts:12: export class zorblatQueue', error: false },
      { name: 'bash', args: { command: 'npm test' }, output: '1 failing: flushes the tail', error: true },
    ], 'The flush loop probably stops one short.');
    w.assistant('The flush loop stopped before the tail; fixed with an inclusive bound.', [], null);
    w.compaction('## Goal\nFix the tail batch of zorblatQueue.');
    w.user('Now add a test for the empty queue.');
    w.title('zorblatQueue tail batch');
    const bytes = w.close();

    // The session file is where sessionPath says (the probe's path), named by the id the adapter gives it.
    expect(w.file).toBe(sessionPath(spec));
    expect(w.id).toMatch(/^ses_[0-9a-f]{12}[0-9A-Za-z]{14}$/);
    const files = conversationFiles(w.file);
    expect(files.reduce((a, f) => a + fs.statSync(f).size, 0)).toBe(bytes);
    expect(files.filter((f) => f.includes(`${path.sep}part${path.sep}`)).length).toBeGreaterThan(8);

    const stats = t.scan();
    expect(stats.errors).toEqual([]);
    expect(stats.parsedFiles).toBe(files.length);
    const c = t.conversation(w.id!);
    expect(c).toMatchObject({ title: 'zorblatQueue tail batch', workspace: '/work/ledger', created_at: start.getTime() });
    expect(c.updated_at).toBeGreaterThan(start.getTime());
    expect(kinds(t.entries(w.id!))).toEqual([
      'message/user',
      'thinking/assistant', 'tool_call/tool', 'tool_result/tool', 'tool_call/tool', 'tool_result/tool',
      'message/assistant',
      'compaction/system', 'compaction/system',
      'message/user',
    ]);
    const es = t.entries(w.id!);
    expect(es.filter((e) => e.kind === 'tool_result').map((e) => e.tool_status)).toEqual(['ok', 'error']);
    expect(es.map((e) => e.ts)).toEqual([...es.map((e) => e.ts)].sort((a, b) => a! - b!));
    expect(t.search('zorblatQueue')).toBeGreaterThan(0);

    // A new turn is two new files; the adapter adds it on the next scan, and restore takes them away.
    const turn = appendUserTurn('opencode', w.file, 'Remember qwixlerToken for later.', new Date('2026-01-01T00:00:00Z'));
    expect(t.scan().parsedFiles).toBe(2);
    expect(t.entries(w.id!).at(-1)).toMatchObject({ kind: 'message', role: 'user', text: 'Remember qwixlerToken for later.' });
    turn.restore();
    expect(conversationFiles(w.file)).toEqual(files);
    t.close();
  });

  it('a generated corpus: every OpenCode conversation indexed from the layout the harness lists, each probe found by its first identifier', () => {
    const dir = tmp();
    const m = generateCorpus({ conversations: 160, out: path.join(dir, 'corpus'), probes: 160 });
    expect(m.agents.opencode).toBeGreaterThan(3);
    const sources = corpusSources(path.join(dir, 'corpus'));
    const files = listSessionFiles(sources.map((s) => s.root));
    const db = openDb(path.join(dir, 'index.sqlite'));
    try {
      const stats = createIndexer(db, ADAPTERS).scan(sources);
      expect(stats.errors).toEqual([]);
      // The harness's file list is what the indexer reads: the same files, the same bytes.
      expect(stats.files).toBe(files.length);
      expect(stats.bytes).toBe(files.reduce((a, f) => a + fs.statSync(f).size, 0));
      expect(m.bytes).toBe(stats.bytes);
      const perSource = db.prepare('SELECT source, count(*) AS n FROM conversations GROUP BY source').all() as { source: string; n: number }[];
      expect(Object.fromEntries(perSource.map((r) => [r.source, r.n]))).toEqual(Object.fromEntries(Object.entries(m.agents).filter(([, n]) => n > 0)));
      const probes = m.probes.filter((p) => p.agent === 'opencode');
      expect(probes.length).toBe(m.agents.opencode);
      for (const p of probes) {
        const found = db
          .prepare(`SELECT c.session_id FROM entries_fts f JOIN entries e ON e.id = f.rowid JOIN conversations c ON c.id = e.conversation_id
                    WHERE entries_fts MATCH ? AND c.source = 'opencode'`)
          .pluck()
          .all(`"${p.idents[0]}"`);
        expect(found, p.idents[0]).toContain(p.sessionId);
      }
    } finally {
      db.close();
    }
  }, 120_000);
});
