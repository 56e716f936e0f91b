// Issue 11 §14: what a workspace-limited token gets from `suggest` (salientTerms, scores, the reason,
// the block) and from recall_conversations is computed inside its bounds. Whether a word occurs in
// another workspace changes nothing it is given: two indexes that differ only in that word give it
// identical answers; and its salient terms, reasons and suggestions are those of an index holding its
// workspace alone.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCore } from '../../src/main/api/core.js';
import { connectRpc, type RpcClient } from '../../src/main/client/socket-client.js';
import { startDaemon, type Daemon } from '../../src/main/daemon/daemon.js';
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
  ['beta-rounding', 'Rounding of the kestrelwharf invoices: rounding rules, rounding errors, and the schema.'],
];
/**
 * The same workspace B without the secret word and without "rounding" (a word A uses too, so its
 * weight over the whole index would differ), each replaced by a word of one token: same volume.
 */
const B_WITHOUT = B_CONVERSATIONS.map(([id, text]) => [id!, text!.replace(/kestrelwharf/gi, 'harbourtown').replace(/rounding/gi, 'seagulls')]);

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

const TOKENS = { tokens: [{ name: 'alpha', token: TOKEN, workspaces: [WS_A] }] };
let full: Side;
let without: Side;
let onlyA: Side;
let limited: RpcClient;
let limitedWithout: RpcClient;
let alone: RpcClient;

beforeAll(async () => {
  full = await side([...A_CONVERSATIONS, ...B_CONVERSATIONS], TOKENS);
  without = await side([...A_CONVERSATIONS, ...B_WITHOUT], TOKENS);
  onlyA = await side(A_CONVERSATIONS, {});
  limited = await connectRpc(full.daemon.socketPath, { token: TOKEN });
  limitedWithout = await connectRpc(without.daemon.socketPath, { token: TOKEN });
  alone = await connectRpc(onlyA.daemon.socketPath);
});
afterAll(async () => {
  limited?.close();
  limitedWithout?.close();
  alone?.close();
  for (const s of [full, without, onlyA]) {
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
  it.each(['default', 'signals', 'salient'] as const)('gets from suggest (%s) the same answer whether or not B holds the word', async (strategy) => {
    for (const text of MESSAGES) {
      const got = await limited.call('suggest', { text, strategy, now: NOW, sensitivity: 'broad' });
      const other = await limitedWithout.call('suggest', { text, strategy, now: NOW, sensitivity: 'broad' });
      expect(same(got, full), `${strategy}: ${text}`).toEqual(same(other, without));
      expect(got.salientTerms ?? []).not.toContain('kestrelwharf');
      // What an index of A alone holds: the same terms, the same reason, the same conversations.
      const expected = await alone.call('suggest', { text, strategy, now: NOW, sensitivity: 'broad', workspace: WS_A, scope: 'workspace' });
      expect({ terms: got.salientTerms, reason: got.reason, ids: got.suggestions.map((x) => x.id) }, `${strategy}: ${text}`).toEqual({
        terms: expected.salientTerms,
        reason: expected.reason,
        ids: expected.suggestions.map((x) => x.id),
      });
    }
  });

  it('gets from recall_conversations the same answer whether or not B holds the word', async () => {
    for (const query of MESSAGES) {
      const got = await limited.call('recall_conversations', { query, now: NOW });
      expect(same(got, full), query).toEqual(same(await limitedWithout.call('recall_conversations', { query, now: NOW }), without));
      const expected = await alone.call('recall_conversations', { query, now: NOW, workspace: WS_A });
      expect(got.hits.map((h) => h.id), query).toEqual(expected.hits.map((h) => h.id));
    }
  });

  it('while the local user on the same index does see the word as salient (the test can fail)', async () => {
    const me = await connectRpc(full.daemon.socketPath);
    const r = await me.call('suggest', { text: 'kestrelwharf payout ledger', now: NOW, sensitivity: 'broad', workspace: WS_A, scope: 'workspace' });
    me.close();
    expect(r.salientTerms).toContain('kestrelwharf');
  });
});
