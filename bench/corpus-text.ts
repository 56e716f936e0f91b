// What the benchmark corpus says: common English and programming words (Zipf-distributed, so the
// index sees realistic document frequencies), per-workspace project terms (medium frequency), per-
// conversation rare identifiers (the terms recall must find), and long machine output (tool results).
import { createRng, type Rng } from './lib-prng.js';

const COMMON = `the a to and of is in it that for this we you on with be not but can as are if so do have
what was at by from or use now one all will there it's should just then when new also need make like
file test tests function code error build run change fix update add remove check value type return data
config module import export class method call server client request response user session token cache
query index list item string number array object map set key path folder command option flag output
input result results log logs debug warning issue bug problem case step first last next before after
again still works working failed fails passing green red time timeout retry async await promise event
handler route middleware database table column row schema migration field record model state store
hook component render prop props page layout style button form modal dialog menu header footer link
image icon theme width height color font margin padding border version package dependency dependencies
lint format type types interface generic null undefined empty default optional required string parse
serialize stream buffer chunk byte bytes line lines read write open close save load delete create
update merge branch commit push pull rebase diff patch review approve release deploy staging production
environment variable secret port host url endpoint api http json yaml toml csv header body status code
exit signal process thread worker job queue task schedule cron lock mutex channel socket connection
pool limit offset page size sort filter search match count total min max average sum memory cpu disk
network latency throughput benchmark profile trace span metric alert dashboard container image docker
kubernetes pod node cluster service ingress volume mount permission owner group access role admin guest`
  .split(/\s+/)
  .filter(Boolean);

/** Topics: a conversation is about one of these, so its words recur inside it and across similar work. */
const TOPICS = [
  'websocket reconnect backoff jitter', 'flaky integration test timeout', 'oauth refresh token expiry',
  'sqlite migration rollback', 'react hydration mismatch', 'docker layer cache invalidation',
  'rate limiter sliding window', 'csv import encoding bom', 'pagination cursor stability',
  'memory leak event listeners', 'graphql resolver n+1 batching', 'webhook signature verification',
  'feature flag rollout percentage', 'timezone daylight saving bug', 'upload multipart resumable',
  'search ranking relevance tuning', 'ci pipeline matrix caching', 'kubernetes readiness probe',
  'payment retry idempotency key', 'dark mode contrast tokens', 'i18n plural rules fallback',
  'log rotation retention policy', 'grpc deadline propagation', 'monorepo workspace hoisting',
  'terraform state drift', 'redis eviction policy', 'pdf export fonts embedding', 'cron job overlap lock',
  'cli argument parsing subcommands', 'email bounce handling', 'image thumbnail pipeline',
  'session cookie samesite', 'openapi client generation', 'bundle size code splitting',
  'postgres deadlock detection', 'audit log tamper evidence', 'offline sync conflict resolution',
];

export interface Workspace {
  path: string;
  /** Terms of this project: they recur across its conversations (medium document frequency). */
  terms: string[];
  /** Seed of this project's pool of output lines (see outputPool). */
  poolSeed: number;
}

/** Words past the commonest: used where a bland word would make identifiers collide. */
const LESS_COMMON = COMMON.slice(40);
const CONTENT_WORDS = COMMON.slice(60);

const WORKSPACE_NAMES = [
  'throughline', 'api-gateway', 'billing-service', 'mobile-app', 'infra', 'dotfiles', 'data-pipeline',
  'design-system', 'docs-site', 'ml-experiments', 'auth-service', 'scratch', 'cli-tools', 'search-indexer',
];
const SYLLABLES = `ka ve lo mi ra zu te no shi qua ber dax fen gol hix jor kel lum mor nib pax quo rin sel tov
ulm vok wen xan yor zel bri cro dra fli gla pro stu tra vex zor kin mar pol sar tek vin wol zap nox lyr`
  .split(/\s+/)
  .filter(Boolean);

const cap = (w: string): string => w[0]!.toUpperCase() + w.slice(1);

export function createWorkspaces(rng: Rng): Workspace[] {
  return WORKSPACE_NAMES.map((name, i) => ({
    path: `/home/dev/${i % 3 === 0 ? 'work' : 'src'}/${name}`,
    terms: Array.from({ length: 12 }, () => rng.pick(SYLLABLES) + rng.pick(SYLLABLES) + cap(rng.pick(LESS_COMMON))),
    poolSeed: rng.int(1, 2 ** 31),
  }));
}

/** Identifiers unique to one conversation: `serial` (the conversation's number) makes them unique. */
export function rareIdentifiers(rng: Rng, serial: number): string[] {
  const core = rng.pick(SYLLABLES) + rng.pick(SYLLABLES) + serial.toString(36);
  const word = (): string => rng.pick(CONTENT_WORDS);
  return [`${core}${cap(word())}`, `${core}_${word()}`, `E_${core.toUpperCase()}_${rng.int(100, 9999)}`, `${word()}${cap(core)}`];
}

/** Everything the text of one conversation draws on. */
export interface Voice {
  rng: Rng;
  topic: string[];
  workspace: Workspace;
  idents: string[];
}

export function createVoice(rng: Rng, workspace: Workspace, idents: string[]): Voice {
  return { rng, topic: rng.pick(TOPICS).split(' '), workspace, idents };
}

function word(v: Voice): string {
  const r = v.rng.next();
  if (r < 0.74) return v.rng.skewed(COMMON, 1.8);
  if (r < 0.88) return v.rng.pick(v.topic);
  if (r < 0.95) return v.rng.skewed(v.workspace.terms);
  return `\`${v.rng.pick(v.idents)}\``;
}

export function sentence(v: Voice, min = 6, max = 18): string {
  const n = v.rng.int(min, max);
  const words: string[] = [];
  for (let i = 0; i < n; i++) words.push(word(v));
  return `${cap(words.join(' '))}${v.rng.chance(0.15) ? '?' : '.'}`;
}

export function paragraph(v: Voice, min: number, max: number): string {
  const n = v.rng.int(min, max);
  const out: string[] = [];
  for (let i = 0; i < n; i++) out.push(sentence(v));
  return out.join(' ');
}

export function userPrompt(v: Voice): string {
  const text = paragraph(v, 1, 3);
  // People paste errors into prompts now and then: long, mostly non-prose text in a user message.
  return v.rng.chance(0.08) ? `${text}\n\n\`\`\`\n${machineOutput(v, v.rng.int(300, 3000))}\n\`\`\`` : text;
}

export function assistantReply(v: Voice): string {
  const text = paragraph(v, 1, 5);
  if (!v.rng.chance(0.25)) return text;
  const code = Array.from({ length: v.rng.int(3, 20) }, () => codeLine(v)).join('\n');
  return `${text}\n\n\`\`\`ts\n${code}\n\`\`\`\n\n${sentence(v)}`;
}

export function filePath(v: Voice): string {
  return `src/${v.rng.skewed(LESS_COMMON)}/${v.rng.skewed(v.workspace.terms)}.${v.rng.pick(['ts', 'tsx', 'go', 'py', 'rs'])}`;
}

function codeLine(v: Voice): string {
  const id = v.rng.chance(0.1) ? v.rng.pick(v.idents) : v.rng.skewed(v.workspace.terms);
  switch (v.rng.int(0, 5)) {
    case 0: return `  const ${v.rng.skewed(COMMON)}${cap(v.rng.skewed(COMMON))} = await ${id}(${v.rng.skewed(COMMON)}, { ${v.rng.skewed(COMMON)}: ${v.rng.int(0, 999)} });`;
    case 1: return `    at ${id} (${filePath(v)}:${v.rng.int(1, 900)}:${v.rng.int(1, 80)})`;
    case 2: return `${v.rng.pick(['INFO', 'DEBUG', 'WARN', 'ERROR'])} 2025-${String(v.rng.int(1, 12)).padStart(2, '0')}-${String(v.rng.int(1, 28)).padStart(2, '0')}T${v.rng.int(10, 23)}:${v.rng.int(10, 59)}:${v.rng.int(10, 59)}Z [${id}] ${v.rng.skewed(COMMON)} ${v.rng.skewed(COMMON)} ${v.rng.hex(12)}`;
    case 3: return `  ${v.rng.chance(0.9) ? '✓' : '✗'} ${v.rng.skewed(COMMON)} ${v.rng.skewed(COMMON)} ${v.rng.pick(v.topic)} (${v.rng.int(1, 400)} ms)`;
    case 4: return `${v.rng.int(1, 900)}\t  if (${v.rng.skewed(COMMON)}.${v.rng.skewed(COMMON)} !== ${id}) return ${v.rng.skewed(COMMON)};`;
    default: return `${filePath(v)}:${v.rng.int(1, 900)}: ${v.rng.skewed(COMMON)} ${v.rng.skewed(COMMON)} ${v.rng.skewed(COMMON)}`;
  }
}

const POOL_LINES = 4096;
const POOL_BLOCKS = 512;
const BLOCK_LINES = 32;
interface Pool {
  lines: string[];
  /** Runs of BLOCK_LINES pool lines, joined: big outputs are built from these a block at a time. */
  blocks: string[];
}
const pools = new Map<Workspace, Pool>();

/**
 * A project's output lines, made once. Tool output is most of a corpus's bytes; drawing it from a
 * pool (as real logs and files repeat themselves) keeps generation fast without changing what the
 * indexer has to read.
 */
function outputPool(v: Voice): Pool {
  let pool = pools.get(v.workspace);
  if (!pool) {
    const rng = createRng(v.workspace.poolSeed);
    const own: Voice = { ...v, rng, idents: v.workspace.terms };
    const lines = Array.from({ length: POOL_LINES }, () => codeLine(own));
    const blocks = Array.from({ length: POOL_BLOCKS }, () => Array.from({ length: BLOCK_LINES }, () => rng.pick(lines)).join('\n'));
    pools.set(v.workspace, (pool = { lines, blocks }));
  }
  return pool;
}

/** Tool output of about `bytes` characters: code, logs, stack traces, test lines. */
export function machineOutput(v: Voice, bytes: number): string {
  const pool = outputPool(v);
  const parts: string[] = [];
  let n = 0;
  while (n < bytes) {
    // This conversation's own lines now and then: its identifiers turn up in its outputs too.
    const part = v.rng.chance(0.05) ? codeLine(v) : bytes - n > 4096 ? v.rng.pick(pool.blocks) : v.rng.pick(pool.lines);
    parts.push(part);
    n += part.length + 1;
  }
  return parts.join('\n');
}

/** A shell command an agent would run. */
export function command(v: Voice): string {
  return v.rng.pick([
    `npm test -- ${filePath(v)}`, 'npm run build', 'git status', 'git diff --stat', `rg -n ${v.rng.skewed(v.workspace.terms)} src`,
    `cat ${filePath(v)}`, 'go test ./...', 'pytest -q', 'npm run lint', `ls -la ${filePath(v).replace(/\/[^/]+$/, '')}`,
  ]);
}

export { TOPICS };
