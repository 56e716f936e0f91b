// Setting and removing one member of a JSON-with-comments file, every other byte kept: comments,
// trailing commas, tabs, a comment at the end of the last member's line, an empty or missing file.
import { describe, expect, it } from 'vitest';
import { JsoncError, parseJsonc, removeJsonc, setJsonc } from '../../src/main/integrations/jsonc-edit.js';

const VALUE = { command: '/x/throughline', args: ['mcp'], env: { A: 'b' } };
const FILES = [
  '{\n  "a": 1\n}\n',
  '{\n  // my settings\n  "a": 1, // note\n  "b": [1, 2,],\n}\n',
  '{\n  "a": "x" // the last line keeps its comment\n}\n',
  '{\n\t"theme": "dark", /* inline */ "mcpServers": {\n\t\t"x": { "command": "y" }\n\t}\n}\n',
  '{}',
  '',
];

describe('jsonc-edit', () => {
  it.each(FILES)('adds a member, changes nothing on a second pass, and removing it gives the text back: %j', (text) => {
    const added = setJsonc(text, ['mcpServers', 'throughline'], VALUE);
    expect((parseJsonc(added) as { mcpServers: { throughline: unknown } }).mcpServers.throughline).toEqual(VALUE);
    for (const comment of text.match(/\/\/[^\n]*|\/\*.*?\*\//g) ?? []) expect(added).toContain(comment);
    expect(setJsonc(added, ['mcpServers', 'throughline'], VALUE)).toBe(added);
    let back = removeJsonc(added, ['mcpServers', 'throughline']);
    const servers = (parseJsonc(back) as { mcpServers?: object }).mcpServers;
    if (servers && !Object.keys(servers).length) back = removeJsonc(back, ['mcpServers']);
    expect(back).toBe(text.trim() ? text : '{}\n');
  });

  it('replaces a value where it stands, and keeps a comment that follows the last member on its line', () => {
    const text = '{\n  "mcpServers": {\n    "throughline": { "command": "old" } // ours\n  }\n}\n';
    expect(setJsonc(text, ['mcpServers', 'throughline'], { command: 'new' })).toBe('{\n  "mcpServers": {\n    "throughline": {\n      "command": "new"\n    } // ours\n  }\n}\n');
    const withComment = '{\n  "a": 1 // about a\n}\n';
    expect(setJsonc(withComment, ['b'], 2)).toBe('{\n  "a": 1, // about a\n  "b": 2\n}\n');
  });

  it('refuses what is not JSON with comments, saying where', () => {
    expect(() => setJsonc('{\n  "a": 1,\n  "b" 2\n}', ['c'], 1)).toThrow(JsoncError);
    expect(() => parseJsonc('{\n  "a": 1,\n  "b" 2\n}')).toThrow(/line 3/);
    expect(() => setJsonc('[1, 2]', ['c'], 1)).toThrow(/not hold a JSON object/);
  });
});
