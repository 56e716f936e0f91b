// The transcript store pages older and newer entries of the open conversation only: a page asked
// for before the person opened another conversation (or reopened this one elsewhere) is dropped,
// and a window that is not the open conversation's is refused with a clear error, never merged.
// Only the order in which the real api's answers arrive is held back by the test.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { conversation, storeApi, type StoreApi } from './store-api.js';

let api: StoreApi;
let store: typeof import('../../src/renderer/src/stores/transcript.js');
let A: number;
let B: number;

beforeAll(async () => {
  api = await storeApi({ 'a.jsonl': conversation('conv-a', 'Port the importer', 250), 'b.jsonl': conversation('conv-b', 'Tune the planner', 250) });
  A = api.ids['Port the importer']!;
  B = api.ids['Tune the planner']!;
  // Imported once the transport is in place: it picks window.throughline when loaded.
  store = await import('../../src/renderer/src/stores/transcript.js');
});

afterAll(() => api?.close());

beforeEach(() => {
  store.useTranscript.getState().reset();
  api.gate.hold = null;
  api.gate.asked = [];
});

const state = () => store.useTranscript.getState();
const seqs = () => state().entries.map((e) => e.seq);
const ascendingAndUnique = (xs: number[]) => xs.every((x, i) => i === 0 || x > xs[i - 1]!);

describe('transcript paging', () => {
  it('a page of a conversation left meanwhile is dropped, and paging the new one works', async () => {
    await state().open(A, 250);
    expect(state().hasOlder).toBe(true);
    api.gate.hold = (method, params) => method === 'conversations.entries' && params.before !== undefined;
    const paging = state().older();
    expect(state().paging).toBe('older');
    await state().open(B, 250);
    api.gate.hold = null;
    await api.release();
    await paging;
    expect(state().id).toBe(B);
    expect(state().entries.every((e) => e.conversationId === B)).toBe(true);
    // B's window pages on its own: nothing of A's request is left holding it.
    expect(state().paging).toBeNull();
    const before = state().entries.length;
    await state().older();
    expect(state().entries.length).toBeGreaterThan(before);
    expect(state().entries.every((e) => e.conversationId === B)).toBe(true);
    expect(ascendingAndUnique(seqs())).toBe(true);
  });

  it('a page asked of a window since replaced (the same conversation reopened elsewhere) is dropped', async () => {
    await state().open(A, 250);
    api.gate.hold = (method, params) => method === 'conversations.entries' && params.before !== undefined;
    const paging = state().older();
    await state().open(B);
    await state().open(A); // from the start this time: the held page lies inside the new window
    api.gate.hold = null;
    await api.release();
    await paging;
    expect(state().id).toBe(A);
    expect(seqs()[0]).toBe(0);
    expect(ascendingAndUnique(seqs())).toBe(true);
    expect(state().error).toBeNull();
  });

  it('a window that is not the open conversation is refused with a clear error, nothing asked or merged', async () => {
    await state().open(A, 250);
    const window = state().entries;
    // The store holding one conversation's entries under another's id.
    store.useTranscript.setState({ id: B, entries: window });
    api.gate.asked = [];
    await state().older();
    expect(api.gate.asked.filter((a) => a.method === 'conversations.entries')).toEqual([]);
    expect(state().error).toBe(`The loaded entries belong to conversation ${A}, not to conversation ${B}: reopen the conversation.`);
    expect(state().entries).toEqual(window);
    expect(state().paging).toBeNull();
  });

  it('paging older and newer in the open conversation keeps its entries in order', async () => {
    await state().open(A, 250);
    await state().older();
    await state().newer();
    expect(state().entries.every((e) => e.conversationId === A)).toBe(true);
    expect(ascendingAndUnique(seqs())).toBe(true);
    expect(state().entries.length).toBe(450);
  });
});
