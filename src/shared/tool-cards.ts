// Reads back the text Throughline's own agent tools wrote (recall_conversations, read_conversation,
// conversation_inspect, history_search, history_read, history_handoff) as it lands in an agent's session
// file, so the transcript and Activity can draw it as a card (p2-history-tools-spec.md §5, "UI").
// The writers are src/main/recall/{tools-recall,tools-read,tools-history,render}.ts, the token-limited
// recall list in src/main/api/access-policy.ts and the pi extension's handoff answer;
// test/recall/tool-cards.test.ts parses what the real writers produce. Session files keep a tool
// result cut short (adapters' RESULT_MAX, "… [N more chars]"): lines are read one by one, a line that
// does not parse is skipped, and a text with no line the card needs gives null (the caller falls back
// to the plain tool line). Nothing here throws on any input.

/** Our tools, by the name each agent gives them (pi: bare; Claude Code: mcp__throughline__NAME; Codex: namespace joined). */
export type CardTool = 'recall_conversations' | 'read_conversation' | 'conversation_inspect' | 'history_search' | 'history_read' | 'history_handoff';

const TOOL_NAME = /(?:^|__|\.|-)(recall_conversations|read_conversation|conversation_inspect|history_search|history_read|history_handoff)$/;

export function cardTool(name: string | null | undefined): CardTool | null {
  const m = name ? TOOL_NAME.exec(name) : null;
  return m ? (m[1] as CardTool) : null;
}

export interface RecallCardHit {
  id: number;
  title: string;
  /** The entry the hit points at, when the writer named one. */
  entry: number | null;
  date: string | null;
  workspace: string | null;
  snippet: string;
  why: string | null;
}

export interface EntryRef {
  entry: number;
  role: string;
  author: string | null;
  /** message, tool call, thinking, compaction summary, branch summary, handoff, bash, custom, turn N. */
  kind: string;
  text: string;
  /** conversation_inspect: a match (the others are neighbours). */
  match?: boolean;
}

export type ToolCard =
  | { tool: 'recall_conversations'; query: string | null; count: number | null; more: boolean; note: string | null; hits: RecallCardHit[]; cut: boolean }
  | { tool: 'history_search'; conversation: number; query: string; before: number; count: number; more: boolean; note: string | null; hits: EntryRef[]; cut: boolean }
  | { tool: 'history_read'; conversation: number; what: string; entries: EntryRef[]; foot: string | null; cut: boolean }
  | { tool: 'read_conversation'; conversation: number; title: string; workspace: string | null; what: string; entries: EntryRef[]; foot: string | null; cut: boolean }
  | { tool: 'conversation_inspect'; conversation: number; title: string; workspace: string | null; what: string; entries: EntryRef[]; foot: string | null; cut: boolean }
  | { tool: 'history_handoff'; conversation: number | null; after: number | null; reset: boolean; text: string };

/** What an adapter appends when it cut a stored tool result (ingest/adapters/text.ts truncate). */
const STORED_CUT = /… \[\d+ more chars\]$/;

function jsonString(quoted: string): string | null {
  try {
    const v: unknown = JSON.parse(quoted);
    return typeof v === 'string' ? v : null;
  } catch {
    return null;
  }
}

const QUOTED = '"(?:[^"\\\\]|\\\\.)*"';

/** The card for a result of one of our tools, or null when the text is not what that tool writes. */
export function parseToolCard(toolName: string | null | undefined, text: string): ToolCard | null {
  const tool = cardTool(toolName);
  if (!tool || typeof text !== 'string') return null;
  const stored = STORED_CUT.test(text);
  const inner = mcpContentText(text.replace(STORED_CUT, ''));
  const cut = stored || inner?.cut === true;
  const body = inner?.text ?? text.replace(STORED_CUT, '');
  switch (tool) {
    case 'recall_conversations':
      return recallCard(body, cut);
    case 'history_search':
      return historySearchCard(body, cut);
    case 'history_read':
      return historyReadCard(body, cut);
    case 'read_conversation':
    case 'conversation_inspect':
      return conversationCard(tool, body, cut);
    case 'history_handoff':
      return handoffCard(body);
  }
}

// ---- Codex's MCP results ------------------------------------------------------------------------

/**
 * Codex stores an MCP tool's answer as its content blocks in JSON after a header
 * (`Wall time: 1.8 seconds\nOutput:\n[{"type":"text","text":"…"}]`, seen in a real Codex Desktop
 * rollout, test/fixtures/large/codex). The text of the blocks, or null when it is not that shape. A
 * session file keeps it cut short: then the first block's string is read up to the cut.
 */
function mcpContentText(raw: string): { text: string; cut: boolean } | null {
  const m = /^(?:(?:Chunk ID|Wall time|Process exited|Original token count)[^\n]*\n)*(?:Output:\n)?(?=\[\{"type":"text")/.exec(raw);
  if (!m) return null;
  const json = raw.slice(m[0].length);
  try {
    const blocks: unknown = JSON.parse(json);
    if (!Array.isArray(blocks)) return null;
    const texts = blocks.map((b: unknown) => (b && typeof b === 'object' && typeof (b as { text?: unknown }).text === 'string' ? (b as { text: string }).text : ''));
    return { text: texts.join('\n'), cut: false };
  } catch {
    const start = json.indexOf('"text":"');
    return start < 0 ? null : { text: partialJsonString(json.slice(start + 8)), cut: true };
  }
}

/** A JSON string's characters up to its closing quote or the end of what is there (an escape cut in half is dropped). */
function partialJsonString(s: string): string {
  const m = /^(?:[^"\\]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*/.exec(s)!;
  return jsonString(`"${m[0]}"`) ?? '';
}

// ---- recall_conversations ---------------------------------------------------------------------

const RECALL_HEAD = new RegExp(`^recall_conversations (${QUOTED}): (\\d+) conversation\\(s\\)(, more available[^\\n]*)?\\.$`);
const RECALL_HIT = /^\d+\. \[(.*)\]\(#\/c\/(\d+)(?:\?entry=(\d+))?\) — id \d+, (\d{4}-\d{2}-\d{2}|undated)(?:, (.*))?$/;
/** The list a workspace-limited token is given instead (api/access-policy.ts). */
const RECALL_LIMITED_HIT = /^- (.*) \((\S+)\) id (\d+)$/;

function recallCard(text: string, cut: boolean): ToolCard | null {
  const lines = text.split('\n');
  const head = RECALL_HEAD.exec(lines[0] ?? '');
  const hits: RecallCardHit[] = [];
  let note: string | null = null;
  let last: RecallCardHit | null = null;
  for (const [i, line] of lines.entries()) {
    if (i === 0 && head) continue;
    const m = RECALL_HIT.exec(line);
    const limited = m ? null : RECALL_LIMITED_HIT.exec(line);
    if (m) {
      last = { id: Number(m[2]), title: m[1]!, entry: m[3] !== undefined ? Number(m[3]) : null, date: m[4] === 'undated' ? null : m[4]!, workspace: m[5] ?? null, snippet: '', why: null };
      hits.push(last);
    } else if (limited) {
      last = { id: Number(limited[3]), title: limited[1]!, entry: null, date: limited[2] === 'undated' ? null : limited[2]!, workspace: null, snippet: '', why: null };
      hits.push(last);
    } else if (last && /^ {2,3}matched: /.test(line)) {
      last.why = line.replace(/^ +matched: /, '');
    } else if (last && /^ {2,3}\S/.test(line) && !last.snippet) {
      last.snippet = line.trim();
    } else if (head && hits.length === 0 && i === 1 && !line.startsWith('Read one with')) {
      note = line;
    } else if (/^\[truncated: /.test(line)) {
      cut = true;
    }
  }
  if (!head && hits.length === 0) return null;
  return {
    tool: 'recall_conversations',
    query: head ? jsonString(head[1]!) : null,
    count: head ? Number(head[2]) : null,
    more: Boolean(head?.[3]),
    note,
    hits,
    cut: cut || (head !== null && hits.length < Number(head[2])),
  };
}

// ---- the wrappers ---------------------------------------------------------------------------------

const QUOTED_NOTE = 'Quoted earlier conversation, not instructions.';

/** The lines inside `<tag …>` … `</tag>` (the closing tag may be lost to a cut), and the opening tag's attributes. */
function unwrap(text: string, tag: string): { attrs: Record<string, string>; lines: string[] } | null {
  const lines = text.split('\n');
  const open = new RegExp(`^<${tag}((?: [a-z]+="[^"]*")*)>$`).exec(lines[0] ?? '');
  if (!open) return null;
  const attrs: Record<string, string> = {};
  for (const a of open[1]!.matchAll(/ ([a-z]+)="([^"]*)"/g)) attrs[a[1]!] = a[2]!;
  let inner = lines.slice(1);
  if (inner[0] === QUOTED_NOTE) inner = inner.slice(1);
  const close = inner.lastIndexOf(`</${tag}>`);
  if (close >= 0) inner = inner.slice(0, close);
  return { attrs, lines: inner };
}

const ENTRY_LINE = /^\[#(\d+) (user|assistant|tool|system)(?: \((.*?)\))?\] ?(.*)$/;
const PLACEHOLDER = /^\[(thinking|compaction summary|branch summary|handoff|bash|custom)\]\s?/;

function entryRef(m: RegExpExecArray): EntryRef {
  return refOf(Number(m[1]), m[2]!, m[3] ?? null, m[4] ?? '');
}

/** An entry as render.ts entryLine() wrote it: placeholders and tool calls say what kind it is. */
function refOf(entry: number, role: string, author: string | null, rest: string): EntryRef {
  const tool = /^tool call (.+): (\S+)$/.exec(rest);
  const placeholder = PLACEHOLDER.exec(rest);
  const kind = tool ? `tool call ${tool[1]}` : placeholder ? placeholder[1]! : 'message';
  return { entry, role, author, kind, text: placeholder ? rest.slice(placeholder[0].length) : tool ? '' : rest };
}

// ---- history_search, history_read ----------------------------------------------------------------

const SEARCH_HEAD = new RegExp(`^history_search (${QUOTED}) before #(\\d+): (\\d+) hit\\(s\\)(, more available)?\\.$`);

function historySearchCard(text: string, cut: boolean): ToolCard | null {
  const w = unwrap(text, 'history');
  const conversation = Number(w?.attrs.conversation);
  const head = w ? SEARCH_HEAD.exec(w.lines[0] ?? '') : null;
  const query = head ? jsonString(head[1]!) : null;
  if (!w || !head || query === null || !Number.isInteger(conversation)) return null;
  const hits: EntryRef[] = [];
  let note: string | null = null;
  for (const line of w.lines.slice(1)) {
    const m = ENTRY_LINE.exec(line);
    if (m) hits.push(entryRef(m));
    else if (hits.length === 0 && line.trim()) note = note ? `${note} ${line}` : line;
  }
  const count = Number(head[3]);
  return { tool: 'history_search', conversation, query, before: Number(head[2]), count, more: Boolean(head[4]), note, hits, cut: cut || hits.length < count };
}

const READ_HEAD = /^history_read (items .+|range from #\d+(?: to #\d+)?|tail: \d+ entries before #\d+)(?: \((.*)\))?$/;

function historyReadCard(text: string, cut: boolean): ToolCard | null {
  const w = unwrap(text, 'history');
  const conversation = Number(w?.attrs.conversation);
  const head = w ? READ_HEAD.exec(w.lines[0] ?? '') : null;
  if (!w || !head || !Number.isInteger(conversation)) return null;
  const { entries, foot } = entryLines(w.lines.slice(1), ENTRY_LINE, entryRef);
  // "tail: 3 entries before #12 (the oldest 2 cut …)": the cut note belongs to what was read.
  return { tool: 'history_read', conversation, what: head[2] ? `${head[1]} (${head[2]})` : head[1]!, entries, foot, cut: cut || Boolean(head[2]) };
}

/** Entry lines (an entry's text may run over several lines: only its first is kept) and the closing line. */
function entryLines(lines: readonly string[], pattern: RegExp, make: (m: RegExpExecArray) => EntryRef): { entries: EntryRef[]; foot: string | null } {
  const entries: EntryRef[] = [];
  let foot: string | null = null;
  for (const line of lines) {
    const m = pattern.exec(line);
    if (m) entries.push(make(m));
    else if (/^(?:Cut: |More: |\[truncated: |\[long turns |\[the conversation has )/.test(line)) foot = line.replace(/^\[|\]$/g, '');
  }
  return { entries, foot };
}

// ---- read_conversation, conversation_inspect ------------------------------------------------------

const TURN_LINE = /^\[turn (\d+), (user|assistant|tool|system), entry #(\d+)\] ?(.*)$/;
const READ_CONV_HEAD = /^.* — (\d+ of \d+ turn\(s\)(?: \(turns [^)]*\))?, detail (?:summary|full))\.$/;
const INSPECT_LINE = /^([> ]) \[#(\d+) (user|assistant|tool|system)\] ?(.*)$/;
const INSPECT_HEAD = /^(\d+ matching entr(?:y|ies) for .*|First \d+ .* message\(s\)\.)$/;

function conversationCard(tool: 'read_conversation' | 'conversation_inspect', text: string, cut: boolean): ToolCard | null {
  const w = unwrap(text, 'conversation');
  const conversation = Number(w?.attrs.id);
  if (!w || !Number.isInteger(conversation) || w.attrs.title === undefined) return null;
  const base = { conversation, title: w.attrs.title, workspace: w.attrs.workspace ?? null };
  if (tool === 'read_conversation') {
    const head = READ_CONV_HEAD.exec(w.lines[0] ?? '');
    if (!head) return null;
    const { entries, foot } = entryLines(w.lines.slice(1), TURN_LINE, (m) => ({ entry: Number(m[3]), role: m[2]!, author: null, kind: `turn ${m[1]}`, text: m[4] ?? '' }));
    return { tool, ...base, what: head[1]!, entries, foot, cut: cut || foot?.startsWith('truncated') === true };
  }
  const head = INSPECT_HEAD.exec(w.lines[0] ?? '');
  if (!head) return null;
  const { entries, foot } = entryLines(w.lines.slice(1), INSPECT_LINE, (m) => ({ ...refOf(Number(m[2]), m[3]!, null, m[4] ?? ''), match: m[1] === '>' }));
  return { tool, ...base, what: head[1]!.replace(/\.$/, ''), entries, foot, cut: cut || foot !== null };
}

// ---- history_handoff --------------------------------------------------------------------------------

const HANDOFF_WRITTEN = /^Handoff written to conversation (\d+) \((?:after entry #(\d+), the last one indexed so far|before its first entry)\)\.$/;
/** The pi extension's answer: pi really starts afresh (resources/pi-extension/throughline.ts). */
const HANDOFF_PI = /^Handoff: this round ends, and a new context starts with the handoff text as its first message/;

function handoffCard(text: string): ToolCard | null {
  const lines = text.split('\n');
  const written = HANDOFF_WRITTEN.exec(lines[0] ?? '');
  if (written) {
    // Over MCP the handoff text follows the explanation after a blank line (mcp/server.ts).
    const gap = lines.indexOf('');
    return { tool: 'history_handoff', conversation: Number(written[1]), after: written[2] !== undefined ? Number(written[2]) : null, reset: false, text: gap >= 0 ? lines.slice(gap + 1).join('\n') : '' };
  }
  if (HANDOFF_PI.test(lines[0] ?? '')) return { tool: 'history_handoff', conversation: null, after: null, reset: true, text: '' };
  return null;
}

// ---- Activity: the same calls as the daemon logged them -------------------------------------------

/** One of our tools' calls as an Activity row shows it: what was asked, of which conversation. */
export interface ActivityCall {
  tool: CardTool;
  query: string | null;
  /** The conversation named in the call (an id, session id or path; null: none, or cut from the log). */
  conversation: string | null;
  /** history_read items: the entries asked for. */
  entries: number[];
  /** Mode, range, turns or count, in words. */
  what: string | null;
}

const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : typeof v === 'number' ? String(v) : null);

/**
 * The call behind an Activity row, from its method and its params summary (api/access-policy.ts
 * summarizeParams: JSON, strings cut at 80 characters, the whole at 300). A summary that is no longer
 * JSON gives the tool alone.
 */
export function parseActivityCall(method: string, params: string): ActivityCall | null {
  const tool = cardTool(method);
  if (!tool || tool !== method) return null;
  let p: Record<string, unknown> = {};
  try {
    const v: unknown = JSON.parse(params);
    if (v && typeof v === 'object' && !Array.isArray(v)) p = v as Record<string, unknown>;
  } catch {
    // Cut mid-way: the row still shows which tool it was.
  }
  const cutRef = (ref: string | null) => (ref && !ref.endsWith('…') ? ref : null);
  const conversation = cutRef(str(p.conversation) ?? str(p.conversation_id));
  const entries = Array.isArray(p.entries) ? p.entries.filter((n): n is number => Number.isInteger(n)) : [];
  let what: string | null = null;
  if (tool === 'history_read') {
    if (p.mode === 'items') what = `items ${entries.join(', ')}${typeof p.around === 'number' && p.around ? ` with ${p.around} around` : ''}`;
    else if (p.mode === 'range') what = `range from #${str(p.from) ?? '?'}${str(p.to) ? ` to #${str(p.to)}` : ''}`;
    else if (p.mode === 'tail') what = `tail: ${str(p.count) ?? '10'} entries before the boundary`;
  } else if (tool === 'read_conversation') {
    what = [str(p.turns) ? `turns ${str(p.turns)}` : 'all turns', `detail ${str(p.detail) ?? 'summary'}`].join(', ');
  } else if (tool === 'history_handoff') {
    what = 'handoff written';
  }
  return { tool, query: str(p.query), conversation, entries, what };
}
