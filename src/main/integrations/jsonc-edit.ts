// Editing a JSON-with-comments settings file (Gemini CLI's settings.json, OpenCode's opencode.jsonc,
// Cursor's mcp.json, …) in place: one member is set or removed by its path, and every other byte —
// the person's comments, order, indentation, trailing commas — stays as it was. A small parser finds
// where each member starts and ends; the edit splices text there. (jsonc-parser's `modify` does the
// same; it is not a dependency here.)
import { NamedError } from '../../shared/errors.js';

export class JsoncError extends NamedError {}

interface Node {
  kind: 'object' | 'array' | 'value';
  start: number;
  end: number;
  members: Member[];
}
interface Member {
  key: string;
  keyStart: number;
  value: Node;
  /** Position of the comma after this member's value, if any. */
  comma: number | null;
}

function parse(text: string): Node {
  let i = 0;
  const fail = (what: string): never => {
    const line = text.slice(0, i).split('\n').length;
    throw new JsoncError(`${what} at line ${line}`);
  };
  const skip = () => {
    for (;;) {
      const c = text[i];
      if (c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === '\ufeff') i++;
      else if (c === '/' && text[i + 1] === '/') while (i < text.length && text[i] !== '\n') i++;
      else if (c === '/' && text[i + 1] === '*') {
        const close = text.indexOf('*/', i + 2);
        if (close < 0) fail('unclosed comment');
        i = close + 2;
      } else return;
    }
  };
  const string = (): string => {
    const start = i;
    i++;
    while (i < text.length && text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
    if (i >= text.length) fail('unclosed string');
    i++;
    return JSON.parse(text.slice(start, i)) as string;
  };
  const value = (): Node => {
    skip();
    const start = i;
    const c = text[i];
    if (c === '{') {
      i++;
      const members: Member[] = [];
      for (;;) {
        skip();
        if (text[i] === '}') break;
        if (text[i] !== '"') fail('expected a member name');
        const keyStart = i;
        const key = string();
        skip();
        if (text[i] !== ':') fail('expected ":"');
        i++;
        const v = value();
        skip();
        const member: Member = { key, keyStart, value: v, comma: null };
        members.push(member);
        if (text[i] === ',') {
          member.comma = i++;
          continue;
        }
        skip();
        if (text[i] !== '}') fail('expected "," or "}"');
      }
      i++;
      return { kind: 'object', start, end: i, members };
    }
    if (c === '[') {
      i++;
      for (;;) {
        skip();
        if (text[i] === ']') break;
        value();
        skip();
        if (text[i] === ',') i++;
        else if (text[i] !== ']') fail('expected "," or "]"');
      }
      i++;
      return { kind: 'array', start, end: i, members: [] };
    }
    if (c === '"') {
      string();
      return { kind: 'value', start, end: i, members: [] };
    }
    const m = /^(?:true|false|null|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)/.exec(text.slice(i, i + 400));
    if (!m) fail('unexpected character');
    i += m![0].length;
    return { kind: 'value', start, end: i, members: [] };
  };
  const root = value();
  skip();
  if (i < text.length) fail('unexpected text after the value');
  return root;
}

/** The value of a JSON-with-comments text (comments and trailing commas allowed). */
export function parseJsonc(text: string): unknown {
  if (!text.trim()) return undefined;
  parse(text); // the structure check, with a line number when it fails
  let out = '';
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (c === '"') {
      const start = i++;
      while (i < text.length && text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
      out += text.slice(start, ++i);
    } else if (c === '/' && text[i + 1] === '/') {
      while (i < text.length && text[i] !== '\n') i++;
    } else if (c === '/' && text[i + 1] === '*') {
      i = text.indexOf('*/', i + 2) + 2;
    } else if (c === ',' && /^\s*(?:(?:\/\/[^\n]*\n|\/\*[\s\S]*?\*\/)\s*)*[}\]]/.test(text.slice(i + 1))) {
      i++; // a trailing comma
    } else out += text[i++];
  }
  return JSON.parse(out.replace(/^\ufeff/, ''));
}

function lineStart(text: string, pos: number): number {
  return text.lastIndexOf('\n', pos - 1) + 1;
}

function indentOf(text: string, pos: number): string {
  return /^[ \t]*/.exec(text.slice(lineStart(text, pos)))![0];
}

/** The file's indentation step: the smallest indentation of any line, else two spaces. */
function indentUnit(text: string): string {
  const indents = [...text.matchAll(/\n([ \t]+)\S/g)].map((m) => m[1]!);
  if (!indents.length) return '  ';
  return indents.reduce((a, b) => (b.length < a.length ? b : a));
}

function render(value: unknown, indent: string, unit: string): string {
  return JSON.stringify(value, null, unit).replace(/\n/g, `\n${indent}`);
}

function find(root: Node, path: readonly string[]): { node: Node; depth: number } {
  let node = root;
  let depth = 0;
  for (const key of path) {
    if (node.kind !== 'object') break;
    const m = node.members.find((x) => x.key === key);
    if (!m) break;
    node = m.value;
    depth++;
  }
  return { node, depth };
}

/** Sets the member at `path` (creating the objects on the way) to `value`, keeping every other byte. */
export function setJsonc(text: string, path: readonly string[], value: unknown): string {
  if (!path.length) throw new JsoncError('empty path');
  const source = text.trim() ? text : '{}\n';
  const root = parse(source);
  if (root.kind !== 'object') throw new JsoncError('the file does not hold a JSON object');
  const unit = indentUnit(source);
  const { node, depth } = find(root, path);
  if (depth === path.length) {
    // Replace the value where it stands.
    return source.slice(0, node.start) + render(value, indentOf(source, node.start), unit) + source.slice(node.end);
  }
  if (node.kind !== 'object') throw new JsoncError(`"${path.slice(0, depth).join('.')}" is not an object`);
  // What is missing, built as one value to insert into the deepest object that exists.
  let inserted: unknown = value;
  for (let k = path.length - 1; k > depth; k--) inserted = { [path[k]!]: inserted };
  const key = path[depth]!;
  const last = node.members.at(-1);
  if (!last) {
    const indent = indentOf(source, node.start) + unit;
    const body = `\n${indent}${JSON.stringify(key)}: ${render(inserted, indent, unit)}\n${indentOf(source, node.start)}`;
    return source.slice(0, node.start + 1) + body + source.slice(node.end - 1);
  }
  const indent = indentOf(source, last.keyStart);
  const member = `${JSON.stringify(key)}: ${render(inserted, indent, unit)}`;
  // A trailing comma after the last member is the file's style: the new last member gets one too.
  if (last.comma !== null) return source.slice(0, last.comma + 1) + `\n${indent}${member},` + source.slice(last.comma + 1);
  // After the last value's line when only a comment follows it there, so that comment stays with its member.
  const lineEnd = source.indexOf('\n', last.value.end);
  const rest = source.slice(last.value.end, lineEnd < 0 ? source.length : lineEnd);
  const at = /^\s*(\/\/.*)?$/.test(rest) && lineEnd >= 0 && lineEnd < node.end ? lineEnd : last.value.end;
  return source.slice(0, last.value.end) + ',' + source.slice(last.value.end, at) + `\n${indent}${member}` + source.slice(at);
}

/** Removes the member at `path` (with its comma and the whitespace before it); unchanged when absent. */
export function removeJsonc(text: string, path: readonly string[]): string {
  if (!text.trim() || !path.length) return text;
  const root = parse(text);
  const parent = find(root, path.slice(0, -1));
  if (parent.depth !== path.length - 1 || parent.node.kind !== 'object') return text;
  const members = parent.node.members;
  const i = members.findIndex((m) => m.key === path.at(-1));
  if (i < 0) return text;
  const m = members[i]!;
  let from = m.keyStart;
  while (from > 0 && /[ \t\r\n]/.test(text[from - 1]!)) from--;
  if (m.comma !== null) return text.slice(0, from) + text.slice(m.comma + 1);
  // The last member: the comma before it goes instead.
  const prev = members[i - 1];
  if (prev?.comma != null) return text.slice(0, prev.comma) + text.slice(prev.comma + 1, from) + text.slice(m.value.end);
  // The only member: an object left with nothing but whitespace inside is written `{}`.
  const inside = text.slice(parent.node.start + 1, from) + text.slice(m.value.end, parent.node.end - 1);
  if (!inside.trim()) return text.slice(0, parent.node.start) + '{}' + text.slice(parent.node.end);
  return text.slice(0, from) + text.slice(m.value.end);
}
