// Child processes for the reliability tests. Through tsx every start transpiles the sources again
// (seconds on a busy 2-core machine, times dozens of restarts); bundled once with esbuild (already
// installed with tsx and vite) a child starts in a fraction of that. Without esbuild the children
// run through bin/run-ts.mjs: slower, same code.
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
/** Inside node_modules so the bundle's bare imports (better-sqlite3, zod) resolve to the project's. */
const OUT = path.join(ROOT, 'node_modules', '.cache', 'throughline-reliability');

export interface Runnable {
  /** argv for `node` (the bundle, or run-ts and the source). */
  argv: string[];
  dispose(): void;
}

/** Bundles a TypeScript entry (relative to the project root) into one ESM file for node. */
export async function bundle(entry: string): Promise<Runnable> {
  const source = path.join(ROOT, entry);
  try {
    const esbuild = await import('esbuild');
    fs.mkdirSync(OUT, { recursive: true });
    // Per process: test files run in parallel workers and must not overwrite each other's bundle.
    const name = path.basename(entry, '.ts');
    const outdir = path.join(OUT, `${name}-${process.pid}-${Date.now()}`);
    // With the daemon's reader thread beside it, as scripts/build-cli.mjs builds them (read-pool.ts finds it there).
    const entryPoints = { [name]: source, 'read-worker': path.join(ROOT, 'src/main/api/read-worker.ts') };
    await esbuild.build({ entryPoints, outdir, outExtension: { '.js': '.mjs' }, bundle: true, platform: 'node', format: 'esm', target: 'node20', packages: 'external', logLevel: 'error' });
    return { argv: [path.join(outdir, `${name}.mjs`)], dispose: () => fs.rmSync(outdir, { recursive: true, force: true }) };
  } catch {
    return { argv: [path.join(ROOT, 'bin', 'run-ts.mjs'), source], dispose: () => {} };
  }
}

export interface Exited {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Spawns node with the given argv; `exited` resolves with its output once it is gone. */
export function start(argv: string[], options: SpawnOptions = {}): { child: ChildProcess; exited: Promise<Exited>; output: () => string } {
  const child = spawn(process.execPath, argv, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], ...options });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<Exited>((resolve) => child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr })));
  return { child, exited, output: () => stdout };
}

/** Resolves once the child has printed `text` (or rejects if it exits first or `ms` pass). */
export function waitFor(run: ReturnType<typeof start>, text: string, ms = 20_000): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no "${text}" within ${ms} ms; output: ${run.output().slice(-500)}`)), ms);
    const check = () => {
      if (run.output().includes(text)) {
        clearTimeout(timer);
        resolve();
      }
    };
    run.child.stdout?.on('data', check);
    void run.exited.then((e) => {
      clearTimeout(timer);
      if (run.output().includes(text)) resolve();
      else reject(new Error(`exited (${e.code ?? e.signal}) before "${text}": ${e.stderr.slice(-1000)}`));
    });
    check();
  });
}
