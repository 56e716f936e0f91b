// Adapter for pi (badlogic/pi-mono coding agent) session files:
// `~/.pi/agent/sessions/--<cwd>--/<timestamp>_<sessionId>.jsonl`, one JSON object per line.
// Line 1 is the header {type:"session", version?, id, timestamp, cwd, parentSession?|branchedFrom?}.
// v2/v3 entries carry id/parentId and form a tree (branching appends children to an earlier
// entry; the active leaf is the newest entry). v1 files have no ids and are linear.
//
// Ids and the tree, as the store sees them:
// - v2/v3 records use pi's entry ids; v1 records get `#<index>`, index being the entry's position
//   among the file's JSON lines with the header at 0. That is exactly what v1's
//   `firstKeptEntryIndex` counts (pi's v1→v2 migration does `entries[firstKeptEntryIndex]` over
//   all file entries, header included), so `#<firstKeptEntryIndex>` names the right record.
// - One pi entry may yield several records (assistant: thinking, text, tool calls). pi's id goes
//   on the LAST of them, the others get `<id>#1`, `<id>#2`… chained parent→child in order. Children
//   of the pi entry name its id as parent, so they hang below all of its records and a walk up
//   from any leaf passes through every record of every entry on the path.
// - Entries that yield no record (model_change, label, session_info…) still sit in pi's tree.
//   Their children are re-parented to their nearest ancestor that has a record (see Redirect).
// - After each entry the parser sends the leaf it implies (pi's leaf is the newest entry), only
//   when it changed. A `leaf` entry type (targetId) is honoured too, for forward compatibility.
import { join } from 'node:path';
import type { LineAdapter, ConversationMeta, EntryRecord, IngestOp, LineParser } from '../types.js';
import { LineError } from '../types.js';
import { preview, sessionIdFromPath, SUMMARY_MAX, titleFromText } from './pi-content.js';
import { piTypeName, toPiEntry, type PiEntry } from './pi-shapes.js';
import { isObject } from './text.js';
import { entryResult, type Draft, type EntryResult } from './pi-records.js';
import {
  initialState,
  loadState,
  MAX_PENDING,
  MAX_REDIRECTS,
  setCapped,
  type PiState,
  type Redirect,
} from './pi-state.js';

/** A session_info name is chosen by the user; the first user message is a guess. */
export const TITLE_RANK_NAME = 3;
export const TITLE_RANK_FIRST_MESSAGE = 1;

/** An entry's place in pi's tree, before any redirect: its own id and its parent's. */
interface RawIds {
  id: string;
  parent: string | null;
}

export class PiParser implements LineParser {
  private readonly s: PiState;
  private readonly pending: Map<string, EntryRecord>;
  private readonly redirects: Map<string, Redirect>;

  constructor(state: PiState | undefined) {
    this.s = state ? { ...state } : initialState();
    this.pending = new Map(this.s.pending);
    this.redirects = new Map(this.s.redirects.map(([k, v]) => [k, { ...v }]));
  }

  state(): PiState {
    // Copies: fillForward mutates redirects in place after this state was taken.
    const redirects = [...this.redirects].map(([k, v]): [string, Redirect] => [k, { ...v }]);
    return { ...this.s, pending: [...this.pending], redirects };
  }

  line(text: string): IngestOp[] {
    // pi drops blank lines before indexing (split + skip), so they are not counted either.
    if (text.trim() === '') return [];
    let obj: unknown;
    try {
      obj = JSON.parse(text);
    } catch {
      throw new LineError('pi: line is not valid JSON');
    }
    // pi's v1 index counts every line that parses, whatever it holds: count before checking shape.
    const index = this.s.index++;
    if (!isObject(obj)) throw new LineError('pi: line is not a JSON object');
    const entry = toPiEntry(obj);
    if (!entry) throw new LineError('pi: entry has no "type" field');
    if (entry.type === 'session') return this.header(entry);
    // Without a header there is no session id, hence no conversation key. pi itself refuses such
    // files (loadEntriesFromFile returns nothing), so each entry is reported rather than guessed.
    const conv = this.s.conv;
    if (conv === undefined) throw new LineError(`pi: "${piTypeName(entry)}" entry before the session header`);
    return this.entry(conv, entry, index);
  }

  private header(header: Extract<PiEntry, { type: 'session' }>): IngestOp[] {
    // pi reads the first header only; a later one (a bad append) changes nothing.
    if (this.s.conv !== undefined) return [];
    const id = header.id;
    if (!id) throw new LineError('pi: session header has no id');
    this.s.conv = id;
    this.s.version = header.version ?? 1;
    const createdAt = header.timestamp;
    this.s.updatedAt = createdAt;
    const meta: ConversationMeta = { sessionId: id, workspace: header.cwd, createdAt, updatedAt: createdAt };
    // v2+ forks name their parent file in parentSession; v1 branches used branchedFrom.
    const parentPath = header.parentSession ?? header.branchedFrom;
    const parentKey = parentPath ? sessionIdFromPath(parentPath) : undefined;
    if (parentKey && parentKey !== id) meta.parentKey = parentKey;
    return [{ op: 'conversation', conv: id, meta }];
  }

  private entry(conv: string, entry: PiEntry, index: number): IngestOp[] {
    const raw = this.rawIds(entry, index);
    const result = entryResult(entry);
    // pi writes every tool result before the next user prompt, so calls still pending then (an
    // aborted turn) never settle: forget them to keep the state small.
    if (result.userText !== undefined) this.pending.clear();
    if (result.firstKept && result.drafts[0]) result.drafts[0].firstKeptSourceId = this.firstKept(result.firstKept);
    const ops: IngestOp[] = this.place(result.drafts, raw).map((entry) => ({ op: 'entry', conv, entry }));
    const settled = this.settle(result);
    if (settled) ops.push({ op: 'entry', conv, entry: settled });
    const leaf = entry.type === 'leaf' ? this.resolveBack(entry.targetId ?? null) : this.resolveBack(raw.id);
    if (leaf !== null && leaf !== this.s.leaf) {
      this.s.leaf = leaf;
      ops.push({ op: 'leaf', conv, sourceId: leaf });
    }
    const meta = this.meta(entry, result);
    if (meta) ops.push({ op: 'conversation', conv, meta });
    this.s.prevRaw = raw.id;
    return ops;
  }

  private rawIds(entry: PiEntry, index: number): RawIds {
    const id = entry.id;
    if (this.s.version >= 2 && id) return { id, parent: entry.parentId ?? null };
    // Linear file (v1), or an entry that lost its id: chain to the previous entry, as pi's
    // v1→v2 migration does.
    return { id: `#${index}`, parent: this.s.prevRaw ?? null };
  }

  /** Give drafts their seq, source ids and parent chain (see the file comment). */
  private place(drafts: Draft[], raw: RawIds): EntryRecord[] {
    const parent = this.resolveBack(raw.parent);
    if (drafts.length === 0) {
      const up = raw.parent !== null && this.isSkipped(raw.parent) ? raw.parent : undefined;
      setCapped(this.redirects, raw.id, { back: parent, up }, MAX_REDIRECTS);
      return [];
    }
    const last = drafts.length - 1;
    const ids = drafts.map((_, i) => (i === last ? raw.id : `${raw.id}#${i + 1}`));
    this.fillForward(raw.parent, ids[0]);
    if (last > 0) setCapped(this.redirects, raw.id, { fwd: ids[0] }, MAX_REDIRECTS);
    return drafts.map(({ callId, ...draft }, i) => {
      const parentSourceId = i === 0 ? (parent ?? undefined) : ids[i - 1];
      const rec: EntryRecord = { ...draft, seq: this.s.seq++, sourceId: ids[i], parentSourceId };
      if (callId) setCapped(this.pending, callId, rec, MAX_PENDING);
      return rec;
    });
  }

  /** A toolResult settles its call: the call's record is re-emitted (same seq) with the status. */
  private settle(result: EntryResult): EntryRecord | undefined {
    if (!result.settles) return undefined;
    const call = this.pending.get(result.settles.callId);
    if (!call) return undefined;
    this.pending.delete(result.settles.callId);
    return { ...call, toolStatus: result.settles.status };
  }

  private isSkipped(id: string): boolean {
    return this.redirects.get(id)?.back !== undefined;
  }

  /** Where a child of `id` hangs: `id` itself, or for a skipped entry its nearest recorded ancestor. */
  private resolveBack(id: string | null): string | null {
    if (id === null) return null;
    const r = this.redirects.get(id);
    return r && r.back !== undefined ? r.back : id;
  }

  /** The first record now exists below skipped ancestors that had none: remember it as theirs. */
  private fillForward(parent: string | null, first: string): void {
    let cur: string | undefined = parent ?? undefined;
    while (cur !== undefined) {
      const r = this.redirects.get(cur);
      if (!r || r.back === undefined || r.fwd !== undefined) return;
      r.fwd = first;
      cur = r.up;
    }
  }

  private firstKept(target: { id: string } | { index: number }): string | undefined {
    let id: string;
    if ('id' in target) id = target.id;
    else if (target.index >= 1) id = `#${target.index}`;
    else return undefined; // index 0 is the header: pi ignores it too
    return this.redirects.get(id)?.fwd ?? id;
  }

  private meta(entry: PiEntry, result: EntryResult): ConversationMeta | undefined {
    const meta: ConversationMeta = {};
    const ts = entry.timestamp;
    if (ts !== undefined && (this.s.updatedAt === undefined || ts > this.s.updatedAt)) {
      this.s.updatedAt = ts;
      meta.updatedAt = ts;
    }
    if (result.name) {
      meta.title = result.name;
      meta.titleRank = this.s.titleRank = TITLE_RANK_NAME;
    } else if (result.userText !== undefined && this.s.titleRank < TITLE_RANK_FIRST_MESSAGE) {
      const title = titleFromText(result.userText);
      if (title) {
        meta.title = title;
        meta.titleRank = this.s.titleRank = TITLE_RANK_FIRST_MESSAGE;
      }
    }
    if (result.summary) meta.summary = preview(result.summary, SUMMARY_MAX);
    return Object.keys(meta).length > 0 ? meta : undefined;
  }
}

/** pi expands a leading `~` in PI_CODING_AGENT_DIR itself; do the same. */
function expandHome(dir: string, home: string): string {
  if (dir === '~') return home;
  return dir.startsWith('~/') ? join(home, dir.slice(2)) : dir;
}

export const piAdapter: LineAdapter = {
  kind: 'pi',
  defaultRoots(env, home) {
    const agentDir = env.PI_CODING_AGENT_DIR;
    return [agentDir ? join(expandHome(agentDir, home), 'sessions') : join(home, '.pi', 'agent', 'sessions')];
  },
  isSessionFile: (path) => path.endsWith('.jsonl'),
  createParser: (_path, state) => new PiParser(loadState(state)),
};
