// Runs the CLI's main() the way bin/throughline.mjs does, with stdout a terminal or not.
import path from 'node:path';
import type { CliIO } from '../../src/main/cli/command.js';
import { main } from '../../src/main/cli/main.js';
import { FIXTURES } from '../helpers/tmp.js';

export interface Run {
  code: number;
  out: string;
  err: string;
}

export interface RunOptions {
  /** stdout is a terminal (output for a person). */
  tty?: boolean;
  /** Colour on a terminal: FORCE_COLOR=1, or NO_COLOR=1 when false. */
  color?: boolean;
  env?: NodeJS.ProcessEnv;
}

export async function cli(home: string, args: string[], options: RunOptions = {}): Promise<Run> {
  let out = '';
  let err = '';
  const env: NodeJS.ProcessEnv = {
    HOME: home,
    XDG_CONFIG_HOME: path.join(home, 'config'),
    XDG_DATA_HOME: path.join(home, 'data'),
    XDG_STATE_HOME: path.join(home, 'state'),
    ...(options.color === undefined ? {} : options.color ? { FORCE_COLOR: '1' } : { NO_COLOR: '1' }),
    ...options.env,
  };
  const io: CliIO = { out: (t) => void (out += t), err: (t) => void (err += t), isTTY: false, outTTY: options.tty ?? false, columns: 100, env };
  const code = await main(args, io);
  return { code, out, err };
}

/** The repository's own agent fixtures, as `index --source` arguments. */
export const FIXTURE_SOURCES = ['pi', 'claude-code', 'codex'].flatMap((kind) => ['--source', `${kind}=${path.join(FIXTURES, kind)}`]);

/** Escape characters shown as \e, so a snapshot of coloured output reads as text. */
export function visibleEscapes(text: string): string {
  return text.replace(/\x1b/g, '\\e');
}
