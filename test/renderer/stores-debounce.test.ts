// Search as you type, find in conversation and Compose ask once typing pauses (one debounce), keep
// only the newest answer, and a store's reset leaves no timer or request behind to change it later.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { conversation, storeApi, type StoreApi } from './store-api.js';

let api: StoreApi;
let compose: typeof import('../../src/renderer/src/stores/compose.js');
let conversations: typeof import('../../src/renderer/src/stores/conversations.js');
let transcript: typeof import('../../src/renderer/src/stores/transcript.js');

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const calls = (method: string) => api.gate.asked.filter((a) => a.method === method);

beforeAll(async () => {
  api = await storeApi({ 'a.jsonl': conversation('conv-a', 'Port the importer', 20), 'b.jsonl': conversation('conv-b', 'Tune the planner', 20) });
  compose = await import('../../src/renderer/src/stores/compose.js');
  conversations = await import('../../src/renderer/src/stores/conversations.js');
  transcript = await import('../../src/renderer/src/stores/transcript.js');
});

afterAll(() => api?.close());

beforeEach(() => {
  compose.useCompose.getState().reset();
  conversations.useConversations.getState().reset();
  transcript.useTranscript.getState().reset();
  api.gate.hold = null;
  api.gate.asked = [];
});

describe('compose', () => {
  it('a burst of keystrokes asks suggest once, for the last text', async () => {
    const { setText } = compose.useCompose.getState();
    for (const text of ['p', 'po', 'port', 'port the', 'port the importer']) setText(text);
    expect(compose.useCompose.getState().pending).toBe(true);
    await expect.poll(() => compose.useCompose.getState().pending).toBe(false);
    expect(calls('suggest').map((c) => c.params.text)).toEqual(['port the importer']);
    expect(compose.useCompose.getState().result).not.toBeNull();
  });

  it('reset drops the question not asked yet and the answer in flight', async () => {
    compose.useCompose.getState().setText('tune the planner');
    compose.useCompose.getState().reset();
    await pause(compose.DEBOUNCE_MS * 3);
    expect(calls('suggest')).toEqual([]);
    api.gate.hold = (method) => method === 'suggest';
    const run = (compose.useCompose.setState({ text: 'tune the planner' }), compose.useCompose.getState().run());
    compose.useCompose.getState().reset();
    await api.release();
    await run;
    expect(compose.useCompose.getState().result).toBeNull();
  });
});

describe('search as you type', () => {
  it('asks once typing pauses, with the last text; Enter searches at once and drops the pending one', async () => {
    const state = () => conversations.useConversations.getState();
    state().reload();
    await expect.poll(() => state().total).toBe(2);
    api.gate.asked = [];
    for (const q of ['t', 'tu', 'tune']) state().searchSoon(q);
    await expect.poll(() => state().filters.query).toBe('tune');
    await expect.poll(() => state().total).toBe(1);
    expect(calls('conversations.list').map((c) => c.params.query)).toEqual(['tune']);
    state().searchSoon('port');
    state().setFilters({ query: 'planner' });
    await pause(conversations.SEARCH_DEBOUNCE_MS * 3);
    expect(state().filters.query).toBe('planner');
  });
});

describe('find in conversation', () => {
  it('asks once typing pauses; closing the bar drops the pending find', async () => {
    const state = () => transcript.useTranscript.getState();
    await state().open(api.ids['Port the importer']!);
    state().openFind();
    for (const q of ['s', 'st', 'step 7']) state().typeFind(q);
    expect(state().find?.query).toBe('step 7');
    await expect.poll(() => state().find?.result?.total ?? null).not.toBeNull();
    expect(calls('conversations.find').map((c) => c.params.query)).toEqual(['step 7']);
    state().typeFind('done');
    state().closeFind();
    await pause(transcript.FIND_DEBOUNCE_MS * 3);
    expect(calls('conversations.find')).toHaveLength(1);
    expect(state().find).toBeNull();
  });
});
