// The summary Throughline derives at index time for a conversation whose agent wrote none (the seeds
// preview "the conversation's generated summary"; no model runs here, so it is extractive): the first
// thing the user asked and the outcome — the start of the last assistant message. It is stored beside
// the agent's own summary (conversations.derived_summary), never in place of it, and is used where the
// agent's summary would be: the preview of a suggestion or a list row, and the summary field of
// conversations_fts (the `summary` signal).
//
// The title is left out on purpose: it is a field of its own, shown beside every preview and scored by
// the title signal. Copied into the summary it would spend the preview's few characters on what is
// already on the line, and score a title word twice (title +5 and summary +2 under `signals`, so a
// title-only match would reach 7 and be listed, where the seed says 5).

export const DERIVED_LIMITS = { request: 140, outcome: 160 } as const;

export interface SummarySource {
  /** The text of the first real user message (not injected context). */
  firstRequest: string | null;
  /** The text of the last assistant message. */
  lastReply: string | null;
}

/** One line of prose: code blocks, markdown marks and extra whitespace removed. */
export function plainText(text: string): string {
  return text
    .replace(/```[\s\S]*?(```|$)/g, ' ')
    // A heading is a label, not a sentence: it would run into the sentence after it.
    .replace(/^\s{0,3}#{1,6}\s.*$/gm, ' ')
    .replace(/`([^`\n]*)`/g, '$1')
    .replace(/!?\[([^\]\n]*)\]\([^)\n]*\)/g, '$1')
    .replace(/^\s{0,3}([-*+]\s+|\d+[.)]\s+|>\s?)/gm, '')
    .replace(/(\*\*|__|~~)/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * The leading sentences of `text`: up to the first sentence end at or after `min` characters, within
 * `max`; with no such end, the whole text when it fits, else cut at a word boundary and marked with an
 * ellipsis.
 */
export function leadingSentences(text: string, max: number, min = 50): string {
  const ends = /[.!?…](?=\s|$)/g;
  for (let m = ends.exec(text); m && m.index < max; m = ends.exec(text)) {
    if (m.index + 1 >= min) return text.slice(0, m.index + 1);
  }
  if (text.length <= max) return text;
  const cut = text.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return (space > max / 2 ? cut.slice(0, space) : cut).replace(/[\s,;:–—-]+$/, '') + '…';
}

/** The derived summary, or '' when the conversation has nothing to summarise yet. */
export function deriveSummary(src: SummarySource): string {
  const request = src.firstRequest ? leadingSentences(plainText(src.firstRequest), DERIVED_LIMITS.request) : '';
  const outcome = src.lastReply ? leadingSentences(plainText(src.lastReply), DERIVED_LIMITS.outcome) : '';
  if (request && outcome) return `${request} — Outcome: ${outcome}`;
  return request || (outcome ? `Outcome: ${outcome}` : '');
}
