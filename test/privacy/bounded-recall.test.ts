// Issue 11 §14: what a workspace-limited token gets from `suggest` (salientTerms, scores, the reason,
// the block) and from recall_conversations is computed inside its bounds: exactly what the same call
// returns on an index that holds only its workspace. Words that occur only elsewhere leave no trace.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCore } from '../../src/main/api/core.js';
import { connectRpc, type RpcClient } from '../../src/main/server/client-rpc.js';
import { startDaemon, type Daemon } from '../../src/main/server/daemon.js';
import { tempDir } from '../server/helpers.js';

const WS_A = '/work/alpha';
const WS_B = '/work/beta';
const TOKEN = 'alpha-only-token-0123456789';
const NOW = '2026-06-01T00:00:00Z';

const A_CONVERSATIONS = [
  ['ledger-import', 'Import the ledger CSV and reconcile the payout totals with the bank export.'],
  ['payout-retry', 'The payout job retries twice; make the backoff exponential and log the ledger id.'],
  ['schema-notes', 'Notes on the invoices schema: currency column, rounding, and the ledger foreign key.'],
];
const B_CONVERSATIONS = [
  ['beta-secret', 'Kestrelwharf acquisition: the payout ledger of kestrelwharf must stay confidential.'],
  ['beta-more', 'Kestrelwharf board pack, payout schedule and the ledger reconciliation for kestrelwharf.'],
];

interface Side {
  dir: string;
  daemon: Daemon;
}

async function side(convs: string[][], settings: object): Promise<Side> {
  const dir = tempDir('tl-bounded-');
  const settingsPath = path.join(dir, 'settings.json');
  fs.writeFileSync(settingsPath, JSON.stringify(settings));
  const dbPath = path.join(dir, 'index.sqlite');
  // Import files, indexed in this order, so both indexes give A's conversations the same ids.
  const imports = path.join(dir, 'import');
  fs.mkdirSync(imports);
  convs.forEach(([id, text], i) => {
    const workspace = id!.startsWith('beta') ? WS_B : WS_A;
    const lines = [
      { type: 'conversation', id, workspace, title: id },
      { type: 'message', role: 'user', text, ts: '2026-05-20T10:00:00Z' },
      { type: 'message', role: 'assistant', text: `Done: ${text}`, ts: '2026-05-20T10:01:00Z' },
    ];
    fs.writeFileSync(path.join(imports, `${i}-${id}.jsonl`), lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
  });
  const core = createCore({ dbPath, settingsPath, sources: [{ kind: 'jsonl', root: imports }] });
  await core.scan();
  core.close();
  return { dir, daemon: await startDaemon({ dbPath, settingsPath, socketPath: path.join(dir, 'agent.sock'), log: false, watch: false }) };
}

let full: Side;
let onlyA: Side;
let limited: RpcClient;
let alone: RpcClient;

beforeAll(async () => {
  full = await side([...A_CONVERSATIONS, ...B_CONVERSATIONS], { tokens: [{ name: 'alpha', token: TOKEN, workspaces: [WS_A] }] });
  onlyA = await side(A_CONVERSATIONS, {});
  limited = await connectRpc(full.daemon.socketPath, { token: TOKEN });
  alone = await connectRpc(onlyA.daemon.socketPath);
});
afterAll(async () => {
  limited?.close();
  alone?.close();
  for (const s of [full, onlyA]) {
    await s?.daemon.close();
    if (s) fs.rmSync(s.dir, { recursive: true, force: true });
  }
});

/** The answer with its index's folder taken out of the file paths it names. */
const same = (answer: unknown, s: Side) => JSON.parse(JSON.stringify(answer).replaceAll(s.dir, 'DIR')) as unknown;

const MESSAGES = [
  'kestrelwharf payout ledger',
  'reconcile the kestrelwharf ledger',
  'payout ledger backoff',
  'kestrelwharf',
  'the invoices schema rounding',
];

describe('a token limited to workspace A', () => {
  it.each(['default', 'signals', 'salient'] as const)('gets from suggest (%s) exactly what an index of A alone gives', async (strategy) => {
    for (const text of MESSAGES) {
      const got = await limited.call('suggest', { text, strategy, now: NOW, sensitivity: 'broad' });
      const expected = await alone.call('suggest', { text, strategy, now: NOW, sensitivity: 'broad', workspace: WS_A, scope: 'workspace' });
      expect(same(got, full), `${strategy}: ${text}`).toEqual(same(expected, onlyA));
      expect(JSON.stringify(got)).not.toContain('kestrelwharf"');
      expect(got.salientTerms ?? []).not.toContain('kestrelwharf');
    }
  });

  it('gets from recall_conversations exactly what an index of A alone gives', async () => {
    for (const query of MESSAGES) {
      const got = await limited.call('recall_conversations', { query, now: NOW });
      const expected = await alone.call('recall_conversations', { query, now: NOW, workspace: WS_A });
      expect(same(got, full), query).toEqual(same(expected, onlyA));
    }
  });

  it('while the local user on the same index does see the word as salient (the test can fail)', async () => {
    const me = await connectRpc(full.daemon.socketPath);
    const r = await me.call('suggest', { text: 'kestrelwharf payout ledger', now: NOW, sensitivity: 'broad', workspace: WS_A, scope: 'workspace' });
    me.close();
    expect(r.salientTerms).toContain('kestrelwharf');
  });
});
