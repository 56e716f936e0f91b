// How a suggestion's signals read as text: in the pointer block an agent gets, and in the CLI's
// `suggest` off a terminal. One wording, so a person sees what the agent saw.
import type { Signal } from './api.js';

/** One line of text, no markup that could close the block, at most `max` characters. */
export function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').replace(/</g, '‹').replace(/>/g, '›').trim();
  return flat.length > max ? flat.slice(0, max - 1).trimEnd() + '…' : flat;
}

export function formatSignals(signals: readonly Signal[]): string {
  // A prior that lowers the score (recency of old work) reads as a minus, not "+-0.4".
  return signals.map((s) => `${s.name}${s.detail ? ` ${oneLine(s.detail, 80)}` : ''} ${s.points < 0 ? '-' : '+'}${Math.abs(s.points)}`).join('; ');
}
