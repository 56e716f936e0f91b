// Conversation bookkeeping for the Claude Code parser: which conversation a line belongs to (the
// session, a sidechain child, or a sub-agent file's own), announcing each once, moving times and
// workspace forward, numbering entries, and titles and previews by rank.
import type { ConversationMeta, EntryRecord, IngestOp } from '../types.js';
import { subagentParent, type FileInfo } from './claude-code-content.js';
import { newConv, SUMMARY_CAP, type ClaudeState, type ConvState } from './claude-code-state.js';
import type { ClaudeLine } from './claude-code-shapes.js';
import { preview, putCapped, SUMMARY_MAX, TITLE_MAX } from './text.js';

// Title ranks (ConversationMeta.titleRank): the user's own name beats Claude's generated title,
// which beats a summary line, which beats the first prompt.
export const RANK = { custom: 4, ai: 3, summary: 2, prompt: 1 } as const;

/** What every entry of one line shares. */
export interface LineCtx {
  conv: string;
  cs: ConvState;
  uuid?: string;
  parentUuid?: string;
  ts?: number;
  lineNo: number;
}

export class Conversations {
  /** Ops of the line being parsed. */
  ops: IngestOp[] = [];

  constructor(
    /** The parser's state, shared: this class owns key, parent, convs, summaries and last. */
    readonly s: ClaudeState,
    private readonly info: FileInfo,
    private readonly agentType: string | undefined,
  ) {}

  /**
   * The file's own conversation: a sub-agent file's `<session>/agent-<id>` (child of its session),
   * else the session id. It is announced only when something goes into it, because a conversation
   * op also claims the conversation for this file, and a file of sidechain lines only must not
   * claim its parent session.
   */
  private fileConv(line: ClaudeLine): string {
    if (this.s.key === undefined) {
      const lineSession = line.sessionId;
      if (this.info.agentId !== undefined) {
        this.s.parent = subagentParent(this.info, lineSession);
        this.s.key = `${this.s.parent}/agent-${this.info.agentId}`;
      } else {
        this.s.key = this.info.sessionId ?? lineSession ?? this.info.stem;
      }
    }
    return this.s.key;
  }

  /**
   * The conversation a line belongs to. Sidechain lines inside a main file are a sub-agent's: they
   * go to a child keyed by their agentId. A sub-agent file is all sidechain.
   */
  private route(line: ClaudeLine): string {
    const key = this.fileConv(line);
    if (this.info.agentId !== undefined || !line.isSidechain) {
      this.ensure(key, this.s.parent);
      return key;
    }
    const agentId = line.agentId;
    const child = agentId ? `${key}/agent-${agentId}` : `${key}/sidechain`;
    this.ensure(child, key);
    return child;
  }

  /** Creates a conversation's state and announces its identity once. */
  private ensure(key: string, parent?: string): ConvState {
    let cs = this.s.convs[key];
    if (!cs) {
      cs = newConv(parent);
      this.s.convs[key] = cs;
    }
    if (!cs.announced) {
      cs.announced = true;
      const meta: ConversationMeta = { sessionId: key };
      if (parent !== undefined) Object.assign(meta, { parentKey: parent, isSubagent: true });
      if (key === this.s.key && this.agentType) Object.assign(meta, { title: this.agentType, titleRank: RANK.summary });
      if (meta.titleRank) cs.titleRank = meta.titleRank;
      this.meta(key, meta);
    }
    return cs;
  }

  meta(conv: string, meta: ConversationMeta): void {
    this.ops.push({ op: 'conversation', conv, meta });
  }

  /** Context for a message line, moving the conversation's times and workspace forward. */
  ctx(line: ClaudeLine, lineNo: number): LineCtx {
    const conv = this.route(line);
    const cs = this.s.convs[conv]!;
    const ctx: LineCtx = { conv, cs, uuid: line.uuid, parentUuid: line.parentUuid, ts: line.timestamp, lineNo };
    const meta: ConversationMeta = {};
    if (ctx.ts !== undefined && cs.createdAt === undefined) meta.createdAt = cs.createdAt = ctx.ts;
    if (ctx.ts !== undefined && ctx.ts > (cs.updatedAt ?? -Infinity)) meta.updatedAt = cs.updatedAt = ctx.ts;
    // The workspace is the latest line's cwd (sessions can move, e.g. into a worktree).
    if (line.cwd !== undefined && line.cwd !== cs.cwd) meta.workspace = cs.cwd = line.cwd;
    if (Object.keys(meta).length > 0) this.meta(conv, meta);
    if (ctx.uuid !== undefined) {
      this.matchSummary(ctx);
      this.s.last = { uuid: ctx.uuid, conv };
    }
    return ctx;
  }

  emit(conv: string, entry: EntryRecord): void {
    this.ops.push({ op: 'entry', conv, entry });
  }

  /** A new entry of this line, with the next seq. */
  add(c: LineCtx, fields: Omit<EntryRecord, 'seq'>): EntryRecord {
    const entry: EntryRecord = { seq: c.cs.seq++, sourceId: c.uuid, parentSourceId: c.parentUuid, ts: c.ts, ...fields };
    this.emit(c.conv, entry);
    return entry;
  }

  setTitle(conv: string, cs: ConvState, title: string | undefined, rank: number): void {
    if (!title || rank < cs.titleRank) return;
    cs.titleRank = rank;
    this.meta(conv, { title, titleRank: rank });
  }

  // ---- titles and summaries ------------------------------------------------------------------

  /** custom-title and ai-title lines name the file's own conversation. */
  namedTitle(line: ClaudeLine, title: string | undefined, rank: number): void {
    const t = title?.trim();
    if (!t) return;
    const key = this.fileConv(line);
    this.setTitle(key, this.ensure(key, this.s.parent), preview(t, TITLE_MAX * 2), rank);
  }

  /**
   * `summary` lines describe the conversation ending at their leafUuid, and Claude Code often
   * writes them into other sessions' files (every summary line in the fixtures points outside its
   * own file). So a summary is only used once its leaf shows up in this file; until then it waits.
   */
  summaryLine(line: Extract<ClaudeLine, { type: 'summary' }>): void {
    const text = line.summary?.trim();
    const leaf = line.leafUuid;
    if (!text || !leaf) return;
    const last = this.s.last;
    if (last && last.uuid === leaf) this.applySummary(last.conv, text);
    else putCapped(this.s.summaries, leaf, text, SUMMARY_CAP);
  }

  private matchSummary(c: LineCtx): void {
    const text = this.s.summaries[c.uuid!];
    if (text === undefined) return;
    delete this.s.summaries[c.uuid!];
    this.applySummary(c.conv, text);
  }

  private applySummary(conv: string, text: string): void {
    const cs = this.s.convs[conv];
    if (!cs) return;
    this.setTitle(conv, cs, preview(text, TITLE_MAX * 2), RANK.summary);
    cs.summaryRank = 2;
    cs.summaryMsg = undefined;
    this.meta(conv, { summary: preview(text, SUMMARY_MAX) });
  }
}
