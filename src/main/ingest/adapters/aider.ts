// Aider adapter. Aider appends its chat to `.aider.chat.history.md` at the root of the repository it
// runs in (`--chat-history-file` names another): every run starts a session with a header line (see
// aider-lines.ts for the format). Each session with something the user typed is one conversation,
// keyed by the file and its start time; sessions of only Aider's own output (a `--lint` run, a run
// stopped before the first prompt) are not kept. The file is appended, never rewritten: it is read
// from its last offset, and the turn still being written is stored as it stands (unfinished) and
// replaced as it grows. Lines carry no times: a conversation starts at its header's time and was last
// active, for the file's last session, when the file was last written. Aider has no fixed folder:
// core.ts finds the history files in the workspaces the index knows, and folders added as sources
// are walked for them.
import fs from 'node:fs';
import path from 'node:path';
import { LineError, type ConversationMeta, type EntryRecord, type IngestOp, type LineAdapter, type LineParser } from '../types.js';
import { classify, continues, splitThinking, thinkingTag, toolOf, userKind } from './aider-lines.js';
import { baseName, isObject, preview, RESULT_MAX, TITLE_MAX, titleFromText } from './text.js';
import { Stateful } from './stateful.js';

export const AIDER_HISTORY = '.aider.chat.history.md';

/** A block longer than this is stored as it is and continued in a new entry: the state stays small. */
const BLOCK_MAX = 256 * 1024;

type BlockRole = 'user' | 'assistant' | 'note';

interface Block {
  role: BlockRole;
  seq: number;
  lines: string[];
  chars: number;
  /** Characters of a note past RESULT_MAX: counted, not kept (a note is stored cut, as tool results are). */
  dropped?: number;
  /** A note whose last line had no line break: the lines after it are still Aider's output. */
  open?: boolean;
  /** The reasoning tag a reply opened with (its reasoning and its answer are two entries). */
  think?: string;
  /** A note that is what a tool command printed (its result), named by the tool. */
  tool?: string;
}

interface Session {
  key: string;
  /** Header time (ms); none for lines before the file's first header. */
  at?: number;
  legacy: boolean;
  announced: boolean;
  next: number;
  /** Rank of the title given so far: -1 none, 0 from a command, 1 from a prompt. */
  titled: number;
  /** Aider's notes before the first input: stored once the session has one. */
  held: Block[];
}

interface AiderState {
  v: 'aider-1';
  /** The last line read (blank lines are not given to the parser: the gap says how many there were). */
  last: number;
  session?: Session;
  block?: Block;
  /** The tool the last block ran (an input such as `/run make`): Aider's notes after it are its output. */
  ran?: string;
  /** The last header's time, and how many headers had it (two runs started in the same second). */
  stamp?: string;
  repeats: number;
}

function restore(raw: unknown): AiderState {
  if (isObject(raw) && raw.v === 'aider-1' && typeof raw.last === 'number' && typeof raw.repeats === 'number') {
    return structuredClone(raw) as unknown as AiderState;
  }
  return { v: 'aider-1', last: 0, repeats: 0 };
}

/** `2024-08-05 19:33:32` → `2024-08-05T19:33:32`: one word, for session ids and keys. */
const isoStamp = (stamp: string) => stamp.replace(' ', 'T');

class AiderParser extends Stateful<AiderState> implements LineParser {
  constructor(file: string, state: unknown) {
    super(file, state, restore);
  }

  line(text: string, lineNo: number): IngestOp[] {
    const gap = Math.max(0, lineNo - this.s.last - 1);
    this.s.last = lineNo;
    // A crash while Aider appended can leave a run of NUL bytes: nothing of the chat is in them.
    if (text.includes('\0')) throw new LineError('aider: NUL bytes in the line (a damaged write): skipped');
    const ops: IngestOp[] = [];
    const line = classify(text, this.s.session?.legacy ?? false);
    if (line.type === 'bad-start') {
      throw new LineError('aider: a session header whose time is not YYYY-MM-DD HH:MM:SS: skipped (its lines stay with the session before)');
    }
    if (line.type === 'start') {
      this.close(ops);
      // Lines before the file's first header have no time of their own: they ended before this one.
      const before = this.s.session;
      if (before?.announced && before.at === undefined) ops.push(this.meta(before, { updatedAt: line.at }));
      const stamp = isoStamp(line.stamp);
      this.s.repeats = stamp === this.s.stamp ? this.s.repeats + 1 : 0;
      this.s.stamp = stamp;
      const key = `${this.file}#${stamp}${this.s.repeats ? `~${this.s.repeats + 1}` : ''}`;
      this.s.session = { key, at: line.at, legacy: line.legacy, announced: false, next: 0, titled: -1, held: [] };
      return ops;
    }
    const b = this.s.block;
    const blanks = (): string[] => Array<string>(gap).fill('');
    switch (line.type) {
      case 'user':
        if (b?.role === 'user' && gap === 0) this.add(b, [line.text], ops);
        else this.open('user', [line.text], ops);
        break;
      case 'note':
        if (b?.role === 'note') this.add(b, [...blanks(), line.text], ops);
        else this.open('note', [line.text], ops);
        this.s.block!.open = line.open;
        break;
      case 'rule':
        this.close(ops);
        break;
      case 'text':
        if (b?.role === 'note' && b.open) {
          this.add(b, [...blanks(), text], ops);
          b.open = continues(text);
        } else if (b?.role === 'assistant') this.add(b, [...blanks(), text], ops);
        else this.open('assistant', [text], ops);
        break;
    }
    return ops;
  }

  unfinished(atEnd: boolean): IngestOp[] {
    const ops: IngestOp[] = [];
    const session = this.s.session;
    if (!session?.announced) return ops;
    if (this.s.block) ops.push(...this.entries(session, this.s.block));
    // The file's last session was active when the file was last written.
    if (atEnd) {
      const mtime = this.mtime();
      if (mtime !== undefined && mtime >= (session.at ?? 0)) ops.push(this.meta(session, { updatedAt: mtime }));
    }
    return ops;
  }

  private mtime(): number | undefined {
    try {
      return Math.floor(fs.statSync(this.file).mtimeMs);
    } catch {
      return undefined; // gone meanwhile: the scan reports it
    }
  }

  /** The current session; lines before the file's first header are a session of their own. */
  private session(): Session {
    this.s.session ??= { key: `${this.file}#start`, legacy: false, announced: false, next: 0, titled: -1, held: [] };
    return this.s.session;
  }

  /** Starts a block after closing the current one; an input or a reply makes the session a conversation. */
  private open(role: BlockRole, lines: string[], ops: IngestOp[]): void {
    this.close(ops);
    const session = this.session();
    if (role !== 'note' && !session.announced) {
      session.announced = true;
      const meta: ConversationMeta = { sessionId: session.key, workspace: path.dirname(this.file) };
      if (session.at !== undefined) Object.assign(meta, { createdAt: session.at, updatedAt: session.at });
      ops.push(this.meta(session, meta));
      for (const held of session.held.splice(0)) ops.push(...this.entries(session, held));
    }
    const think = role === 'assistant' ? thinkingTag(lines[0] ?? '') : undefined;
    const tool = role === 'note' ? this.s.ran : undefined;
    this.s.ran = undefined;
    const block: Block = { role, seq: session.next, lines, chars: lines.join('\n').length, ...(think ? { think } : {}), ...(tool ? { tool } : {}) };
    session.next += think ? 2 : 1;
    this.s.block = block;
  }

  private add(block: Block, lines: string[], ops: IngestOp[]): void {
    const chars = lines.reduce((n, l) => n + l.length + 1, 0);
    if (block.role === 'note' && block.chars >= RESULT_MAX) {
      block.dropped = (block.dropped ?? 0) + chars;
      return;
    }
    if (block.role !== 'note' && block.chars + chars > BLOCK_MAX) {
      const open = block.open;
      this.open(block.role, lines, ops);
      this.s.block!.open = open;
      return;
    }
    block.lines.push(...lines);
    block.chars += chars;
  }

  /** Ends the current block: stored now, or held while its session has no input yet. */
  private close(ops: IngestOp[]): void {
    const block = this.s.block;
    if (!block) return;
    this.s.block = undefined;
    // A block split for its size (BLOCK_MAX) goes on as the same kind; any other block ends a tool's output.
    this.s.ran = block.role === 'user' ? toolOf(block.lines.join('\n'))?.name : undefined;
    const session = this.session();
    if (session.announced) ops.push(...this.entries(session, block));
    else if (block.role === 'note') session.held.push(block);
  }

  private meta(session: Session, meta: ConversationMeta): IngestOp {
    return { op: 'conversation', conv: session.key, meta };
  }

  /** The entries a block stands for, as far as it has been read (and its session's title). */
  private entries(session: Session, block: Block): IngestOp[] {
    const conv = session.key;
    const entry = (e: EntryRecord): IngestOp => ({ op: 'entry', conv, entry: e });
    if (block.role === 'note') {
      const full = block.lines.join('\n').trim();
      if (!full) return [];
      const over = Math.max(0, full.length - RESULT_MAX) + (block.dropped ?? 0);
      const text = over ? `${full.slice(0, RESULT_MAX)}… [${over} more chars]` : full;
      if (block.tool) return [entry({ seq: block.seq, role: 'tool', kind: 'tool_result', toolName: block.tool, text, indexed: false })];
      return [entry({ seq: block.seq, role: 'system', author: 'aider', kind: 'custom', text, indexed: false })];
    }
    if (block.role === 'assistant') {
      if (block.think) {
        const { thinking, answer } = splitThinking(block.lines, block.think);
        const out: IngestOp[] = [];
        if (thinking) out.push(entry({ seq: block.seq, role: 'assistant', kind: 'thinking', text: thinking, indexed: false }));
        if (answer) out.push(entry({ seq: block.seq + 1, role: 'assistant', kind: 'message', text: answer, indexed: true }));
        return out;
      }
      const text = block.lines.join('\n').trim();
      return text ? [entry({ seq: block.seq, role: 'assistant', kind: 'message', text, indexed: true })] : [];
    }
    const text = block.lines.join('\n').trim();
    if (!text) return [];
    const { kind, prompt } = userKind(text);
    const out: IngestOp[] = [];
    const tool = toolOf(text);
    if (tool) out.push(entry({ seq: block.seq, role: 'tool', kind: 'tool_call', toolName: tool.name, text: tool.command, indexed: false }));
    else if (kind === 'message') out.push(entry({ seq: block.seq, role: 'user', kind: 'message', text, indexed: true }));
    else if (kind === 'clear') out.push(entry({ seq: block.seq, role: 'user', kind: 'reset', text, indexed: false }));
    else out.push(entry({ seq: block.seq, role: 'user', author: kind === 'answer' ? 'aider' : undefined, kind: 'custom', text, indexed: false }));
    // A prompt names the conversation; until one comes, the first command does.
    const rank = kind === 'message' ? 1 : kind === 'command' ? 0 : -1;
    const title = rank >= 0 ? (prompt !== undefined ? titleFromText(prompt) : preview(text, TITLE_MAX)) : undefined;
    if (title && rank > session.titled) {
      session.titled = rank;
      out.push(this.meta(session, { title, titleRank: rank }));
    }
    return out;
  }
}

/** Folders a repository holds that Aider never writes its history into. */
const SKIPPED = new Set(['node_modules', '__pycache__', 'venv', 'site-packages', 'target', 'dist', 'build', 'vendor']);

/**
 * Aider's own override, `--chat-history-file` as an environment variable (configargparse, prefix
 * AIDER_): an absolute path is one file for every run; a relative one is looked for in each repository.
 */
export function historyOverride(env: NodeJS.ProcessEnv): string | undefined {
  return env.AIDER_CHAT_HISTORY_FILE?.trim() || undefined;
}

export const aiderAdapter: LineAdapter = {
  kind: 'aider',
  // No fixed folder: the repositories are found from the index's workspaces (aider-sources.ts) and
  // from folders added as sources; only an absolute AIDER_CHAT_HISTORY_FILE names a file of its own.
  defaultRoots: (env) => {
    const file = historyOverride(env);
    return file && path.isAbsolute(file) ? [file] : [];
  },
  isSessionFile: (file) => baseName(file) === AIDER_HISTORY,
  // Aider's roots that are watched are single files, named by the user if they like.
  sessionFileOf: (file) => file,
  skipFolder: (name) => name.startsWith('.') || SKIPPED.has(name),
  sparse: true,
  createParser: (file, state) => new AiderParser(file, state),
};
