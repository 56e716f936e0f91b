// OpenCode: its JSON storage files (codemie-code's and agent-sessions' fixtures) and its SQLite database,
// indexed by the real pipeline from ~/.local/share/opencode.
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { opencodeAdapter } from '../../src/main/ingest/adapters/opencode.js';
import { agentIndex } from '../helpers/agent-index.js';
import { FIXTURES, useTmp } from '../helpers/tmp.js';

const tmp = useTmp('tl-opencode-');
const CODEMIE = path.join(FIXTURES, 'opencode/storage');
const V2 = path.join(FIXTURES, 'opencode/agent-sessions-storage-v2');
const STORAGE = '.local/share/opencode/storage';
const kinds = (es: { kind: string; role: string }[]) => es.map((e) => `${e.kind}/${e.role}`);

/** The message files opened from now on, by the real fs.openSync (counted, not replaced). */
function messageOpens(): () => string[] {
  const open = vi.spyOn(fs, 'openSync');
  return () => open.mock.calls.map((c) => String(c[0])).filter((f) => f.includes(`${path.sep}message${path.sep}`));
}
afterEach(() => {
  vi.restoreAllMocks();
});

function copyTree(from: string, to: string): void {
  fs.cpSync(from, to, { recursive: true });
}

describe('opencode adapter: where it keeps sessions', () => {
  it('reads $XDG_DATA_HOME/opencode (storage/ and opencode.db), OPENCODE_DB naming another database', () => {
    expect(opencodeAdapter.defaultRoots({}, '/home/u')).toEqual(['/home/u/.local/share/opencode/storage', '/home/u/.local/share/opencode/opencode.db']);
    expect(opencodeAdapter.defaultRoots({ XDG_DATA_HOME: '/d' }, '/home/u')).toEqual(['/d/opencode/storage', '/d/opencode/opencode.db']);
    expect(opencodeAdapter.defaultRoots({ OPENCODE_DB: 'opencode-dev.db' }, '/home/u')[1]).toBe('/home/u/.local/share/opencode/opencode-dev.db');
    expect(opencodeAdapter.isSessionFile('/h/.local/share/opencode/storage/part/msg_1/prt_1.json')).toBe(true);
    expect(opencodeAdapter.isSessionFile('/h/.local/share/opencode/storage/project/global.json')).toBe(false);
    expect(opencodeAdapter.sessionFileOf?.('/h/.local/share/opencode/opencode.db-wal')).toBe('/h/.local/share/opencode/opencode.db');
  });
});

describe('opencode: the JSON storage files', () => {
  it('a conversation from its session, message and part files: workspace, times, text, tools', () => {
    const t = agentIndex(tmp(), 'opencode');
    copyTree(CODEMIE, path.join(t.home, STORAGE));
    t.scan();
    const c = t.conversation('test-session-1');
    expect(c.workspace).toBe('/test/project');
    expect(c.created_at).toBe(1737979200000);
    const es = t.entries('test-session-1');
    // The prompt before the reply: folders go by their message's time.created (this fixture's ids,
    // msg-assistant-1 and msg-user-1, sort the other way), a message's parts by their ids.
    expect(kinds(es)).toEqual(['message/user', 'tool_call/tool', 'tool_result/tool', 'tool_call/tool', 'tool_result/tool', 'message/assistant']);
    expect(es[0]!.text).toBe('Create a test file with console.log statements');
    expect(es[1]).toMatchObject({ tool_name: 'Read', tool_status: 'ok', text: '{"filePath":"src/existing.ts"}' });
    expect(t.search('console')).toBe(2);
    t.close();
  });

  it('a session OpenCode has not named takes its first prompt as its title; a later prompt does not replace it', () => {
    const t = agentIndex(tmp(), 'opencode');
    const root = path.join(t.home, STORAGE);
    copyTree(CODEMIE, root);
    t.scan();
    expect(t.conversation('test-session-1').title).toBe('Create a test file with console.log statements');
    // A later user turn, as OpenCode writes it: a message file and its text part, ids after the first.
    t.put(`${STORAGE}/message/test-session-1/msg-user-2.json`, JSON.stringify({ id: 'msg-user-2', sessionID: 'test-session-1', role: 'user', time: { created: 1737979900000 } }));
    t.put(`${STORAGE}/part/msg-user-2/part-text-2.json`, JSON.stringify({ id: 'part-text-2', sessionID: 'test-session-1', messageID: 'msg-user-2', type: 'text', text: 'Now delete it again' }));
    expect(t.scan().parsedFiles).toBe(2);
    expect(t.conversation('test-session-1').title).toBe('Create a test file with console.log statements');
    expect(t.entries('test-session-1').at(-1)!.text).toBe('Now delete it again');
    t.close();
  });

  it('a part that changes is read again alone, replacing its entry; a new part is added', () => {
    const t = agentIndex(tmp(), 'opencode');
    const root = path.join(t.home, STORAGE);
    copyTree(V2, root);
    t.scan();
    const before = t.entries('s_stage0_large');
    expect(t.conversation('s_stage0_large').title).toBe('OpenCode Large');
    const file = path.join(root, 'part/m_assistant_large_2/001.json');
    const part = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
    fs.writeFileSync(file, JSON.stringify({ ...part, text: 'Ok, and the second step is done.' }));
    fs.writeFileSync(path.join(root, 'part/m_assistant_large_2/002.json'), JSON.stringify({ ...part, id: 'p_text_large_2b', text: 'One more thing.' }));
    const stats = t.scan();
    expect(stats.parsedFiles).toBe(2);
    const after = t.entries('s_stage0_large');
    expect(after).toHaveLength(before.length + 1);
    expect(after.find((e) => e.source_id === 'p_text_large_2')!.text).toBe('Ok, and the second step is done.');
    t.close();
  });

  it('compaction, synthetic text, reasoning, files and an errored tool; a part without sessionID finds its message', () => {
    const t = agentIndex(tmp(), 'opencode');
    copyTree(V2, path.join(t.home, STORAGE));
    expect(t.scan().skippedLines).toBe(0);
    const es = t.entries('s_stage0_large');
    // Messages in the order of their time.created, though this fixture's ids (m_assistant_…, m_user_…)
    // sort the other way: each prompt, then its reply.
    expect(kinds(es)).toEqual([
      'message/user', 'tool_call/tool', 'tool_result/tool', 'custom/assistant', 'custom/assistant', 'thinking/assistant',
      'compaction/system', 'message/user', 'message/assistant',
    ]);
    expect(es.filter((e) => e.kind === 'message').map((e) => e.text)).toEqual(['Step 1', 'Step 2', 'Ok']);
    expect(es[2]).toMatchObject({ tool_name: 'bash', tool_status: 'ok' });
    expect(es.find((e) => e.kind === 'compaction')!.first_kept_source_id).toBe('p_compaction_large_1');
    expect(t.entries('s_stage0_small').map((e) => e.text)).toContain('Hello');
    t.close();
  });

  it('a sub-agent’s session (parentID, as OpenCode’s task tool writes it) is a child conversation of its parent', () => {
    const t = agentIndex(tmp(), 'opencode');
    const root = path.join(t.home, STORAGE);
    copyTree(V2, root);
    // The small session and its first message again, as the task tool's child of the large one.
    const session = JSON.parse(fs.readFileSync(path.join(V2, 'session/proj_test/ses_s_stage0_small.json'), 'utf8')) as Record<string, unknown>;
    t.put(`${STORAGE}/session/proj_test/ses_s_child.json`, JSON.stringify({ ...session, id: 's_child', parentID: 's_stage0_large', title: 'Find the failing step (@general subagent)' }));
    const message = JSON.parse(fs.readFileSync(path.join(V2, 'message/s_stage0_small/msg_0001.json'), 'utf8')) as Record<string, unknown>;
    t.put(`${STORAGE}/message/s_child/msg_c1.json`, JSON.stringify({ ...message, id: 'm_child_1', sessionID: 's_child' }));
    t.put(`${STORAGE}/part/m_child_1/001.json`, JSON.stringify({ id: 'p_child_1', sessionID: 's_child', messageID: 'm_child_1', type: 'text', text: 'Find which step fails' }));
    t.scan();
    const child = t.conversation('s_child');
    expect(child).toMatchObject({ is_subagent: 1, parent_key: 's_stage0_large', parent_id: t.conversation('s_stage0_large').id, title: 'Find the failing step (@general subagent)' });
    expect(t.entries('s_child').map((e) => e.text)).toEqual(['Find which step fails']);
    expect(t.conversation('s_stage0_large').is_subagent).toBe(0);
    t.close();
  });

  it('messages of the same time go by id; a message without a time goes after those with one', () => {
    const t = agentIndex(tmp(), 'opencode');
    t.put(`${STORAGE}/session/p/s1.json`, JSON.stringify({ id: 's1', title: 'Order', time: { created: 1000 } }));
    const message = (id: string, time?: number) =>
      t.put(`${STORAGE}/message/s1/${id}.json`, JSON.stringify({ id, sessionID: 's1', role: 'user', ...(time === undefined ? {} : { time: { created: time } }) }));
    const part = (id: string) => t.put(`${STORAGE}/part/${id}/p.json`, JSON.stringify({ id: `p_${id}`, sessionID: 's1', messageID: id, type: 'text', text: id }));
    message('m_c', 2000);
    message('m_a');
    message('m_b', 2000);
    message('m_d', 1500);
    for (const id of ['m_a', 'm_b', 'm_c', 'm_d']) part(id);
    t.scan();
    expect(t.entries('s1').map((e) => e.text)).toEqual(['m_d', 'm_b', 'm_c', 'm_a']);
    t.close();
  });

  it('a re-scan of an unchanged storage reads no message file: their times are kept in the index', () => {
    const t = agentIndex(tmp(), 'opencode');
    copyTree(V2, path.join(t.home, STORAGE));
    const cold = messageOpens();
    t.scan();
    expect(cold().length).toBeGreaterThan(0);
    vi.restoreAllMocks();
    const again = messageOpens();
    expect(t.scan().parsedFiles).toBe(0);
    expect(again()).toEqual([]);
    t.close();
  });

  it('new messages go by their time after those indexed before, whose files are not read again', () => {
    const t = agentIndex(tmp(), 'opencode');
    t.put(`${STORAGE}/session/p/s1.json`, JSON.stringify({ id: 's1', title: 'Order', time: { created: 1000 } }));
    const message = (id: string, time: number) =>
      t.put(`${STORAGE}/message/s1/${id}.json`, JSON.stringify({ id, sessionID: 's1', role: 'user', time: { created: time } }));
    const part = (id: string) => t.put(`${STORAGE}/part/${id}/p.json`, JSON.stringify({ id: `p_${id}`, sessionID: 's1', messageID: id, type: 'text', text: id }));
    message('m_b', 2000);
    message('m_d', 1500);
    part('m_b');
    part('m_d');
    t.scan();
    // Two later messages whose ids sort against their times, written before the next scan.
    message('m_a', 3000);
    message('m_z', 2500);
    part('m_a');
    part('m_z');
    const opened = messageOpens();
    t.scan();
    expect(t.entries('s1').map((e) => e.text)).toEqual(['m_d', 'm_b', 'm_z', 'm_a']);
    const read = opened().map((f) => path.basename(f));
    expect(read).toContain('m_z.json');
    expect(read).not.toContain('m_b.json');
    expect(read).not.toContain('m_d.json');
    t.close();
  });

  it('an index from before the kept times reads each message file once more, then no more', () => {
    const dir = tmp();
    const t = agentIndex(dir, 'opencode');
    copyTree(V2, path.join(t.home, STORAGE));
    t.scan();
    const messageFiles = t.db.prepare("SELECT count(*) FROM source_files WHERE path LIKE '%/storage/message/%'").pluck().get() as number;
    // As the index stood at schema 9: message files indexed with no state, and none of migration 11's
    // kept counts (its table and the triggers filling it; opening the index makes them again).
    t.db.prepare("UPDATE source_files SET parser_state = 'null' WHERE path LIKE '%/storage/message/%'").run();
    for (const name of t.db.prepare("SELECT name FROM sqlite_master WHERE type = 'trigger' AND sql LIKE '%index_counts%'").pluck().all()) {
      t.db.exec(`DROP TRIGGER "${String(name)}"`);
    }
    t.db.exec('DROP TABLE index_counts');
    t.db.pragma('user_version = 9');
    t.close();
    const u = agentIndex(dir, 'opencode');
    expect(u.scan().parsedFiles).toBe(messageFiles);
    const again = messageOpens();
    expect(u.scan().parsedFiles).toBe(0);
    expect(again()).toEqual([]);
    u.close();
  });

  it('a damaged part file is recorded and skipped; the rest of the session is indexed', () => {
    const t = agentIndex(tmp(), 'opencode');
    const root = path.join(t.home, STORAGE);
    copyTree(V2, root);
    const bad = path.join(root, 'part/m_user_large_2/001.json');
    fs.writeFileSync(bad, '{"id":"p_user_large_2","type":"te');
    t.scan();
    expect(t.errors()).toEqual([{ path: bad, line: 1, reason: expect.stringContaining('opencode: not valid JSON') }]);
    expect(t.entries('s_stage0_large').some((e) => e.text === 'Step 1')).toBe(true);
    t.close();
  });
});

/**
 * An opencode.db with the columns of OpenCode's session, message and part tables, filled from the storage
 * files the way OpenCode's own json-migration moves them (each object's JSON, less its ids, in `data`). Ids
 * are the objects' own where the fixture's file names differ from them.
 */
function databaseFrom(storage: string, file: string): Database.Database {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.exec(`CREATE TABLE session (id TEXT PRIMARY KEY, project_id TEXT, parent_id TEXT, slug TEXT, directory TEXT, title TEXT, version TEXT,
             time_created INTEGER, time_updated INTEGER, time_compacting INTEGER, time_archived INTEGER);
           CREATE TABLE message (id TEXT PRIMARY KEY, session_id TEXT, time_created INTEGER, time_updated INTEGER, data TEXT);
           CREATE TABLE part (id TEXT PRIMARY KEY, message_id TEXT, session_id TEXT, time_created INTEGER, time_updated INTEGER, data TEXT);`);
  const read = (f: string) => JSON.parse(fs.readFileSync(f, 'utf8')) as Record<string, any>;
  const walk = (dir: string): string[] => fs.readdirSync(dir, { withFileTypes: true }).flatMap((d) => (d.isDirectory() ? walk(path.join(dir, d.name)) : [path.join(dir, d.name)]));
  const now = 1730000500000;
  for (const f of walk(path.join(storage, 'session'))) {
    const s = read(f);
    db.prepare('INSERT INTO session VALUES (?,?,?,?,?,?,?,?,?,NULL,NULL)').run(s.id ?? path.basename(f, '.json'), path.basename(path.dirname(f)), s.parentID ?? null, s.slug ?? '', s.directory ?? '', s.title ?? '', s.version ?? '', s.time?.created ?? now, s.time?.updated ?? now);
  }
  const sessionOf = new Map<string, string>();
  for (const f of walk(path.join(storage, 'message'))) {
    const { id: ownId, sessionID: _s, ...rest } = read(f);
    const id = (ownId as string | undefined) ?? path.basename(f, '.json');
    sessionOf.set(id, path.basename(path.dirname(f)));
    db.prepare('INSERT INTO message VALUES (?,?,?,?,?)').run(id, path.basename(path.dirname(f)), rest.time?.created ?? now, rest.time?.updated ?? now, JSON.stringify(rest));
  }
  for (const f of walk(path.join(storage, 'part'))) {
    const { id, messageID, sessionID: _s, ...rest } = read(f);
    const message = (messageID as string | undefined) ?? path.basename(path.dirname(f));
    db.prepare('INSERT INTO part VALUES (?,?,?,?,?,?)').run(id ?? path.basename(f, '.json'), message, sessionOf.get(message), rest.time?.start ?? now, rest.time?.end ?? rest.time?.start ?? now, JSON.stringify(rest));
  }
  return db;
}

describe('opencode: the SQLite database', () => {
  it('indexes sessions and parts read-only, then only the rows updated since, as OpenCode writes more', () => {
    const t = agentIndex(tmp(), 'opencode');
    const file = path.join(t.home, '.local/share/opencode/opencode.db');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const writer = databaseFrom(V2, file);
    t.scan();
    expect(t.conversation('s_stage0_large')).toMatchObject({ title: 'OpenCode Large', workspace: '/tmp/large' });
    const first = t.entries('s_stage0_large');
    expect(kinds(first)).toContain('compaction/system');
    expect(t.scan().parsedFiles).toBe(0); // nothing written: not read
    // OpenCode writes a new part (into the -wal file: the database file itself does not change).
    const dbSize = fs.statSync(file).size;
    writer.prepare('INSERT INTO part VALUES (?,?,?,?,?,?)').run('p_new', 'm_assistant_large_2', 's_stage0_large', 1730000600000, 1730000600000, JSON.stringify({ type: 'text', text: 'A reply written later.' }));
    expect(fs.statSync(file).size).toBe(dbSize);
    expect(t.scan().parsedFiles).toBe(1);
    const after = t.entries('s_stage0_large');
    expect(after).toHaveLength(first.length + 1);
    expect(after.at(-1)!.text).toBe('A reply written later.');
    expect(t.search('later')).toBe(1);
    writer.close();
    t.close();
  });
});
