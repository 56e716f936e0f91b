// What a client checks of an answer before it believes it: each method's result shape, at the
// fields a caller reads (lists are arrays of objects with their ids; texts are strings). A daemon of
// another release, or anything else listening on the socket, that answers something else is
// refused with an error naming the method and the field, instead of failing later on a missing one.
// Objects are loose: a newer server may add fields, and an older client ignores them.
import * as z from 'zod';
import type { MethodName } from './api.js';

const withId = z.looseObject({ id: z.number() });
const ids = z.array(withId);
const objects = z.array(z.looseObject({}));
const conversation = z.looseObject({ id: z.number(), workspace: z.string().nullable() });
const integrationChange = z.looseObject({
  integration: z.looseObject({ id: z.string(), state: z.string() }),
  changed: z.array(z.string()),
  unchanged: z.array(z.string()),
  backups: z.array(z.string()),
  notes: z.array(z.string()),
});
const settings = z.looseObject({ tokens: objects, exclusions: z.array(z.string()) });

export const RESULTS: { [M in MethodName]: z.ZodType } = {
  suggest: z.looseObject({
    suggestions: z.array(z.looseObject({ id: z.number(), workspace: z.string().nullable() })),
    block: z.string(),
    reason: z.string(),
    strategy: z.string(),
    sensitivity: z.string(),
  }),
  recall_conversations: z.looseObject({ hits: ids, more: z.boolean(), relaxed: z.boolean(), truncated: z.boolean(), text: z.string() }),
  read_conversation: z.looseObject({ conversation, turns: objects, totalTurns: z.number(), truncated: z.boolean(), text: z.string() }),
  conversation_inspect: z.looseObject({ conversation, blocks: objects, truncated: z.boolean(), text: z.string() }),
  history_search: z.looseObject({ hits: objects, more: z.boolean(), boundary: z.number().nullable(), text: z.string() }),
  history_read: z.looseObject({ entries: objects, truncated: z.boolean(), text: z.string() }),
  history_handoff: z.looseObject({ handoff: z.string(), entry: z.number(), after: z.number().nullable(), text: z.string() }),
  status: z.looseObject({
    schemaVersion: z.number(),
    conversations: z.number(),
    subagents: z.number(),
    entries: z.number(),
    files: z.number(),
    errors: objects,
    errorCount: z.number(),
    lastIndexedAt: z.number().nullable(),
    folders: objects,
  }),
  'ingest.append': z.looseObject({ conversation: z.number().nullable(), entries: z.number() }),
  'conversations.list': z.looseObject({ total: z.number(), items: ids }),
  'conversations.get': z.looseObject({ conversation, children: ids, resumeCommand: z.string().nullable(), boundary: z.number().nullable(), handoffs: objects }),
  'conversations.entries': z.looseObject({ conversation, entries: objects, hasOlder: z.boolean(), hasNewer: z.boolean(), boundary: z.number().nullable() }),
  'conversations.workspaces': z.looseObject({ items: z.array(z.looseObject({ workspace: z.string(), conversations: z.number() })) }),
  'conversations.find': z.looseObject({ matches: objects, total: z.number(), truncated: z.boolean() }),
  'settings.get': settings,
  'settings.set': settings,
  'exclusions.preview': z.looseObject({ conversations: z.number(), entries: z.number() }),
  'exclusions.add': z.looseObject({ exclusion: z.string(), removed: z.looseObject({ conversations: ids, entries: z.number() }), kept: z.number() }),
  activity: z.looseObject({ items: ids }),
  'integrations.list': z.looseObject({ items: z.array(z.looseObject({ id: z.string(), state: z.string() })) }),
  'integrations.install': integrationChange,
  'integrations.uninstall': integrationChange,
};

/** What `auth` answers (api/access-policy.ts authAnswer). */
export const AuthResult = z.looseObject({
  client: z.string(),
  token: z.string().nullable(),
  workspaces: z.array(z.string()).nullable(),
  protocol: z.number(),
});

/** A JSON-RPC 2.0 error object: a numeric code and a message. */
export const RpcErrorShape = z.object({ code: z.number().int(), message: z.string(), data: z.unknown().optional() });
