// The preload: the only bridge between the sandboxed page and the main process. It exposes one typed
// method per api method on `window.throughline` and nothing else — never ipcRenderer, never Node.
// Sandboxed preloads cannot load modules, so this file imports only types from the contract and
// keeps its own list of method names, checked against the contract by the compiler.
import { contextBridge, ipcRenderer } from 'electron';
import type { Api, MethodName } from '../shared/api.js';

/** Every api method, once: a missing or unknown name is a type error. */
const METHOD_NAMES: Record<MethodName, true> = {
  suggest: true,
  recall_conversations: true,
  read_conversation: true,
  conversation_inspect: true,
  history_search: true,
  history_read: true,
  history_handoff: true,
  status: true,
  'ingest.append': true,
  'conversations.list': true,
  'conversations.get': true,
  'conversations.entries': true,
  'conversations.workspaces': true,
  'conversations.find': true,
  'settings.get': true,
  'settings.set': true,
  'exclusions.preview': true,
  'exclusions.add': true,
  activity: true,
  'integrations.list': true,
  'integrations.install': true,
  'integrations.uninstall': true,
};

/** What the main process answers (src/main/app/ipc.ts): errors as values, so their message survives the bridge. */
type Reply = { ok: true; result: unknown } | { ok: false; error: { code: number; message: string } };

async function invoke(method: MethodName, params: unknown): Promise<unknown> {
  const reply = (await ipcRenderer.invoke('api', method, params ?? {})) as Reply;
  if (reply.ok) return reply.result;
  // Only an Error's message crosses the context bridge: the code rides in front of it ("-32004|…"),
  // and the renderer's transport takes it off again, so "not found" stays distinguishable.
  throw new Error(`${reply.error.code}|${reply.error.message}`);
}

const api = Object.fromEntries(
  (Object.keys(METHOD_NAMES) as MethodName[]).map((name) => [name, (params: unknown) => invoke(name, params)]),
) as unknown as Api;

contextBridge.exposeInMainWorld('throughline', api);
