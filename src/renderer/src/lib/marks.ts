// Highlights inside a rendered entry: the words that led to it (a search, a suggestion) and find in
// conversation's matches. Only text nodes are split and wrapped; the entry's header, a code block's
// header and a collapsed item's summary line are left alone.
const SKIP = '.entry-head, .code-head, summary, mark';

/** Removes the marks of `className` under `root`, joining the text back together. */
export function clearMarks(root: HTMLElement, className: string): void {
  const marks = root.querySelectorAll(`mark.${className}`);
  if (!marks.length) return;
  const parents = new Set<Node>();
  for (const m of Array.from(marks)) {
    parents.add(m.parentNode!);
    m.replaceWith(document.createTextNode(m.textContent ?? ''));
  }
  for (const p of parents) p.normalize();
}

/** Wraps every match of `pattern` (global) in the text under `root` in <mark class=className>, in order. */
export function markMatches(root: HTMLElement, pattern: RegExp, className: string): HTMLElement[] {
  const texts: Text[] = [];
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT, {
    acceptNode: (n) => (n.parentElement?.closest(SKIP) ? NodeFilter.FILTER_REJECT : NodeFilter.FILTER_ACCEPT),
  });
  for (let n = walker.nextNode(); n; n = walker.nextNode()) texts.push(n as Text);
  const out: HTMLElement[] = [];
  for (const node of texts) {
    const text = node.data;
    pattern.lastIndex = 0;
    const found = Array.from(text.matchAll(pattern)).filter((m) => m[0].length > 0);
    if (!found.length) continue;
    const parts = document.createDocumentFragment();
    let at = 0;
    for (const m of found) {
      if (m.index! > at) parts.append(text.slice(at, m.index));
      const mark = document.createElement('mark');
      mark.className = className;
      mark.textContent = m[0];
      parts.append(mark);
      out.push(mark);
      at = m.index! + m[0].length;
    }
    if (at < text.length) parts.append(text.slice(at));
    node.replaceWith(parts);
  }
  return out;
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The words of a query as a pattern matching them at the start of a word, and the rest of that word:
 * the index stems, so "rounding" found "round", and the highlight should cover what was found.
 */
export function wordsPattern(query: string): RegExp | null {
  // A plain suffix cut, as the index's stemmer does roughly: "balances" finds "balance" too.
  const stem = (w: string) => {
    const cut = w.replace(/(?:ing|ed|es|s)$/u, '');
    return cut.length >= 3 ? cut : w;
  };
  const words = [...new Set(query.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((w) => w.length >= 2).map(stem))];
  if (!words.length) return null;
  words.sort((a, b) => b.length - a.length);
  return new RegExp(`(?<![\\p{L}\\p{N}])(?:${words.map(escape).join('|')})[\\p{L}\\p{N}]*`, 'giu');
}

/** The text itself, any case: find in conversation. */
export function literalPattern(text: string): RegExp {
  return new RegExp(escape(text), 'gi');
}
