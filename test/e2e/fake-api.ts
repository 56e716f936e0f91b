// A stand-in api with as many conversations as asked for, computed on demand: for measuring the
// renderer alone (the 50,000-row list) without building an index that size.
import type { Api, ConversationListItem, IndexStatus, SettingsView } from '../../src/shared/api.js';
import type { SourceKind } from '../../src/shared/types.js';

const KINDS: SourceKind[] = ['claude-code', 'codex', 'pi'];

export function syntheticConversation(i: number, now = Date.UTC(2026, 5, 1)): ConversationListItem {
  return {
    id: i + 1,
    source: KINDS[i % 3]!,
    sessionId: `session-${i}`,
    path: `/sessions/${i}.jsonl`,
    workspace: `/home/ada/code/project-${i % 40}`,
    title: `Conversation ${i + 1}: ${['fix the flaky test', 'add pagination', 'tune the query planner', 'review the release notes'][i % 4]}`,
    summary: i % 2 ? `Summary of conversation ${i + 1}.` : null,
    derivedSummary: null,
    createdAt: now - i * 60_000,
    updatedAt: now - i * 60_000,
    entryCount: 10 + (i % 90),
    parentId: null,
    isSubagent: false,
    missing: false,
  };
}

/** `total` conversations; `indexing` makes status report a scan in progress, with a few skipped lines. */
export function fakeApi(total: number, options: { indexing?: boolean } = {}): { api: Api; listCalls: { offset: number; limit: number }[] } {
  const listCalls: { offset: number; limit: number }[] = [];
  const settings: SettingsView = { autoRecall: true, autoRecallWhen: 'start', sensitivity: 'balanced', scope: 'workspace', pins: {}, sources: [], tokens: [], exclusions: [], operator: { autoRecallOff: false, pins: {} } };
  const status: IndexStatus = {
    db: '/tmp/fake.sqlite', schemaVersion: 1, conversations: total, subagents: 0, entries: total * 40, files: total, missingFiles: 0,
    bySource: { 'claude-code': total }, bytes: total * 40 * 600,
    errors: [], errorCount: 0, lastIndexedAt: Date.now(), indexing: null, socket: null,
    folders: [{ kind: 'claude-code', path: '/home/ada/.claude/projects', found: true, files: total }],
  };
  if (options.indexing) {
    const at = Date.now() - 90_000;
    status.indexing = { active: true, filesDone: 1_284, filesTotal: 3_410, entries: 412_930, bytes: 734 * 1024 * 1024, rateMBps: 41.6 };
    status.socket = '/run/user/1000/throughline/agent.sock';
    status.errors = [
      { path: '/home/ada/.claude/projects/-home-ada-code-ledger/5b1c2e9a-7d41-4c1e-9a0e-2f3b4c5d6e7f.jsonl', line: 1822, reason: 'line is not valid JSON (truncated write?)', at },
      { path: '/home/ada/.codex/sessions/2026/05/11/rollout-2026-05-11T11-26-55.jsonl', line: 7, reason: 'unknown record type "turn_context_v2"; skipped', at: at - 400_000 },
      { path: '/home/ada/.pi/agent/sessions/--home-ada-code-atlas-web--/2026-05-02T09-12-44.jsonl', line: 311, reason: 'entry refers to a parent that does not exist', at: at - 900_000 },
    ];
    status.errorCount = 3;
  }
  const impl: Partial<Api> = {
    status: async () => status,
    'settings.get': async () => settings,
    activity: async () => ({ items: [] }),
    'conversations.workspaces': async () => ({
      items: Array.from({ length: Math.min(40, total) }, (_, i) => ({ workspace: `/home/ada/code/project-${i}`, conversations: Math.ceil((total - i) / 40), updatedAt: Date.now() - i * 60_000 })),
    }),
    'conversations.list': async (p) => {
      const offset = p.offset ?? 0;
      const limit = p.limit ?? 100;
      listCalls.push({ offset, limit });
      const items: ConversationListItem[] = [];
      for (let i = offset; i < Math.min(total, offset + limit); i++) items.push(syntheticConversation(i));
      return { total, items };
    },
  };
  const api = new Proxy(impl, {
    get: (target, name: string) => target[name as keyof Api] ?? (async () => { throw new Error(`${name} is not part of the fake api`); }),
  }) as Api;
  return { api, listCalls };
}
