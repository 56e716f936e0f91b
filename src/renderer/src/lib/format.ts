// Small formatting helpers shared by the views.
import { calendarDaysAgo, startOfDay } from '../../../shared/age';
import type { SourceKind } from '../../../shared/types';

export const SOURCE_LABEL: Record<SourceKind, string> = {
  'claude-code': 'Claude Code',
  codex: 'Codex',
  pi: 'pi',
  gemini: 'Gemini CLI',
  opencode: 'OpenCode',
  copilot: 'Copilot CLI',
  cursor: 'Cursor',
  droid: 'Droid',
  aider: 'Aider',
  jsonl: 'Imported',
};

const dateFmt = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });
const dateTimeFmt = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const timeFmt = new Intl.DateTimeFormat(undefined, { timeStyle: 'short' });
const numberFmt = new Intl.NumberFormat();

export function formatNumber(n: number): string {
  return numberFmt.format(n);
}

export function formatDateTime(ms: number | null | undefined): string {
  return ms ? dateTimeFmt.format(ms) : '—';
}

let today = { at: 0, start: 0 };

/** Local midnight, recomputed at most once a minute: a long list formats thousands of dates. */
function startOfToday(now: number): number {
  if (now - today.at > 60_000 || now < today.at) today = { at: now, start: startOfDay(now) };
  return today.start;
}

/** Calendar days before today, by the local clock: the one rule of src/shared/age.ts. */
function daysAgo(ms: number, now: number): number {
  return calendarDaysAgo(ms, startOfToday(now));
}

/** "14:02" today, "Yesterday", "3 days ago", then a date. */
export function formatRelative(ms: number | null | undefined, now = Date.now()): string {
  if (!ms) return '—';
  const days = daysAgo(ms, now);
  if (days === 0) return timeFmt.format(ms);
  if (days === 1) return 'Yesterday';
  if (days < 7) return `${days} days ago`;
  return dateFmt.format(ms);
}

/**
 * The same age inside a sentence ("last active yesterday"): "today", "yesterday", "3 days ago",
 * "on Nov 12, 2026". One rule with formatRelative, so a card never says "Yesterday" beside "today".
 */
export function ageInWords(ms: number | null | undefined, now = Date.now()): string {
  if (!ms) return 'at an unknown date';
  const days = daysAgo(ms, now);
  if (days === 0) return 'today';
  if (days === 1) return 'yesterday';
  if (days < 7) return `${days} days ago`;
  return `on ${dateFmt.format(ms)}`;
}

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}

/** The last two path segments: enough to tell workspaces apart without a wall of slashes. */
export function shortPath(p: string | null | undefined): string {
  if (!p) return '';
  const parts = p.split(/[\\/]/).filter(Boolean);
  return parts.length <= 2 ? p : `…/${parts.slice(-2).join('/')}`;
}
