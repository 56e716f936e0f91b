// Privacy through the other ways in (issue 7 §6; test/privacy.test.ts covers the session files and
// `forget`): entries pushed over the socket (ingest.append) and handoffs honour exclusions and
// private spans, the activity log does not keep a private span an agent sent, and nothing in the
// core can open a connection off the machine.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../../src/main/api/core.js';
import { connectRpc } from '../../src/main/client/socket-client.js';
import { startSocketServer, type SocketServer } from '../../src/main/server/socket.js';
import { ROOT } from './bundle.js';

const EXCLUDED = '/work/secret-project';
let dir: string;
let core: Core;
let server: SocketServer;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tl-privacy-'));
  fs.writeFileSync(path.join(dir, 'settings.json'), JSON.stringify({ exclusions: [EXCLUDED] }));
  core = createCore({ dbPath: path.join(dir, 'index.sqlite'), settingsPath: path.join(dir, 'settings.json'), sources: [] });
  server = await startSocketServer({ socketPath: path.join(dir, 'agent.sock'), api: core.api, activity: core.activity() });
});
afterAll(async () => {
  await server?.close();
  core?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const count = (sql: string) => core.db.prepare(sql).pluck().get() as number;
const dbText = () => (core.db.prepare("SELECT group_concat(text, ' ') FROM entries").pluck().get() as string | null) ?? '';

describe('ingest.append and handoffs', () => {
  it('keeps nothing pushed into an excluded workspace', async () => {
    const before = count('SELECT count(*) FROM entries');
    await core.api['ingest.append']({
      conversation: { id: 'pushed-secret', workspace: `${EXCLUDED}/sub`, title: 'secret plans' },
      entries: [{ role: 'user', text: 'excludedword the launch date' }],
    });
    expect(count('SELECT count(*) FROM entries')).toBe(before);
    expect(count("SELECT count(*) FROM conversations WHERE key = 'pushed-secret'")).toBe(0);
    expect((await core.api.recall_conversations({ query: 'excludedword', workspace: 'all' })).hits).toEqual([]);
  });

  it('stores no private span of a pushed entry, title or handoff', async () => {
    await core.api['ingest.append']({
      conversation: { id: 'pushed-open', workspace: '/work/open', title: 'deploy <private>title-secret</private>' },
      entries: [{ role: 'user', text: 'deploy with <private>hunter2-entry</private> now' }],
    });
    await core.api.history_handoff({ conversation: 'pushed-open', text: 'next: rotate <private>hunter2-handoff</private>' });
    const all = JSON.stringify(core.db.prepare('SELECT * FROM conversations').all()) + dbText();
    expect(all).not.toMatch(/hunter2|title-secret/);
    expect(all).toContain('[private]');
  });
});

describe('the activity log', () => {
  it('keeps no private span an agent sent in its request', async () => {
    const client = await connectRpc(server.socketPath);
    try {
      await client.call('suggest', { text: 'my password is <private>hunter2-activity</private> please', scope: 'everywhere' });
      await client.call('recall_conversations', { query: 'deploy <private>hunter2-query</private>' });
    } finally {
      client.close();
    }
    // The notes are held a moment and written together (store/activity.ts): written now.
    core.activity().flush();
    const logged = JSON.stringify(core.db.prepare('SELECT * FROM activity').all());
    expect(logged).toContain('suggest');
    expect(logged).not.toMatch(/hunter2/);
  });
});

describe('nothing leaves the machine', () => {
  it('no module of the core, CLI or daemon uses a network client; servers listen on loopback or a Unix socket', () => {
    const files = fs
      .readdirSync(path.join(ROOT, 'src', 'main'), { recursive: true })
      .map(String)
      .filter((f) => f.endsWith('.ts'));
    expect(files.length).toBeGreaterThan(30);
    const offenders: string[] = [];
    for (const f of files) {
      const text = fs.readFileSync(path.join(ROOT, 'src', 'main', f), 'utf8');
      // Clients that reach out: fetch, http(s) requests, raw TCP/TLS/UDP, WebSockets.
      if (/\bfetch\s*\(|\bhttps?\.(request|get)\s*\(|from 'node:(https|tls|dgram)'|new WebSocket\b|\bundici\b|\baxios\b/.test(text)) offenders.push(f);
      // net.connect only to a Unix socket path (the agent socket), never to a host and port.
      for (const m of text.matchAll(/net\.(connect|createConnection)\(([^)]*)\)/g)) if (/port|host|\d+\s*,/.test(m[2]!)) offenders.push(`${f}: ${m[0]}`);
    }
    expect(offenders).toEqual([]);
    expect(fs.readFileSync(path.join(ROOT, 'src/main/server/http.ts'), 'utf8')).toMatch(/options\.host \?\? '127\.0\.0\.1'/);
  });
});
