// `throughline install pi` / `uninstall pi`: copies resources/pi-extension/throughline.ts to where pi
// auto-discovers extensions, $PI_CODING_AGENT_DIR/extensions/ (default ~/.pi/agent/extensions/).
import path from 'node:path';
import { emptyReport, home, InstallError, packageRoot, readText, removeFile, stateOf, updateFile, type InstallOptions, type InstallReport, type InstallState } from './files.js';

export function piExtensionSource(): string {
  return path.join(packageRoot(), 'resources', 'pi-extension', 'throughline.ts');
}

export function piExtensionTarget(env: NodeJS.ProcessEnv = process.env): string {
  const agentDir = env.PI_CODING_AGENT_DIR || path.join(home(env), '.pi', 'agent');
  return path.join(agentDir, 'extensions', 'throughline.ts');
}

/** A file we put there says so in its first lines; anything else named throughline.ts is not ours to delete. */
function isOurs(text: string): boolean {
  return text.slice(0, 400).includes('Throughline for pi');
}

export function installPi(options: InstallOptions = {}): InstallReport {
  const env = options.env ?? process.env;
  const report = emptyReport(options.dryRun);
  const target = piExtensionTarget(env);
  const source = readText(piExtensionSource());
  if (source === undefined) throw new InstallError('missing', `The pi extension is missing from this installation (${piExtensionSource()}).`);
  updateFile(target, readText(target), source, report);
  report.notes.push('pi loads it at its next start (or /reload in a running pi).');
  return report;
}

export function uninstallPi(options: InstallOptions = {}): InstallReport {
  const env = options.env ?? process.env;
  const report = emptyReport(options.dryRun);
  const target = piExtensionTarget(env);
  const text = readText(target);
  if (text === undefined) return report;
  if (!isOurs(text)) {
    report.notes.push(`${target} was not installed by Throughline; left alone.`);
    report.unchanged.push(target);
    return report;
  }
  // A copy the user edited is kept as a backup rather than lost.
  removeFile(target, report, text !== readText(piExtensionSource()));
  return report;
}

/** Installed when the extension file is there and is ours (an older copy counts: install updates it). */
export function piState(env: NodeJS.ProcessEnv = process.env): InstallState {
  const target = piExtensionTarget(env);
  const text = readText(target);
  return stateOf([text !== undefined && isOurs(text)], [target]);
}
