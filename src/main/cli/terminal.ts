// What the CLI writes to a terminal: control characters from transcripts made visible, colour only
// where a person wants it, and columns that line up.
import { styleText } from 'node:util';

// C0 except \t and \n, DEL, C1 (including CSI 0x9b and OSC 0x9d, which some terminals obey as ESC[ and
// ESC]), and the bidi overrides and isolates (U+202A–U+202E, U+2066–U+2069) that reorder what a line
// seems to say. A transcript, a title or a socket client's name carrying ESC]52 (clipboard), ESC]8
// (disguised links) or ESC[1A ESC[2K (rewriting earlier output) prints as text, never as a command.
const CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/g;

/** Control characters as visible escapes: ESC → \x1b, U+202E → \u202e. */
export function escapeControls(text: string): string {
  return text.replace(CONTROL, (c) => {
    const code = c.charCodeAt(0);
    return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
  });
}

/**
 * Colour for a person's terminal: NO_COLOR (any non-empty value) turns it off, FORCE_COLOR turns it
 * on (off when "0" or "false"), otherwise a terminal that is not TERM=dumb gets it.
 */
export function colorEnabled(env: NodeJS.ProcessEnv, tty: boolean): boolean {
  if (env.NO_COLOR) return false;
  if (env.FORCE_COLOR !== undefined) return env.FORCE_COLOR !== '0' && env.FORCE_COLOR !== 'false';
  return tty && env.TERM !== 'dumb';
}

type Format = Parameters<typeof styleText>[0];

/** The few styles the CLI uses, each a no-op without colour. Text given to them must be escaped already. */
export interface Paint {
  title(text: string): string;
  dim(text: string): string;
  /** A matched word. */
  match(text: string): string;
  /** A label: the speaker, a heading. */
  label(text: string): string;
  user(text: string): string;
  assistant(text: string): string;
  warn(text: string): string;
}

export function createPaint(color: boolean): Paint {
  // validateStream off: whether to colour is decided above (and the text may go to a test's buffer).
  const style = (format: Format) => (color ? (text: string) => styleText(format, text, { validateStream: false }) : (text: string) => text);
  return {
    title: style('bold'),
    dim: style('dim'),
    match: style(['bold', 'yellow']),
    label: style('bold'),
    user: style(['bold', 'cyan']),
    assistant: style(['bold', 'magenta']),
    warn: style('yellow'),
  };
}

// East Asian wide and fullwidth ranges, and emoji: two columns each. Combining marks: none.
const WIDE = /[\u1100-\u115f\u2e80-\u303e\u3041-\u33ff\u3400-\u4dbf\u4e00-\u9fff\ua000-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6\u{1f300}-\u{1f64f}\u{1f900}-\u{1f9ff}\u{20000}-\u{3fffd}]/u;
const ZERO = /[\p{M}\u200b-\u200f]/u;

/** Columns a text takes in a terminal (escape sequences not counted). */
export function displayWidth(text: string): number {
  let width = 0;
  for (const ch of text.replace(/\x1b\[[0-9;]*m/g, '')) width += ZERO.test(ch) ? 0 : WIDE.test(ch) ? 2 : 1;
  return width;
}

/** Cuts a text to at most `width` columns, marking the cut with …. */
export function fitWidth(text: string, width: number): string {
  if (displayWidth(text) <= width) return text;
  let out = '';
  let used = 0;
  for (const ch of text) {
    const w = ZERO.test(ch) ? 0 : WIDE.test(ch) ? 2 : 1;
    if (used + w > width - 1) break;
    out += ch;
    used += w;
  }
  return out + '…';
}

export function padTo(text: string, width: number): string {
  return text + ' '.repeat(Math.max(0, width - displayWidth(text)));
}

/**
 * Rows as aligned columns, two spaces apart. `right` lists the columns aligned right (numbers); the
 * last column is never padded. Cells may carry colour already: widths ignore it.
 */
export function columns(rows: readonly (readonly string[])[], right: readonly number[] = []): string[] {
  const widths: number[] = [];
  for (const row of rows) row.forEach((cell, i) => (widths[i] = Math.max(widths[i] ?? 0, displayWidth(cell))));
  return rows.map((row) =>
    row
      .map((cell, i) => {
        if (i === row.length - 1 && !right.includes(i)) return cell;
        const pad = ' '.repeat(Math.max(0, widths[i]! - displayWidth(cell)));
        return right.includes(i) ? pad + cell : cell + pad;
      })
      .join('  ')
      .trimEnd(),
  );
}
