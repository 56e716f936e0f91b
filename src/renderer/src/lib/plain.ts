// Markdown as one line of plain text, for the list's previews: what a message says, without its
// fences, backticks, emphasis markers, heading hashes, list bullets or link targets. HTML is kept as
// the text it is: agents discuss markup, and a search for a word inside a tag must still show it.
const RULES: [RegExp, string][] = [
  [/```[^\n]*\n?/g, ' '], // code fences, opening (with their language) and closing
  [/~~~[^\n]*\n?/g, ' '],
  [/`([^`\n]*)`/g, '$1'],
  [/!\[([^\]]*)\]\([^)]*\)/g, '$1'],
  [/\[([^\]]+)\]\([^)]*\)/g, '$1'],
  [/^[ \t]{0,3}#{1,6}[ \t]+/gm, ''],
  [/^[ \t]{0,3}>[ \t]?/gm, ''],
  [/^[ \t]*(?:[-*+]|\d{1,3}[.)])[ \t]+(?:\[[ xX]\][ \t]+)?/gm, ''],
  [/^[ \t]*(?:[-*_][ \t]*){3,}$/gm, ''], // horizontal rules
  [/(\*\*|__)(?=\S)([^\n]*?\S)\1/g, '$2'],
  [/(^|[^\w*])\*(?=\S)([^*\n]*?\S)\*(?![\w*])/g, '$1$2'],
  [/(^|[^\w])_(?=\S)([^_\n]*?\S)_(?!\w)/g, '$1$2'],
  [/~~(?=\S)([^~\n]*?\S)~~/g, '$1'],
  [/^\|?[ \t]*:?-{3,}:?[ \t]*(?:\|[ \t]*:?-{3,}:?[ \t]*)*\|?$/gm, ''], // table rules
  [/\|/g, ' '],
];

/** `text` without markdown syntax; whitespace runs (newlines too) become one space, ends kept. */
export function stripMarkdown(text: string): string {
  let out = text;
  for (const [re, to] of RULES) out = out.replace(re, to);
  return out.replace(/\s+/g, ' ');
}
