// Pure helpers for the Gemini CLI adapter: what its declared shapes (gemini-shapes.ts: content parts,
// tool call records, thoughts) say as text, and where its project folders point; they never touch
// parser state.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { toGeminiProjects, type GeminiPart, type GeminiThought, type GeminiToolCall } from './gemini-shapes.js';
import { argSummary, isAbsolutePath, RESULT_MAX, truncate } from './text.js';

/** Tool-call arguments are a transcript aid, never indexed: a short summary is enough. */
export const CALL_TEXT_MAX = 500;

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

/** What a message's parts say, sorted by what each becomes. */
export function contentParts(parts: GeminiPart[]): ContentParts {
  const out: ContentParts = { text: '', thoughts: [], responses: [], calls: [] };
  const texts: string[] = [];
  for (const p of parts) {
    if (p.kind === 'text') {
      if (p.thought) out.thoughts.push(p.text);
      else texts.push(p.text);
    } else if (p.kind === 'call') out.calls.push({ id: p.id, name: p.name ?? 'tool', args: p.args });
    else if (p.kind === 'response') out.responses.push({ id: p.id, name: p.name, text: responseText(p) });
    else texts.push(p.mimeType?.startsWith('image/') ? '[image]' : '[file]');
  }
  out.text = texts.join('');
  return out;
}

/** A function response's visible text: its `output` (or `error`), else its JSON. */
function responseText({ output, response }: { output?: string; response: unknown }): string {
  return truncate(output ?? (typeof response === 'string' ? response : (JSON.stringify(response) ?? '')), RESULT_MAX);
}

/** What a recorded tool call says about its result: resultDisplay when it is text, else its function responses. */
export function toolResultText(call: GeminiToolCall): string | undefined {
  if (call.resultDisplay !== undefined) return truncate(call.resultDisplay, RESULT_MAX);
  if (call.result === undefined) return undefined;
  const parts = contentParts(call.result);
  const text = [parts.text, ...parts.responses.map((r) => r.text)].filter((t) => t.trim()).join('\n');
  return text ? truncate(text, RESULT_MAX) : undefined;
}

export function callText(args: unknown): string {
  return argSummary(args, CALL_TEXT_MAX);
}

/** Gemini's tool statuses (scheduler Status) as Throughline's: success → ok, error/cancelled as they are. */
export function callStatus(status: string | undefined): string {
  return status === 'success' ? 'ok' : (status ?? 'pending');
}

/** Thoughts of a gemini message: `{subject, description}` summaries. */
export function thoughtText(thoughts: GeminiThought[]): string {
  const parts: string[] = [];
  for (const { subject, description } of thoughts) {
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
  const projects = toGeminiProjects(parseJson(readSmall(path.join(where.geminiDir, 'projects.json'))));
  const slug = path.basename(where.projectDir!);
  for (const { root, slug: id } of projects) {
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
