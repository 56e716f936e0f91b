// Gemini CLI's records through their declared shapes (gemini-shapes.ts): each line kind is told apart
// as Gemini's own loader does, and a field of the wrong type reads as absent instead of throwing or
// leaking a non-string into an entry. (That the adapter yields the same ops, errors and state as the
// str()/isObject() walks it replaced was checked on every fixture and thousands of type-mutated copies.)
import { describe, expect, it } from 'vitest';
import { toGeminiDocument, toGeminiLine, toGeminiMessage, toGeminiParts, toGeminiProjects } from '../../src/main/ingest/adapters/gemini-shapes.js';

describe('Gemini CLI line shapes', () => {
  it('tells the line kinds apart: $rewindTo, a message by its id, $set, the metadata line, else unknown', () => {
    expect(toGeminiLine({ $rewindTo: 'm2', id: 'm1' })).toEqual({ kind: 'rewind', to: 'm2' });
    const msg = { id: 'm1', type: 'user', content: 'hi' };
    expect(toGeminiLine(msg)).toEqual({ kind: 'message', message: { id: 'm1', record: msg } });
    expect(toGeminiLine({ $set: { lastUpdated: 5, summary: '  Sum  ', messages: [{ id: 'a' }, { id: '  ' }, 'x', { id: 3 }] } })).toEqual({
      kind: 'metadata',
      meta: { lastUpdated: 5, summary: 'Sum' },
      messages: [{ id: 'a', record: { id: 'a' } }],
    });
    expect(toGeminiLine({ sessionId: 's', projectHash: 7, startTime: 'not a date' })).toEqual({ kind: 'metadata', meta: { sessionId: 's' } });
    // A blank id is no message, a $set that is no object no update, a blank sessionId no metadata.
    expect(toGeminiLine({ id: ' ', $set: [], sessionId: '' }).kind).toBe('unknown');
    expect(toGeminiDocument({ sessionId: 's', messages: 'none' })).toEqual({ meta: { sessionId: 's' }, messages: [] });
    expect(toGeminiDocument([{ sessionId: 's' }])).toBeUndefined();
  });

  it('reads a wrong-typed field as absent, at any depth', () => {
    const m = toGeminiMessage({
      type: 'gemini',
      timestamp: {},
      content: [{ text: 5 }, { functionCall: { id: '', name: 1, args: 2 } }, { inlineData: 'x', fileData: { mimeType: 3 } }, 7, null],
      thoughts: [{ subject: ' ', description: 9 }, 'no'],
      model: [],
      toolCalls: [{ id: 4, name: null, status: '', timestamp: 'soon', resultDisplay: '   ', result: null }, 'no'],
    });
    expect(m).toEqual({
      type: 'gemini',
      content: [{ kind: 'call', args: 2 }, { kind: 'file' }],
      thoughts: [{}],
      toolCalls: [{ args: undefined }],
    });
  });

  it('keeps what Gemini means by presence: displayContent of any type but null, a result of any type but null', () => {
    expect(toGeminiMessage({ type: 'user', content: 'sent', displayContent: null })).toEqual({ type: 'user', content: [{ kind: 'text', text: 'sent', thought: false }] });
    // A displayContent that holds nothing readable still stands for what was shown: nothing.
    expect(toGeminiMessage({ type: 'user', content: 'sent', displayContent: 5 })).toMatchObject({ displayContent: [] });
    const call = toGeminiMessage({ type: 'gemini', toolCalls: [{ result: 5 }] });
    expect(call.type === 'gemini' && call.toolCalls[0]!.result).toEqual([]);
    expect(toGeminiMessage({ type: 'notice', content: 'x' }).type).toBe('other');
  });

  it('a function response: its output, error or content when a string, else the value to show as JSON', () => {
    expect(toGeminiParts({ functionResponse: { id: 'r', name: 'read', response: { output: 'o', error: 'e' } } })).toEqual([{ kind: 'response', id: 'r', name: 'read', output: 'o', response: { output: 'o', error: 'e' } }]);
    expect(toGeminiParts([{ functionResponse: { response: { output: 1, content: 'c' } } }])[0]).toMatchObject({ output: 'c' });
    expect(toGeminiParts([{ functionResponse: { response: 'plain' } }])[0]).toMatchObject({ output: undefined, response: 'plain' });
  });

  it('projects.json: the registered roots that are absolute paths, with their slug when it is a string', () => {
    expect(toGeminiProjects({ projects: { '/w/a': 'a', relative: 'r', '/w/b': 2 } })).toEqual([{ root: '/w/a', slug: 'a' }, { root: '/w/b' }]);
    expect(toGeminiProjects({ projects: [] })).toEqual([]);
    expect(toGeminiProjects('garbage')).toEqual([]);
  });
});
