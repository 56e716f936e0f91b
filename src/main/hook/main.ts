// `throughline hook AGENT`: the turn-start hook as a process. It is built as its own small bundle
// (.build/hook.mjs, scripts/build-cli.mjs) that bin/throughline.mjs runs without loading the rest
// of the CLI, because agents run it on every prompt. A hard deadline covers everything (reading
// stdin, the transcript, connecting, the call, the fallback): when it passes, the process exits 0
// and prints nothing, whatever is still waiting.
import { fs, path, parseArgs } from '../builtins.js';
import { runClaudeHook } from './claude.js';
import { runCodexHook } from './codex.js';
import { runGeminiHook } from './gemini.js';
import { stateDir } from '../paths-light.js';
import { readStdin } from './read-head.js';
import { DEFAULT_BUDGET_MS, type HookOptions } from './suggest.js';

const MAX_STDIN = 1024 * 1024;
/** Past the budget, what is left to print gets this long before the process ends regardless. */
const EXIT_GRACE_MS = 150;

export const HOOK_AGENTS = ['claude', 'codex', 'gemini'] as const;

function logger(env: NodeJS.ProcessEnv): (message: string) => void {
  const file = path.join(stateDir(env), 'hook.log');
  return (message) => {
    try {
      fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
      fs.appendFileSync(file, `${new Date().toISOString()} ${message}\n`, { mode: 0o600 });
    } catch {
      // Logging must not be the thing that fails the hook.
    }
  };
}

/** What the hook prints for `args` (["claude", "--db", …]) and its stdin; never rejects. */
export async function hookOutput(args: string[], env: NodeJS.ProcessEnv, stdin: () => Promise<string>, log = logger(env)): Promise<string> {
  try {
    const { values, positionals } = parseArgs({ args, options: { db: { type: 'string' }, socket: { type: 'string' } }, allowPositionals: true, strict: false });
    const agent = positionals[0];
    const options: HookOptions = {
      env,
      dbPath: typeof values.db === 'string' ? values.db : undefined,
      socketPath: typeof values.socket === 'string' ? values.socket : undefined,
    };
    if (agent === 'claude') return await runClaudeHook(await stdin(), options, log);
    if (agent === 'codex') return await runCodexHook(await stdin(), options, log);
    if (agent === 'gemini') return await runGeminiHook(await stdin(), options, log);
    log(`hook: unknown agent "${agent ?? ''}" (expected ${HOOK_AGENTS.join(', ')})`);
  } catch (err) {
    log(`hook: ${(err as Error).stack ?? String(err)}`);
  }
  return '';
}

/** Runs the hook as this process and ends it: exit 0 always, within the budget. */
export async function hookMain(args: string[], env: NodeJS.ProcessEnv = process.env): Promise<never> {
  const log = logger(env);
  // Belt and braces: whatever still holds the event loop (a socket, a read), the process ends.
  setTimeout(() => {
    log(`hook: still running after ${DEFAULT_BUDGET_MS + EXIT_GRACE_MS} ms; exiting`);
    process.exit(0);
  }, DEFAULT_BUDGET_MS + EXIT_GRACE_MS);
  const out = await hookOutput(args, env, () => readStdin(MAX_STDIN), log);
  if (out) await new Promise<void>((resolve) => process.stdout.write(out, () => resolve()));
  process.exit(0);
}
