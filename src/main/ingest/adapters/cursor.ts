// Cursor adapter: the transcripts Cursor's agent (cursor-agent CLI and the editor's agent) writes at
// `~/.cursor/projects/<workspace slug>/agent-transcripts/<id>/<id>.jsonl` (older builds:
// `agent-transcripts/<id>.jsonl`); a sub-agent's at `agent-transcripts/<parent id>/subagents/<id>.jsonl`.
// One line per message, `{role, message: {content: [blocks]}}`, the user's prompt wrapped in
// <user_query>; `{type: "turn_ended", status}` after a turn. Lines carry no times: the file's own
// times stand in. Cursor documents no variable that moves ~/.cursor.
import fs from 'node:fs';
import path from 'node:path';
import { LineError, type IngestOp, type LineAdapter, type LineParser } from '../types.js';
import { toCursorLine } from './cursor-shapes.js';
import { BlocksBook, newBlocksState, type BlocksState } from './blocks-book.js';
import { baseName, dirName, isObject, isUuid, parseJsonObject, preview, SUMMARY_MAX } from './text.js';

interface CursorState {
  v: 'cursor-1';
  announced?: boolean;
  book: BlocksState;
}

function restore(raw: unknown): CursorState {
  if (isObject(raw) && raw.v === 'cursor-1' && isObject(raw.book) && isObject(raw.book.pending)) return structuredClone(raw) as unknown as CursorState;
  return { v: 'cursor-1', book: newBlocksState() };
}

/** The prompt inside <user_query>…</user_query>; text without the wrapper is the user's as it is. */
function userText(text: string): string | null {
  const m = /<user_query>\s*([\s\S]*?)\s*<\/user_query>/.exec(text);
  const t = (m ? m[1]! : text).trim();
  return t === '' ? null : t;
}

/** Where a transcript sits: its id, its parent's for a sub-agent, and the workspace slug. */
export function transcriptInfo(file: string): { id: string; parent?: string; slug?: string } {
  const id = baseName(file).replace(/\.jsonl$/, '');
  const parts = file.split(/[\\/]/);
  const at = parts.lastIndexOf('agent-transcripts');
  const slug = at > 0 ? parts[at - 1] : undefined;
  const dir = baseName(dirName(file));
  const parent = dir === 'subagents' ? baseName(dirName(dirName(file))) : undefined;
  return { id, parent: parent && parent !== id ? parent : undefined, slug };
}

/**
 * Cursor names a project's folder after its path with `/` (and `.`, `_`, spaces) as `-`, which cannot be
 * undone by text alone: walk the disk, taking a `-` as a folder boundary where that folder exists.
 */
export function workspaceFromSlug(slug: string, exists = (p: string) => isDir(p)): string | undefined {
  const segments = slug.split('-').filter((s) => s !== '');
  if (segments.length === 0 || slug === 'empty-window') return undefined;
  let resolved = '';
  let current = segments[0]!;
  for (const seg of segments.slice(1)) {
    const candidate = `${resolved}/${current}`;
    if (exists(candidate)) {
      resolved = candidate;
      current = seg;
    } else current = `${current}-${seg}`;
  }
  const full = `${resolved}/${current}`;
  return exists(full) ? full : undefined;
}

function isDir(p: string): boolean {
  try {
    return fs.statSync(p).isDirectory();
  } catch {
    return false;
  }
}

class CursorParser implements LineParser {
  private readonly s: CursorState;
  private readonly info: ReturnType<typeof transcriptInfo>;

  constructor(
    private readonly file: string,
    state: unknown,
  ) {
    this.s = restore(state);
    this.info = transcriptInfo(file);
  }

  state(): unknown {
    return structuredClone(this.s);
  }

  line(text: string, lineNo: number): IngestOp[] {
    const obj = parseJsonObject(text);
    if (typeof obj === 'string') throw new LineError(`cursor: ${obj}`);
    const book = this.book();
    const line = toCursorLine(obj);
    if (line.type === 'turn_ended') {
      if (line.status !== 'other') {
        const reason = line.error ?? (line.status === 'aborted' ? 'Interrupted' : 'The turn ended with an error');
        book.notice(`L${lineNo}`, reason, undefined, 'turn_ended');
      }
    } else if (line.type === 'metadata') {
      if (line.overview) book.meta({ summary: preview(line.overview, SUMMARY_MAX) });
    } else if (line.type === 'message') {
      book.message(`L${lineNo}`, line.role, line.content, undefined);
    } else if (line.type === 'malformed') {
      throw new LineError('cursor: a message line needs role user or assistant and message.content');
    }
    // Other line types (newer Cursor builds): skipped, so the format can grow.
    return book.ops;
  }

  private book(): BlocksBook {
    const book = new BlocksBook(this.info.id, this.s.book, userText);
    if (!this.s.announced) {
      this.s.announced = true;
      const meta: Parameters<BlocksBook['meta']>[0] = { sessionId: this.info.id };
      if (this.info.parent && isUuid(this.info.parent)) Object.assign(meta, { parentKey: this.info.parent, isSubagent: true });
      const workspace = this.info.slug ? workspaceFromSlug(this.info.slug) : undefined;
      if (workspace) meta.workspace = workspace;
      // No times in the lines: the file's birth and last write stand for the conversation's.
      try {
        const st = fs.statSync(this.file);
        meta.createdAt = Math.floor(st.birthtimeMs || st.ctimeMs);
        meta.updatedAt = Math.floor(st.mtimeMs);
      } catch {
        // gone meanwhile: the scan reports it
      }
      book.meta(meta);
    }
    return book;
  }
}

export const cursorAdapter: LineAdapter = {
  kind: 'cursor',
  defaultRoots: (_env, home) => [path.join(home, '.cursor', 'projects')],
  isSessionFile: (file) => file.endsWith('.jsonl') && /[\\/]agent-transcripts[\\/]/.test(file),
  createParser: (file, state) => new CursorParser(file, state),
};
