// history search and history read for a person at a terminal (see human.ts).
import type { HistoryReadResult, HistorySearchResult } from '../../shared/api.js';
import { count, speaker, type Human } from './human.js';
import { columns, escapeControls } from './terminal.js';

export function historySearchForPerson(h: Human, conversation: string, query: string, before: number | undefined, r: HistorySearchResult): string {
  const { paint } = h;
  const where = before !== undefined ? `, before entry #${before}` : r.boundary === null ? '' : `, before its context boundary (entry #${r.boundary})`;
  const out = [paint.label(`${count(r.hits.length, 'entry', 'entries')} for “${escapeControls(query)}” in conversation ${escapeControls(conversation)}${where}`)];
  if (r.note) out.push(paint.dim(escapeControls(r.note)));
  out.push('');
  const rows = r.hits.map((hit) => [paint.dim(`#${hit.entry}`), speaker(h, hit.role, hit.author), h.highlight(hit.snippet.replace(/\s+/g, ' ').trim())]);
  out.push(...columns(rows, [0]));
  if (r.more) out.push('', paint.dim('More entries match: raise --limit (up to 20).'));
  if (r.hits.length) out.push('', paint.dim(`Read around one: throughline history read --conversation ${escapeControls(conversation)} --items ${r.hits[0]!.entry}`));
  return out.join('\n').replace(/\n+$/, '') + '\n';
}

export function historyReadForPerson(h: Human, conversation: string, r: HistoryReadResult): string {
  const { paint } = h;
  const out: string[] = [];
  if (!r.entries.length) out.push(paint.dim('No entries here.'));
  let previous: number | null = null;
  for (const e of r.entries) {
    if (previous !== null && e.entry > previous + 1) out.push(paint.dim('⋯'), '');
    out.push(`${speaker(h, e.role, e.author)} ${paint.dim(`#${e.entry}`)}`);
    out.push(e.tool ? paint.dim(`tool call ${escapeControls(e.tool.name)}: ${escapeControls(e.tool.status)}`) : escapeControls(e.text), '');
    previous = e.entry;
  }
  if (r.truncated) out.push(paint.dim('Cut short at 50 KB.'));
  if (r.next) out.push(paint.dim(`More: throughline history read --conversation ${escapeControls(conversation)} --cursor ${escapeControls(r.next)}`));
  return out.join('\n').replace(/\n+$/, '') + '\n';
}
