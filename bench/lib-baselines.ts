// What a person would do without Throughline, measured on the same files in the same run:
// ripgrep over the raw session files, and a plain "read every file, JSON.parse every line,
// substring-match the strings" search. Plus the floor for a re-scan: walking and stat-ing the tree.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';

/** OpenCode's storage: one JSON document per session, message and part. */
const OPENCODE_FILE = /(^|[/\\])(session|message|part)[/\\][^/\\]+[/\\][^/\\]+\.json$/;
/** The corpus's session files: JSONL, Aider's Markdown histories, OpenCode's storage files. */
const isSession = (rel: string) => rel.endsWith('.jsonl') || rel.endsWith('.aider.chat.history.md') || OPENCODE_FILE.test(rel);
/** A file's records: JSON lines, a whole JSON document (OpenCode), or Markdown lines as they are. */
function records(file: string, text: string): unknown[] {
  if (file.endsWith('.json')) return [JSON.parse(text)];
  const lines = text.split('\n').filter(Boolean);
  return file.endsWith('.md') ? lines : lines.map((l) => JSON.parse(l));
}

/**
 * The files that hold one conversation: its session file, or for OpenCode (whose session file
 * `storage/session/<project>/<ses>.json` holds no text) that file, its messages and their parts.
 */
export function conversationFiles(sessionFile: string): string[] {
  if (!OPENCODE_FILE.test(sessionFile)) return [sessionFile];
  const storage = path.dirname(path.dirname(path.dirname(sessionFile)));
  const messages = path.join(storage, 'message', path.basename(sessionFile, '.json'));
  const out = [sessionFile];
  for (const m of fs.readdirSync(messages).sort()) {
    out.push(path.join(messages, m));
    const parts = path.join(storage, 'part', path.basename(m, '.json'));
    for (const p of fs.readdirSync(parts).sort()) out.push(path.join(parts, p));
  }
  return out;
}

export function listSessionFiles(roots: readonly string[]): string[] {
  const out: string[] = [];
  for (const root of roots) {
    if (!fs.existsSync(root)) continue;
    for (const rel of fs.readdirSync(root, { recursive: true }) as string[]) if (isSession(rel)) out.push(path.join(root, rel));
  }
  return out;
}

export function hasRipgrep(): boolean {
  return spawnSync('rg', ['--version']).status === 0;
}

export interface RgRun {
  ms: number;
  files: number;
}

/**
 * Files mentioning any of the terms, case-insensitively, as fixed strings: the quickest useful
 * thing to ask ripgrep (an OR with no ranking, so it flatters ripgrep rather than Throughline).
 */
export function rgFiles(terms: readonly string[], targets: readonly string[]): RgRun {
  const args = ['-l', '-i', '-F', ...terms.flatMap((t) => ['-e', t]), '--', ...targets];
  const t0 = performance.now();
  const r = spawnSync('rg', args, { maxBuffer: 256 << 20, encoding: 'utf8' });
  const took = performance.now() - t0;
  if (r.status !== 0 && r.status !== 1) throw new Error(`rg failed (${r.status}): ${r.stderr}`);
  return { ms: took, files: r.stdout ? r.stdout.split('\n').filter(Boolean).length : 0 };
}

/** rgFiles in a process of its own (bench/rg-runner.ts): this process does not fork per query. */
export function startRgRunner(): { rgFiles: (terms: readonly string[], targets: readonly string[]) => Promise<RgRun>; close: () => void } {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const child = spawn(process.execPath, [path.join(here, '..', 'bin', 'run-ts.mjs'), path.join(here, 'rg-runner.ts')], { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = readline.createInterface({ input: child.stdout! });
  const waiting: ((line: string) => void)[] = [];
  lines.on('line', (line) => waiting.shift()?.(line));
  return {
    rgFiles: (terms, targets) =>
      new Promise((resolve, reject) => {
        waiting.push((line) => {
          const r = JSON.parse(line) as RgRun & { error?: string };
          if (r.error) reject(new Error(r.error));
          else resolve(r);
        });
        child.stdin!.write(`${JSON.stringify({ terms, targets })}\n`);
      }),
    close: () => child.stdin!.end(),
  };
}

/** Peak RSS (MB) of one ripgrep query, from GNU time; null where /usr/bin/time is missing. */
export function rgPeakRssMB(terms: readonly string[], targets: readonly string[]): number | null {
  if (!fs.existsSync('/usr/bin/time')) return null;
  const r = spawnSync('/usr/bin/time', ['-f', '%M', 'rg', '-l', '-i', '-F', ...terms.flatMap((t) => ['-e', t]), '--', ...targets], {
    maxBuffer: 256 << 20,
    encoding: 'utf8',
  });
  const kb = Number(r.stderr.trim().split('\n').at(-1));
  return Number.isFinite(kb) ? kb / 1024 : null;
}

function collectStrings(v: unknown, out: string[]): void {
  if (typeof v === 'string') out.push(v);
  else if (Array.isArray(v)) for (const x of v) collectStrings(x, out);
  else if (v && typeof v === 'object') for (const x of Object.values(v)) collectStrings(x, out);
}

export interface ScanRun {
  ms: number;
  bytes: number;
  matches: number;
}

/** Reads every file, parses every line, and keeps the files whose strings contain all the terms. */
export function jsonScan(files: readonly string[], terms: readonly string[]): ScanRun {
  const needles = terms.map((t) => t.toLowerCase());
  const t0 = performance.now();
  let bytes = 0;
  let matches = 0;
  for (const file of files) {
    const text = fs.readFileSync(file, 'utf8');
    bytes += Buffer.byteLength(text);
    const found = new Set<string>();
    for (const record of records(file, text)) {
      const strings: string[] = [];
      collectStrings(record, strings);
      const hay = strings.join('\n').toLowerCase();
      for (const n of needles) if (hay.includes(n)) found.add(n);
      if (found.size === needles.length) break;
    }
    if (needles.length > 0 && found.size === needles.length) matches++;
  }
  return { ms: performance.now() - t0, bytes, matches };
}

/** Reading one conversation's files whole and parsing them: what "open the transcript" costs without an index. */
export function parseConversation(sessionFile: string): number {
  const t0 = performance.now();
  for (const file of conversationFiles(sessionFile)) records(file, fs.readFileSync(file, 'utf8'));
  return performance.now() - t0;
}

/** Listing and stat-ing every session file: the least an unchanged re-scan can do. */
export function statWalk(roots: readonly string[]): number {
  const t0 = performance.now();
  for (const f of listSessionFiles(roots)) fs.statSync(f);
  return performance.now() - t0;
}
