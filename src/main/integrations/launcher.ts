// How agents start Throughline: a small shell launcher at a path that does not change,
// $XDG_DATA_HOME/throughline/bin/throughline, written by every `install`. The agents' settings name
// the launcher, never a versioned Node: with nvm, fnm or Homebrew the Node that ran `install` lives in
// a folder named after its version, which a Node upgrade removes. The launcher runs the Node and
// checkout that installed it while they exist, else `node` and `throughline` from PATH; the hook
// never fails a prompt even then (exit 0).
import fs from 'node:fs';
import path from 'node:path';
import { dataDir } from '../paths-light.js';
import { commandOverride, packageRoot, readText, shellQuote, updateFile, type InstallReport, type Launch } from './files.js';

export function launcherPath(env: NodeJS.ProcessEnv = process.env): string {
  return path.join(dataDir(env), 'bin', 'throughline');
}

/** The launcher's text for this Node and this checkout. */
export function launcherScript(node: string, script: string): string {
  return `#!/bin/sh
# Throughline's launcher, written by \`throughline install\` (and rewritten by each install).
# Agents start Throughline through it, so their settings outlive a Node upgrade: it runs the Node and
# the checkout that installed it while they exist, else \`node\` and \`throughline\` from PATH.
node=${shellQuote(node)}
script=${shellQuote(script)}
[ -x "$node" ] || node=$(command -v node 2>/dev/null)
if [ -n "$node" ] && [ -f "$script" ]; then exec "$node" "$script" "$@"; fi
self=$(command -v throughline 2>/dev/null)
if [ -n "$self" ] && [ "$self" != "$0" ]; then exec "$self" "$@"; fi
echo "throughline: cannot find Node or Throughline (was $script); run \\\`throughline install\\\` again." >&2
# A hook must never fail the agent's prompt.
[ "$1" = hook ] && exit 0
exit 127
`;
}

/** How agents should start Throughline: $THROUGHLINE_COMMAND when set, else the launcher (written, or in a dry run planned, now). */
export function agentCommand(env: NodeJS.ProcessEnv, report: InstallReport): Launch {
  const override = commandOverride(env);
  if (override) return override;
  const file = launcherPath(env);
  // Installed from the Electron app, process.execPath is Electron, not a Node: leave the choice to PATH.
  const node = process.versions.electron ? '' : process.execPath;
  const text = launcherScript(node, path.join(packageRoot(), 'bin', 'throughline.mjs'));
  // Throughline's data folder is private (the index lives there); the launcher's folder is inside it.
  if (!report.dryRun) fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  updateFile(file, readText(file), text, report, 0o755);
  return { command: file, args: [] };
}
