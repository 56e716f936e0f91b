// search, read, inspect and suggest for a person at a terminal (see human.ts).
import type { InspectResult, ReadResult, RecallResult, SuggestResult } from '../../shared/api.js';
import { count, day, metaLine, oneLine, speaker, type Human } from './human.js';
import { columns, escapeControls } from './terminal.js';

export function searchForPerson(h: Human, query: string, r: RecallResult): string {
  const { paint } = h;
  const lines: string[] = [];
  const quoted = `“${oneLine(query, 60)}”`;
  if (!r.hits.length) return `No conversation matches ${quoted}.\n`;
  lines.push(paint.label(`${count(r.hits.length, 'conversation')} for ${quoted}`));
  // The engine's own note (how many have every word) as given.
  if (r.note) lines.push(paint.dim(escapeControls(r.note)));
  lines.push('');
  // First lines as aligned columns (id, date, agent, title); the workspace and snippet beneath.
  const ids = r.hits.map((hit) => `#${hit.id}`);
  const idWidth = Math.max(...ids.map((s) => s.length));
  const sourceWidth = Math.max(...r.hits.map((hit) => hit.source.length));
  const titleWidth = h.width - (idWidth + 2 + 10 + 2 + sourceWidth + 2);
  const head = columns(r.hits.map((hit, i) => [paint.dim(ids[i]!), paint.dim(day(hit.date)), paint.dim(hit.source), paint.title(oneLine(hit.title, titleWidth))]), [0]);
  const indent = ' '.repeat(idWidth + 2);
  r.hits.forEach((hit, i) => {
    lines.push(head[i]!);
    if (hit.workspace) lines.push(indent + paint.dim(oneLine(hit.workspace, h.width - indent.length)));
    // The engine marks matches with ** for agents (and transcripts have their own **): a person gets
    // the words themselves highlighted instead.
    const snippet = hit.snippet.replace(/\*\*/g, '').replace(/\s+/g, ' ').trim();
    if (snippet) lines.push(indent + h.highlight(snippet));
    lines.push('');
  });
  if (r.more) lines.push(paint.dim('More conversations match: raise --limit (up to 50).'));
  lines.push(paint.dim(`Read one: throughline read ${r.hits[0]!.id}`));
  return lines.join('\n') + '\n';
}

export function readForPerson(h: Human, r: ReadResult, detail: 'summary' | 'full'): string {
  const { paint } = h;
  const c = r.conversation;
  const first = r.turns[0]?.turn;
  const last = r.turns.at(-1)?.turn;
  const span = first === undefined ? 'no turns here' : first === last ? `turn ${first} of ${r.totalTurns}` : `turns ${first}–${last} of ${r.totalTurns}`;
  const out = [paint.title(oneLine(c.title, h.width)), metaLine(h, [`#${c.id}`, c.source, c.workspace, span]), ''];
  for (const t of r.turns) {
    out.push(`${speaker(h, t.role)} ${paint.dim(`· turn ${t.turn} · #${t.entry}`)}`);
    out.push(escapeControls(t.text), '');
  }
  if (last !== undefined && last < r.totalTurns) out.push(paint.dim(`More: throughline read ${c.id} --turns ${last + 1}-${r.totalTurns}`));
  if (r.truncated && detail !== 'full') out.push(paint.dim('Long turns are cut short: --detail full shows them whole.'));
  if (first === undefined) out.push(paint.dim(`The conversation has ${count(r.totalTurns, 'turn')}.`));
  return out.join('\n').replace(/\n+$/, '') + '\n';
}

export function inspectForPerson(h: Human, query: string | undefined, r: InspectResult): string {
  const { paint } = h;
  const c = r.conversation;
  const matches = r.blocks.filter((b) => b.match);
  const what = query?.trim() ? `${count(matches.length, 'matching entry', 'matching entries')} for “${oneLine(query, 60)}”` : `first ${count(r.blocks.length, 'message')}`;
  const out = [paint.title(oneLine(c.title, h.width)), metaLine(h, [`#${c.id}`, c.source, c.workspace, what])];
  if (query?.trim() && matches.length && !matches.some((b) => h.hasAll(b.text))) out.push(paint.dim('No entry has every word; these have some of them.'));
  out.push('');
  let previous: number | null = null;
  for (const b of r.blocks) {
    // A gap between windows: entries in between are not shown.
    if (previous !== null && b.entry > previous + 1) out.push(paint.dim('⋯'), '');
    const marker = b.match && query?.trim() ? paint.match('›') + ' ' : '  ';
    out.push(`${marker}${speaker(h, b.role)} ${paint.dim(`#${b.entry}`)}`);
    out.push(b.match ? h.highlight(b.text) : escapeControls(b.text), '');
    previous = b.entry;
  }
  if (r.truncated) out.push(paint.dim('Cut short: narrow the query, lower --around, or read turns with throughline read.'));
  return out.join('\n').replace(/\n+$/, '') + '\n';
}

export function suggestForPerson(h: Human, r: SuggestResult): string {
  const { paint } = h;
  // The reason is the recall engine's own words: printed as given.
  const out = [`${paint.label(`${escapeControls(r.strategy)}, ${escapeControls(r.sensitivity)}:`)} ${escapeControls(r.reason)}`, ''];
  if (r.suggestions.length) {
    const rows = [[paint.dim('score'), paint.dim('id'), paint.dim('agent'), paint.dim('conversation')]];
    for (const s of r.suggestions) rows.push([String(s.score), `#${s.id}`, s.source, paint.title(oneLine(s.title, 70))]);
    const table = columns(rows, [0, 1]);
    out.push(table[0]!);
    r.suggestions.forEach((s, i) => {
      out.push(table[i + 1]!);
      const pad = ' '.repeat(table[0]!.replace(/\x1b\[[0-9;]*m/g, '').indexOf('conversation'));
      if (s.workspace) out.push(pad + paint.dim(oneLine(s.workspace, h.width - pad.length)));
      // Every signal shown, wrapped rather than cut; one that lowers the score reads with a minus,
      // as in the pointer block (not "+-1.5").
      const signals = s.signals.map((g) => `${g.name}${g.detail ? ` ${g.detail}` : ''} ${g.points < 0 ? '-' : '+'}${Math.abs(g.points)}`);
      for (const line of wrapParts(signals, ' · ', h.width - pad.length)) out.push(pad + paint.dim(oneLine(line, h.width - pad.length)));
    });
    out.push('');
  }
  if (r.salientTerms?.length) out.push(`${paint.label('Distinctive words:')} ${escapeControls(r.salientTerms.join(', '))}`, '');
  if (r.block) out.push(paint.label('What an agent would get:'), paint.dim(escapeControls(r.block)));
  return out.join('\n').replace(/\n+$/, '') + '\n';
}

/** Parts joined by the separator into lines of at most `width` characters (a longer part alone on its line). */
function wrapParts(parts: readonly string[], separator: string, width: number): string[] {
  const lines: string[] = [];
  for (const part of parts) {
    const last = lines.at(-1);
    if (last !== undefined && last.length + separator.length + part.length <= width) lines[lines.length - 1] = last + separator + part;
    else lines.push(part);
  }
  return lines;
}
