// Code blocks in transcripts: syntax highlighting by highlight.js (its common languages), a label
// naming the language and a copy button. highlight.js escapes the code and marks tokens with class
// names only — no inline style — so the output stays within the CSP (style-src 'self'); the colours
// are in styles/code.css. It runs on the already sanitized fragment, on text nodes' content only.
import hljs from 'highlight.js/lib/common';

/** Above this, a block is shown plain: highlighting a huge paste would stall a frame for little. */
const MAX_HIGHLIGHT = 30_000;
/** Guessing a language costs a pass per language; only for blocks this small, and only a confident guess. */
const MAX_GUESS = 4_000;
const MIN_RELEVANCE = 6;

const FENCE_LANGUAGE = /^language-([\w+#.-]{1,30})$/;

function fenceLanguage(code: Element): string | null {
  for (const c of Array.from(code.classList)) {
    const m = FENCE_LANGUAGE.exec(c);
    if (m) return m[1]!.toLowerCase();
  }
  return null;
}

/** Highlights `code` in place; returns the label to show (the language's name), or null. */
function highlight(code: HTMLElement): string | null {
  const text = code.textContent ?? '';
  const fence = fenceLanguage(code);
  const known = fence ? hljs.getLanguage(fence) : undefined;
  if (text.length > MAX_HIGHLIGHT) return known?.name ?? fence;
  if (known) {
    code.innerHTML = hljs.highlight(text, { language: fence!, ignoreIllegals: true }).value;
    return known.name ?? fence;
  }
  // A fence naming a language highlight.js does not know still gets its name shown.
  if (fence) return fence;
  if (text.length > MAX_GUESS) return null;
  const guess = hljs.highlightAuto(text);
  if (!guess.language || guess.relevance < MIN_RELEVANCE) return null;
  code.innerHTML = guess.value;
  return hljs.getLanguage(guess.language)?.name ?? guess.language;
}

/** Wraps every `pre > code` of the fragment in a block with a header: language label, copy button. */
export function decorateCodeBlocks(fragment: DocumentFragment): void {
  for (const code of Array.from(fragment.querySelectorAll<HTMLElement>('pre > code'))) {
    const pre = code.parentElement!;
    const label = highlight(code);
    code.classList.add('hljs');
    const block = document.createElement('div');
    block.className = 'code-block';
    const head = document.createElement('div');
    head.className = 'code-head';
    const lang = document.createElement('span');
    lang.className = 'code-lang';
    lang.textContent = label ?? 'Code';
    const copy = document.createElement('button');
    copy.type = 'button';
    copy.className = 'code-copy';
    copy.textContent = 'Copy';
    copy.setAttribute('aria-label', `Copy ${label ?? 'code'}`);
    head.append(lang, copy);
    pre.replaceWith(block);
    block.append(head, pre);
  }
}

/** The click handler's half: copies the block a `.code-copy` button belongs to. */
export async function copyCodeBlock(button: HTMLElement): Promise<void> {
  const text = button.closest('.code-block')?.querySelector('pre')?.textContent ?? '';
  try {
    await navigator.clipboard.writeText(text);
    button.textContent = 'Copied';
  } catch {
    button.textContent = 'Copy failed';
  }
  setTimeout(() => (button.textContent = 'Copy'), 1500);
}
