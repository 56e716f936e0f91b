// Pure helpers for the Gemini CLI adapter: they read Gemini's message shapes (PartListUnion content,
// tool call records, thoughts) and where its project folders point, and never touch parser state.
// Shapes: google-gemini/gemini-cli packages/core/src/services/chatRecordingTypes.ts.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { argSummary, isAbsolutePath, isObject, nonEmpty, RESULT_MAX, str, truncate, type Json } from './text.js';

/** Tool-call arguments are a transcript aid, never indexed: a short summary is enough. */
export const CALL_TEXT_MAX = 500;

/** The parts of a PartListUnion: a string, one part, or a list of strings and parts. */
function partsOf(content: unknown): Json[] {
  const list = Array.isArray(content) ? content : [content];
  const out: Json[] = [];
  for (const p of list) {
    if (typeof p === 'string') out.push({ text: p });
    else if (isObject(p)) out.push(p);
  }
  return out;
}

export interface ContentParts {
  /** Visible text (thought parts and function calls/responses left out); files and images as markers. */
  text: string;
  /** Thought parts (modern sessions keep thoughts inside the content). */
  thoughts: string[];
  /** functionResponse parts: a tool's result sent back to the model as a user turn. */
  responses: { id?: string; name?: string; text: string }[];
  /** functionCall parts (modern sessions keep calls inside the content too). */
  calls: { id?: string; name: string; args: unknown }[];
}

export function contentParts(content: unknown): ContentParts {
  const out: ContentParts = { text: '', thoughts: [], responses: [], calls: [] };
  const texts: string[] = [];
  for (const p of partsOf(content)) {
    const text = str(p.text);
    if (text !== undefined) {
      if (p.thought === true) out.thoughts.push(text);
      else texts.push(text);
    } else if (isObject(p.functionCall)) {
      out.calls.push({ id: nonEmpty(p.functionCall.id), name: str(p.functionCall.name) ?? 'tool', args: p.functionCall.args });
    } else if (isObject(p.functionResponse)) {
      const r = p.functionResponse;
      out.responses.push({ id: nonEmpty(r.id), name: str(r.name), text: responseText(r.response) });
    } else if (isObject(p.inlineData) || isObject(p.fileData)) {
      const mime = str((p.inlineData as Json | undefined)?.mimeType) ?? str((p.fileData as Json | undefined)?.mimeType) ?? '';
      texts.push(mime.startsWith('image/') ? '[image]' : '[file]');
    }
  }
  out.text = texts.join('');
  return out;
}

/** A function response's visible text: its `output` (or `error`), else its JSON. */
function responseText(response: unknown): string {
  if (isObject(response)) {
    const text = str(response.output) ?? str(response.error) ?? str(response.content);
    if (text !== undefined) return truncate(text, RESULT_MAX);
  }
  return truncate(typeof response === 'string' ? response : (JSON.stringify(response) ?? ''), RESULT_MAX);
}

/** What a recorded tool call says about its result: resultDisplay when it is text, else its function responses. */
export function toolResultText(call: Json): string | undefined {
  if (typeof call.resultDisplay === 'string' && call.resultDisplay.trim()) return truncate(call.resultDisplay, RESULT_MAX);
  if (call.result === undefined || call.result === null) return undefined;
  const parts = contentParts(call.result);
  const text = [parts.text, ...parts.responses.map((r) => r.text)].filter((t) => t.trim()).join('\n');
  return text ? truncate(text, RESULT_MAX) : undefined;
}

export function callText(args: unknown): string {
  return argSummary(args, CALL_TEXT_MAX);
}

/** Gemini's tool statuses (scheduler Status) as Throughline's: success → ok, error/cancelled as they are. */
export function callStatus(status: unknown): string {
  if (status === 'success') return 'ok';
  if (typeof status === 'string' && status) return status;
  return 'pending';
}

/** Thoughts of a gemini message: `{subject, description}` summaries. */
export function thoughtText(thoughts: unknown): string {
  const parts: string[] = [];
  for (const t of Array.isArray(thoughts) ? thoughts : []) {
    if (!isObject(t)) continue;
    const subject = nonEmpty(t.subject)?.trim();
    const description = nonEmpty(t.description)?.trim();
    const text = subject && description ? `**${subject}** ${description}` : (subject ?? description);
    if (text) parts.push(text);
  }
  return parts.join('\n\n');
}

/**
 * How a user message is stored. Gemini CLI records slash commands (`/…`, `?`) and context it injected
 * (`<session_context>`, `<hook_context>`) as user turns; its own resume leaves them out of the history
 * (sessionUtils.isIgnoredUserContent). Commands stay visible, never as a title; injected context is skipped.
 */
export function classifyUserText(text: string): 'prompt' | 'command' | 'injected' | 'empty' {
  const t = text.trim();
  if (t === '') return 'empty';
  if (t.startsWith('<session_context>') || t.startsWith('<hook_context>')) return 'injected';
  if (t.startsWith('/') || t.startsWith('?')) return 'command';
  return 'prompt';
}

/**
 * Where Gemini CLI keeps a session file: `<gemini dir>/tmp/<project id>/chats/[<parent session>/]<file>`.
 * The project id is a short slug (ProjectRegistry) or, before that, sha256 of the project root.
 */
export interface GeminiPath {
  geminiDir?: string;
  projectDir?: string;
  /** The parent session's id when the file sits in `chats/<parent>/` (a sub-agent's file). */
  parentSession?: string;
}

export function geminiPath(file: string): GeminiPath {
  const parts = file.split(/[\\/]/);
  const chats = parts.lastIndexOf('chats');
  if (chats < 2) return {};
  const projectDir = parts.slice(0, chats).join(path.sep);
  const out: GeminiPath = { projectDir };
  if (parts[chats - 2] === 'tmp' && chats >= 3) out.geminiDir = parts.slice(0, chats - 2).join(path.sep);
  if (parts.length - chats === 3) out.parentSession = parts[chats + 1];
  return out;
}

const projectRoots = new Map<string, { at: number; root: string | undefined }>();

/**
 * The project root of a session, the way Gemini CLI maps them: the `.project_root` marker in the
 * project folder, else the registry `projects.json` (path → slug), else a registered path whose
 * sha256 is the session's projectHash. Looked up again after a minute, as projects get registered.
 */
export function projectRoot(file: string, projectHash: string | undefined, now = Date.now()): string | undefined {
  const where = geminiPath(file);
  if (!where.projectDir) return undefined;
  const key = `${where.projectDir}\0${projectHash ?? ''}`;
  const cached = projectRoots.get(key);
  if (cached && now - cached.at < 60_000) return cached.root;
  const root = lookupRoot(where, projectHash);
  projectRoots.set(key, { at: now, root });
  return root;
}

function lookupRoot(where: GeminiPath, projectHash: string | undefined): string | undefined {
  const marker = readSmall(path.join(where.projectDir!, '.project_root'))?.trim();
  if (isAbsolutePath(marker)) return marker;
  if (!where.geminiDir) return undefined;
  const registry = parseJson(readSmall(path.join(where.geminiDir, 'projects.json')));
  const projects = isObject(registry) && isObject(registry.projects) ? registry.projects : {};
  const slug = path.basename(where.projectDir!);
  for (const [root, id] of Object.entries(projects)) {
    if (!isAbsolutePath(root)) continue;
    if (id === slug) return root;
    if (projectHash && sha256(root) === projectHash) return root;
  }
  return undefined;
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

function readSmall(file: string): string | undefined {
  try {
    const st = fs.statSync(file);
    if (!st.isFile() || st.size > 1 << 20) return undefined;
    return fs.readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

function parseJson(text: string | undefined): unknown {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
