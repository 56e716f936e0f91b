// Recall quality on messages as people send them: every query of a labeled history (../shared/eval)
// sent again with a pasted log line, a stack trace, a greeting or a second request added, and scored
// like run-eval.mjs: the default strategy's precision / hit / "new work" left clean, and search's
// recall@10 / MRR.
//
//   node bin/run-ts.mjs bench/message-forms.ts --corpus ../shared/eval/dev2/conversations.json [--keep DIR]
//
// The corpus is rendered into real session files by the eval's own render-corpus.mjs and indexed by
// this checkout's CLI under that HOME, as run-eval.mjs does; with --keep DIR an index already there is reused.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDb } from '../src/main/store/db.js';
import { createRecall } from '../src/main/recall/index.js';

interface Query { id: string; kind: string; text: string; workspace: string; relevant: Record<string, number> }

const FORMS: Record<string, (t: string) => string> = {
  'as written': (t) => t,
  'a log line': (t) => `${t}\n\n2026-11-29T10:22:01.123Z ERROR worker-7 req_id=3f2a9c1e-8b7d-4e2a-9f1c-0a1b2c3d4e5f pid=48213 at 0x7ffd5e8c (/srv/app/dist/main.js:1182:33)`,
  'a stack trace': (t) => `${t}\n\n    at Object.<anonymous> (/home/u/x/node_modules/undici/lib/core/request.js:241:17)\n    at processTicksAndRejections (node:internal/process/task_queues:95:5)\n    at async Promise.all (index 3)`,
  '"hi! quick question: …"': (t) => `hi! quick question: ${t}`,
  '"good morning :) btw, … sorry if this is obvious"': (t) => `good morning :) btw, ${t} sorry if this is obvious`,
  '"hey, morning! quick one before standup: … thanks"': (t) => `hey, morning! quick one before standup: ${t} thanks`,
  'a second request after it': (t) => `${t} Also, separately, can you bump the eslint config to the flat format while you're in there?`,
};

const args = process.argv.slice(2);
const opt = (name: string): string | undefined => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
const corpusFile = opt('--corpus');
if (!corpusFile) throw new Error('usage: bench/message-forms.ts --corpus FILE [--keep DIR]');
const corpus = JSON.parse(fs.readFileSync(corpusFile, 'utf8')) as { now: string; queries: Query[] };
const home = opt('--keep') ?? fs.mkdtempSync(path.join(os.tmpdir(), 'tl-forms-'));
const dbFile = path.join(home, 'index.sqlite');
if (!fs.existsSync(path.join(home, 'manifest.json'))) {
  execFileSync(process.execPath, [path.join(path.dirname(corpusFile), '..', 'render-corpus.mjs'), corpusFile, home, '--background', '500'], { stdio: 'inherit' });
}
if (!fs.existsSync(dbFile)) {
  const env: NodeJS.ProcessEnv = { ...process.env, HOME: home, XDG_DATA_HOME: path.join(home, '.local/share'), XDG_CONFIG_HOME: path.join(home, '.config') };
  for (const v of ['PI_CODING_AGENT_DIR', 'CODEX_HOME', 'CLAUDE_CONFIG_DIR']) delete env[v];
  execFileSync(process.execPath, ['bin/throughline.mjs', 'index', '--db', dbFile, '--json'], { env, stdio: ['ignore', 'ignore', 'inherit'] });
}
const manifest = JSON.parse(fs.readFileSync(path.join(home, 'manifest.json'), 'utf8')) as Record<string, { sessionId: string }>;
const label = new Map(Object.entries(manifest).map(([id, m]) => [m.sessionId, id]));
const db = openDb(dbFile, { readonly: true });
const recall = createRecall(db);
console.log(`| ${path.basename(path.dirname(corpusFile))}: added to every query | precision | hit | none left clean | search recall@10 | MRR |\n|---|---|---|---|---|---|`);
for (const [form, shape] of Object.entries(FORMS)) {
  let injected = 0, useful = 0, wanted = 0, found = 0, none = 0, clean = 0, inTop = 0, rr = 0;
  for (const q of corpus.queries) {
    const r = recall.suggest({ text: shape(q.text), workspace: q.workspace, now: corpus.now, scope: 'everywhere' });
    const got = r.suggestions.map((s) => label.get(s.sessionId));
    injected += got.length;
    useful += got.filter((id) => id && (q.relevant[id] ?? 0) >= 1).length;
    const must = Object.keys(q.relevant).filter((id) => q.relevant[id] === 2);
    if (q.kind === 'none') { none++; if (!got.length) clean++; }
    if (!must.length) continue;
    wanted++;
    if (must.some((id) => got.includes(id))) found++;
    const hits = recall.recall({ query: shape(q.text), limit: 10 }).hits.map((h) => label.get(h.sessionId));
    const rank = hits.findIndex((id) => id && must.includes(id));
    if (rank >= 0) { inTop++; rr += 1 / (rank + 1); }
  }
  const f = (a: number, b: number) => (b ? a / b : 0).toFixed(2);
  console.log(`| ${form} | ${f(useful, injected)} | ${f(found, wanted)} | ${f(clean, none)} | ${f(inTop, wanted)} | ${f(rr, wanted)} |`);
}
db.close();
