// The renderer's stores run under Node against the real api of an index built from long
// conversations, called through window.throughline as inside Electron; a test may hold answers back
// to choose the order in which they arrive.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Api } from '../../src/shared/api.js';
import { createCore, type Core } from '../../src/main/api/core.js';

type Line = Record<string, unknown>;

/** A conversation in Throughline's JSONL import format with `turns` question-and-answer pairs. */
export function conversation(id: string, title: string, turns: number): string {
  const start = Date.UTC(2026, 0, 5);
  const lines: Line[] = [{ type: 'conversation', id, workspace: '/home/ada/code/ledger', title, created: new Date(start).toISOString() }];
  for (let i = 0; i < turns; i++) {
    lines.push({ type: 'message', role: 'user', text: `${title}: step ${i}`, ts: new Date(start + i * 60_000).toISOString() });
    lines.push({ type: 'message', role: 'assistant', text: `${title}: done with step ${i}`, ts: new Date(start + i * 60_000 + 30_000).toISOString() });
  }
  return lines.map((l) => JSON.stringify(l)).join('\n') + '\n';
}

/** Every call is noted in `asked`; answers to calls that `hold` picks wait until `release()`, the others come at once. */
export function heldApi(api: Api) {
  const waiting: (() => void)[] = [];
  const gate = { hold: null as ((method: string, params: Record<string, unknown>) => boolean) | null, asked: [] as { method: string; params: Record<string, unknown> }[] };
  const held = new Proxy(api, {
    get(target, name: string) {
      const method = (target as unknown as Record<string, (p: unknown) => Promise<unknown>>)[name]!;
      return async (params: Record<string, unknown>) => {
        gate.asked.push({ method: name, params });
        const answer = method(params);
        if (gate.hold?.(name, params)) await new Promise<void>((resolve) => waiting.push(resolve));
        return answer;
      };
    },
  });
  const release = async (): Promise<void> => {
    for (const go of waiting.splice(0)) go();
    await new Promise((resolve) => setTimeout(resolve, 10));
  };
  return { held, gate, release };
}

export interface StoreApi {
  core: Core;
  gate: ReturnType<typeof heldApi>['gate'];
  release(): Promise<void>;
  /** Conversation ids by title. */
  ids: Record<string, number>;
  close(): void;
}

/** Indexes `conversations` (file name -> JSONL) and makes the api the renderer's transport. */
export async function storeApi(conversations: Record<string, string>): Promise<StoreApi> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tl-renderer-'));
  const sessions = path.join(dir, 'jsonl');
  fs.mkdirSync(sessions);
  for (const [name, text] of Object.entries(conversations)) fs.writeFileSync(path.join(sessions, name), text);
  const core = createCore({ dbPath: path.join(dir, 'index.sqlite'), settingsPath: path.join(dir, 'settings.json'), sources: [{ kind: 'jsonl', root: sessions }] });
  await core.scan();
  const list = await core.api['conversations.list']({ offset: 0, limit: 100 });
  const ids = Object.fromEntries(list.items.map((c) => [c.title, c.id]));
  const h = heldApi(core.api);
  (globalThis as unknown as { window: unknown }).window = { throughline: h.held };
  return {
    core,
    gate: h.gate,
    release: h.release,
    ids,
    close() {
      core.close();
      delete (globalThis as unknown as { window?: unknown }).window;
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
