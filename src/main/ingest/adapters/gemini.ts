// Gemini CLI adapter. Gemini writes one file per session under
// `~/.gemini/tmp/<project id>/chats/` (GEMINI_CLI_HOME moves `~`): since 0.40, `session-<time>-<id>.jsonl`,
// appended (a metadata line, message records, `$set` and `$rewindTo` lines); before that,
// `session-<time>-<id>.json`, one JSON document rewritten whole as the session grows. Sub-agents write
// `chats/<parent session id>/<session id>.jsonl`. The conversation logic is in gemini-book.ts.
import fs from 'node:fs';
import path from 'node:path';
import { LineError, type DocumentAdapter, type DocumentReader, type IngestOp, type LineParser } from '../types.js';
import { readText } from '../regular-file.js';
import { GeminiBook, restoreGeminiState, type GeminiState } from './gemini-book.js';
import { toGeminiDocument, toGeminiLine, type GeminiLine } from './gemini-shapes.js';
import { baseName, parseJsonObject } from './text.js';

/** A legacy document larger than this is not read (Gemini keeps sessions far smaller). */
const DOCUMENT_MAX = 256 << 20;

class GeminiLineParser implements LineParser {
  private readonly s: GeminiState;
  private readonly book: GeminiBook;

  constructor(file: string, state: unknown) {
    this.s = restoreGeminiState(state);
    this.book = new GeminiBook(file, this.s);
  }

  state(): unknown {
    return structuredClone(this.s);
  }

  line(text: string): IngestOp[] {
    const obj = parseJsonObject(text);
    if (typeof obj === 'string') throw new LineError(`gemini: ${obj}`);
    this.book.ops = [];
    try {
      record(this.book, toGeminiLine(obj));
    } catch (err) {
      // A record nested deeper than the stack allows (JSON.parse takes it, hashing it does not).
      if (err instanceof RangeError) throw new LineError(`gemini: record nested too deeply (${err.message})`);
      throw err;
    }
    return this.book.ops;
  }
}

/** One JSONL line into the conversation. */
function record(book: GeminiBook, line: GeminiLine): void {
  switch (line.kind) {
    case 'rewind':
      return book.rewind(line.to);
    case 'message':
      return book.message(line.message);
    case 'metadata':
      book.metadata(line.meta);
      if (line.messages) book.setMessages(line.messages);
      return;
    case 'unknown':
      throw new LineError('gemini: neither a message, a metadata line, $set nor $rewindTo');
  }
}

class GeminiDocumentReader implements DocumentReader {
  private s: GeminiState;

  constructor(
    private readonly file: string,
    state: unknown,
  ) {
    this.s = restoreGeminiState(state);
  }

  state(): unknown {
    return structuredClone(this.s);
  }

  read(fd: number, size: number): IngestOp[] {
    if (size > DOCUMENT_MAX) throw new LineError(`gemini: session document of ${size} bytes is larger than ${DOCUMENT_MAX}`);
    const text = readText(fd, size);
    let doc: unknown;
    try {
      doc = JSON.parse(text);
    } catch (err) {
      throw new LineError(`gemini: session document is not valid JSON: ${(err as Error).message}`, lineOfError(text, err));
    }
    const session = toGeminiDocument(doc);
    if (!session) throw new LineError('gemini: session document has no sessionId', 1);
    // Work on a copy: a document that fails half-way must leave the stored state as it was.
    const next = structuredClone(this.s);
    const book = new GeminiBook(this.file, next);
    book.metadata(session.meta);
    book.setMessages(session.messages);
    this.s = next;
    return book.ops;
  }
}

/** The 1-based line of a JSON.parse error, from the position V8 reports. */
function lineOfError(text: string, err: unknown): number | undefined {
  const m = /position (\d+)/.exec((err as Error).message);
  if (!m) return undefined;
  const at = Math.min(Number(m[1]), text.length);
  let line = 1;
  for (let i = 0; i < at; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

/** Gemini CLI's home: GEMINI_CLI_HOME stands for `~` (core/src/utils/paths.ts homedir()). */
function geminiDir(env: NodeJS.ProcessEnv, home: string): string {
  const override = env.GEMINI_CLI_HOME?.trim();
  return path.join(override || home, '.gemini');
}

const inChats = (file: string) => /[\\/]chats[\\/]/.test(file);

export const geminiAdapter: DocumentAdapter = {
  kind: 'gemini',
  defaultRoots: (env, home) => [path.join(geminiDir(env, home), 'tmp')],
  isSessionFile(file) {
    if (!inChats(file)) return false;
    const name = baseName(file);
    if (name.endsWith('.jsonl')) return true;
    // A legacy `.json` that Gemini has since moved to `.jsonl` (on resume it writes the whole session
    // to `<name>.jsonl` and appends there) is read from the new file only.
    return name.startsWith('session-') && name.endsWith('.json') && !fs.existsSync(`${file}l`);
  },
  readsWhole: (file) => file.endsWith('.json'),
  createReader: (file, state) => new GeminiDocumentReader(file, state),
  createParser: (file, state) => new GeminiLineParser(file, state),
};
