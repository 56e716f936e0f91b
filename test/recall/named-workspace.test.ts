// A message that names a project by its folder is about that project wherever it is typed: "how did
// notify-svc make sure a message is never sent twice" from another repository means the conversation
// in notify-svc, not its twin elsewhere. Only names nobody writes by chance count.
import { describe, expect, it } from 'vitest';
import { createRecall } from '../../src/main/recall/index.js';
import { workspaceNamer } from '../../src/main/recall/named-workspace.js';
import { buildIndex, filler, NOW } from './helpers.js';

const when = new Date(NOW).toISOString();

describe('workspaceNamer', () => {
  it('finds a folder of several words written with hyphens, spaces or a possessive', () => {
    const names = workspaceNamer("how does the Feature Store's online check work, and what did notify-svc do?");
    expect(names('/home/lin/src/feature-store')).toBe(true);
    expect(names('/home/noor/src/notify-svc/')).toBe(true);
    expect(names('/home/noor/src/notify_svc')).toBe(true);
    expect(names('/home/lin/src/label-tool')).toBe(false);
    expect(names(null)).toBe(false);
  });

  it('takes one word only when it is not everyday English', () => {
    const names = workspaceNamer('write up notes on the server move for throughline');
    expect(names('/home/me/src/throughline')).toBe(true);
    expect(names('/home/me/notes')).toBe(false);
    expect(names('/home/me/server')).toBe(false);
  });

  it('matches whole words: "svc" alone does not name notify-svc, "payments api v2" does not name payments-api-v3', () => {
    const names = workspaceNamer('restart the svc behind payments api v2');
    expect(names('/src/notify-svc')).toBe(false);
    expect(names('/src/payments-api-v3')).toBe(false);
    expect(names('/src/payments-api-v2')).toBe(true);
  });
});

describe('a named project in search and suggest', () => {
  // The same words in two projects; the message is typed in a third.
  const text = ['the webhook sender retries and a message goes out twice', 'Keyed each send on an idempotency key in redis, kept a day.'];
  const convs = [
    { key: 'named', workspace: '/home/noor/src/notify-svc', title: 'duplicate sends', entries: text, daysAgo: 40 },
    { key: 'other', workspace: '/home/noor/src/kestrel-api', title: 'duplicate sends', entries: text, daysAgo: 40 },
    ...filler(30),
  ];
  const query = 'adding idempotency to the webhook sender: how did notify-svc make sure a message is never sent twice';

  it('search puts the conversation in the named project first', () => {
    const { db, ids } = buildIndex(convs);
    const hits = createRecall(db).recall({ query, now: when }).hits;
    expect(hits[0]?.id).toBe(ids.get('named'));
    expect(hits[1]?.id).toBe(ids.get('other'));
    expect(hits[0]!.score).toBeGreaterThan(hits[1]!.score);
    db.close();
  });

  it('suggest gives it the workspace prior and says why', () => {
    const { db, ids } = buildIndex(convs);
    const r = createRecall(db).suggest({ text: query, workspace: '/home/noor/src/clinic-portal', scope: 'everywhere', now: when });
    expect(r.suggestions[0]?.id).toBe(ids.get('named'));
    const ws = r.suggestions[0]!.signals.find((s) => s.name === 'workspace');
    expect(ws?.detail).toBe('the workspace the message names');
    expect(r.suggestions.find((s) => s.id === ids.get('other'))?.signals.some((s) => s.name === 'workspace') ?? false).toBe(false);
    db.close();
  });
});
