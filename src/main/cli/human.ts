// Output for a person at a terminal (stdout is a TTY): plain titles, coloured highlights, aligned
// columns, a blank line between turns. Programs and agents keep the agents' text (off a terminal)
// or --json. Every piece of data is escaped (terminal.ts) before any colour is added around it.
import type { Core } from '../api/core.js';
import { queryMatchers } from '../api/highlight.js';
import { rawOut, type CliIO } from './command.js';
import { colorEnabled, createPaint, escapeControls, fitWidth, type Paint } from './terminal.js';

export interface Human {
  paint: Paint;
  /** Terminal width in columns. */
  width: number;
  /** Escapes a text and paints the words that match the query (none without a query). */
  highlight(text: string): string;
  /** Whether a text has every term of the query (true without a query). */
  hasAll(text: string): boolean;
  /** Writes text that is escaped and painted already. */
  write(text: string): void;
}

/** Whether this run prints for a person: stdout is a terminal and --json was not asked for. */
export function forPerson(io: CliIO, json: boolean | undefined): boolean {
  return !json && io.outTTY === true;
}

// Marks around matched words while the text is plain: control characters cannot occur in an escaped
// text, so these two cannot be confused with anything a transcript holds.
const OPEN = '\x01';
const CLOSE = '\x02';

export function createHuman(io: CliIO, core: Core | null, query?: string): Human {
  const paint = createPaint(colorEnabled(io.env, io.outTTY === true));
  const matchers = core && query?.trim() ? queryMatchers(core, query) : null;
  return {
    paint,
    width: terminalWidth(io),
    highlight(text) {
      const safe = escapeControls(text);
      if (!matchers) return safe;
      // The whole text, marked (the snippet starts at the first word: what comes before it is kept).
      const lead = /^[^\p{L}\p{N}\p{M}\p{Co}]*/u.exec(safe)![0];
      const marked = lead + matchers.any.snippet(safe, { open: OPEN, close: CLOSE, tokens: Number.MAX_SAFE_INTEGER });
      return marked.replace(/\x01([^\x02]*)\x02/g, (_, word: string) => paint.match(word));
    },
    hasAll: (text) => !matchers || matchers.all.matches(text),
    write: (text) => rawOut(io)(text),
  };
}

/** The terminal's columns; $COLUMNS, else 100, where it does not say (a pseudo-terminal may report 0). */
function terminalWidth(io: CliIO): number {
  const cols = io.columns || Number(io.env.COLUMNS) || 100;
  return Math.max(40, cols);
}

/** One line of data for a person: escaped, whitespace collapsed, cut to `width` columns. */
export function oneLine(text: string, width: number): string {
  return fitWidth(escapeControls(text.replace(/\s+/g, ' ').trim()), width);
}

/** "1 turn", "3 turns". */
export function count(n: number, one: string, many = `${one}s`): string {
  return `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;
}

/** The local calendar day, YYYY-MM-DD: the day the window shows for the same conversation (not UTC's). */
export function day(iso: string | number | null | undefined): string {
  if (iso === null || iso === undefined) return 'undated';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return 'undated';
  const two = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())}`;
}

/** The line under a title: id, agent, workspace, and whatever else, dimmed and separated by ·. */
export function metaLine(h: Human, parts: (string | null | undefined)[]): string {
  return h.paint.dim(parts.filter((p): p is string => Boolean(p)).map((p) => escapeControls(p)).join(' · '));
}

/** Roles as a person reads them, in their colour. */
export function speaker(h: Human, role: string, author?: string): string {
  const who = author ? `${role} (${escapeControls(author)})` : escapeControls(role);
  return role === 'user' ? h.paint.user(who) : role === 'assistant' ? h.paint.assistant(who) : h.paint.label(who);
}
