// Transcript text as markdown, made safe. Transcripts are untrusted: an agent may have read a web
// page or a hostile file, and whatever it echoed is here. So:
//   - marked turns markdown into HTML; DOMPurify (in an inert document) keeps only plain formatting;
//   - nothing that runs: no script, no event handler, no style, no form, no frame, no SVG/MathML;
//   - nothing that loads: <img> keeps only an inline data: image, every other image becomes a
//     labelled placeholder before it reaches the live document; no audio/video/source/srcset/poster;
//   - links: only http(s) and mailto survive (javascript:, data:, vbscript: hrefs are dropped), they
//     open outside the app, and `/c/ID` (Throughline's own conversation links) opens in the app.
// The CSP (img-src 'self' data:, no inline script) backs every rule up.
import DOMPurify from 'dompurify';
import { marked } from 'marked';
import { decorateCodeBlocks } from './code';
import { TextCache } from './text-cache';

const SAFE_IMAGE = /^data:image\/(?:png|gif|jpe?g|webp);base64,[a-z0-9+/=\s]+$/i;
const SAFE_LINK = /^(?:https?:|mailto:)/i;
const APP_LINK = /^\/c\/(\d+)(?:\?entry=(\d+))?$/;

/** Over this many characters a message is shown clipped, with a way to read it all as plain text. */
export const CLIP_CHARS = 20_000;

let hooked = false;

function installHooks(): void {
  if (hooked) return;
  hooked = true;
  DOMPurify.addHook('afterSanitizeAttributes', (node) => {
    if (node.nodeName === 'IMG') {
      const src = node.getAttribute('src') ?? '';
      node.removeAttribute('srcset');
      if (!SAFE_IMAGE.test(src)) {
        // Removed here, inside DOMPurify's inert document: an <img src> must never reach a live one.
        node.removeAttribute('src');
        node.setAttribute('data-blocked', src.replace(/^(https?:\/\/[^/]+).*$/i, '$1').slice(0, 120) || 'image');
      }
    }
    if (node.nodeName === 'A') {
      const href = node.getAttribute('href') ?? '';
      const app = APP_LINK.exec(href);
      if (app) {
        node.setAttribute('href', `#/c/${app[1]}${app[2] ? `?entry=${app[2]}` : ''}`);
      } else if (SAFE_LINK.test(href)) {
        node.setAttribute('target', '_blank');
        node.setAttribute('rel', 'noopener noreferrer nofollow');
      } else {
        node.removeAttribute('href');
      }
    }
  });
}

const PURIFY_CONFIG = {
  FORBID_TAGS: ['style', 'script', 'form', 'input', 'button', 'textarea', 'select', 'option', 'iframe', 'frame', 'object', 'embed',
    'audio', 'video', 'source', 'track', 'picture', 'svg', 'math', 'link', 'meta', 'base', 'dialog', 'template'],
  FORBID_ATTR: ['style', 'srcset', 'poster', 'background', 'ping', 'formaction', 'xlink:href', 'action', 'id', 'name'],
  ALLOW_DATA_ATTR: false,
  ALLOWED_URI_REGEXP: /^(?:https?:|mailto:|#|\/c\/\d+|data:image\/(?:png|gif|jpe?g|webp);)/i,
};

/** Replaces blocked images (no src left) with a visible, inert label. */
function placeholders(fragment: DocumentFragment): void {
  for (const img of Array.from(fragment.querySelectorAll('img[data-blocked]'))) {
    const label = document.createElement('span');
    label.className = 'md-blocked-image';
    const alt = img.getAttribute('alt');
    label.textContent = `Image not loaded${alt ? `: ${alt}` : ''} (${img.getAttribute('data-blocked')})`;
    img.replaceWith(label);
  }
}

/**
 * Rendered fragments by text: the transcript mounts and unmounts entries as they scroll in and out
 * of view, and an entry seen again must not be parsed, sanitized and highlighted again. Bounded by
 * the text it holds, not a count: 1,200 entries of a few hundred characters is well under it, where
 * a count of 400 made a reader scrolling back through a long conversation render every entry afresh.
 */
const cache = new TextCache<DocumentFragment>(2_000_000);

/** Markdown → a sanitized fragment with its code blocks highlighted. Callers append a clone of it. */
export function renderMarkdown(text: string): DocumentFragment {
  const hit = cache.get(text);
  if (hit) return hit;
  installHooks();
  const html = marked.parse(text, { async: false, gfm: true, breaks: true });
  const fragment = DOMPurify.sanitize(html, { ...PURIFY_CONFIG, RETURN_DOM_FRAGMENT: true });
  placeholders(fragment);
  decorateCodeBlocks(fragment);
  cache.set(text, fragment);
  return fragment;
}

let waiting: string[] = [];
let scheduled = false;

/** Under this much idle time left, the rest waits for the next idle period: one entry takes ~1–3 ms. */
const IDLE_MARGIN_MS = 4;

function drain(deadline: IdleDeadline): void {
  scheduled = false;
  while (waiting.length && deadline.timeRemaining() > IDLE_MARGIN_MS) renderMarkdown(waiting.shift()!);
  if (waiting.length) schedule();
}

function schedule(): void {
  if (scheduled) return;
  scheduled = true;
  requestIdleCallback(drain);
}

/**
 * Renders these texts into the cache while the page is idle, in the order given (nearest first), so
 * an entry scrolled into view is a clone of finished work rather than a parse, a sanitize and a
 * highlight inside the frame that shows it. Each call replaces what the previous one still had to do:
 * only the neighbourhood of where the reader is now matters.
 */
export function renderWhenIdle(texts: readonly string[]): void {
  waiting = texts.filter((t) => t.length <= CLIP_CHARS && !cache.has(t));
  if (waiting.length) schedule();
}
