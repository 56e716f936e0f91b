// Factory Droid adapter. Droid keeps its interactive sessions at
// `~/.factory/sessions/<cwd slug>/<session id>.jsonl` (beside a `<session id>.settings.json`): a
// `session_start` line (id, title, sessionTitle, cwd), then `message` lines with an Anthropic-style
// `message: {role, content: [blocks]}`. Droid documents no variable that moves ~/.factory.
import path from 'node:path';
import { LineError, type IngestOp, type LineAdapter, type LineParser } from '../types.js';
import { BlocksBook, newBlocksState, type BlocksState } from './blocks-book.js';
import { toDroidLine } from './droid-shapes.js';
import { baseName, isObject, parseJsonObject, preview, TITLE_MAX } from './text.js';
import { Stateful } from './stateful.js';

interface DroidState {
  v: 'droid-1';
  key?: string;
  announced?: boolean;
  cwd?: string;
  book: BlocksState;
}

function restore(raw: unknown): DroidState {
  if (isObject(raw) && raw.v === 'droid-1' && isObject(raw.book) && isObject(raw.book.pending)) return structuredClone(raw) as unknown as DroidState;
  return { v: 'droid-1', book: newBlocksState() };
}

/** Droid prepends <system-reminder> blocks to user turns; what is left around them is the user's text. */
function userText(text: string): string | null {
  const t = text.replace(/<system-reminder>[\s\S]*?<\/system-reminder>/g, '').trim();
  return t === '' ? null : t;
}

class DroidParser extends Stateful<DroidState> implements LineParser {
  constructor(file: string, state: unknown) {
    super(file, state, restore);
  }

  line(text: string, lineNo: number): IngestOp[] {
    const obj = parseJsonObject(text);
    if (typeof obj === 'string') throw new LineError(`droid: ${obj}`);
    const line = toDroidLine(obj);
    if (line.type === 'session_start' && line.id && this.s.key === undefined) this.s.key = line.id;
    const book = this.book();
    if (line.type === 'session_start') {
      const meta: Parameters<BlocksBook['meta']>[0] = {};
      if (line.cwd !== undefined && line.cwd !== this.s.cwd) meta.workspace = this.s.cwd = line.cwd;
      // Droid names the session itself (sessionTitle, else title): that beats the first prompt.
      const title = line.title;
      if (title && this.s.book.titleRank <= 2) {
        this.s.book.titleRank = 2;
        Object.assign(meta, { title: preview(title, TITLE_MAX), titleRank: 2 });
      }
      if (Object.keys(meta).length) book.meta(meta);
    } else if (line.type === 'message') {
      const message = line.message;
      if (!message) throw new LineError('droid: a message line needs message.role user or assistant');
      const ts = line.timestamp;
      if (ts !== undefined && this.s.book.updatedAt === undefined) book.meta({ createdAt: ts });
      book.message(`L${lineNo}`, message.role, message.content, ts, message.model);
    } else if (line.type === 'untyped') {
      throw new LineError('droid: line has no "type"');
    }
    // Other line types (newer Droid versions): skipped, so the format can grow.
    return book.ops;
  }

  /** The session's conversation, announced once; a file whose first line was lost is named by its file. */
  private book(): BlocksBook {
    const key = (this.s.key ??= baseName(this.file).replace(/\.jsonl$/, ''));
    const book = new BlocksBook(key, this.s.book, userText);
    if (!this.s.announced) {
      this.s.announced = true;
      book.meta({ sessionId: key });
    }
    return book;
  }
}

export const droidAdapter: LineAdapter = {
  kind: 'droid',
  defaultRoots: (_env, home) => [path.join(home, '.factory', 'sessions')],
  isSessionFile: (file) => file.endsWith('.jsonl'),
  createParser: (file, state) => new DroidParser(file, state),
};
