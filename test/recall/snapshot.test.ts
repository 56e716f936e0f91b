// A call reads one snapshot of the index. The daemon's writer commits while readers answer (a scan, a
// live append), and a call makes many statements: without one read transaction, its later statements
// saw rows its earlier ones had not (a message removed between two reads crashed recall at 10k).
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDb } from '../../src/main/store/db.js';
import { createRecall } from '../../src/main/recall/index.js';
import type { Strategy } from '../../src/main/recall/strategy.js';
import { addConversations, NOW, tmpDir } from './helpers.js';

function indexWithReader() {
  const dir = tmpDir();
  const file = path.join(dir, 'index.sqlite');
  const writer = openDb(file);
  const ids = addConversations(writer, dir, [
    { key: 'a', title: 'grpc deadline propagation', workspace: '/w/a', entries: ['the grpc deadline broke', 'fixed it'] },
    { key: 'b', title: 'grpc gateway', workspace: '/w/a', entries: ['grpc gateway timeouts'] },
  ]);
  return { writer, reader: openDb(file, { readonly: true }), ids };
}

describe('one snapshot per call', () => {
  it("a suggestion's reads all see the index as it was when the call began, while another connection commits", () => {
    const { writer, reader, ids } = indexWithReader();
    const a = ids.get('a')!;
    const seen: string[] = [];
    const probe: Strategy = {
      name: 'default',
      suggest: ({ search }) => {
        seen.push(search.conversations([a]).get(a)!.title!);
        // The daemon's writer commits in the middle of the call.
        writer.prepare('UPDATE conversations SET title = ? WHERE id = ?').run('renamed meanwhile', a);
        seen.push(search.conversations([a]).get(a)!.title!);
        return { ranked: [], reason: 'probe' };
      },
    };
    const recall = createRecall(reader, { strategies: { default: probe } });
    recall.suggest({ text: 'grpc deadline', now: new Date(NOW).toISOString(), scope: 'everywhere' });
    expect(seen).toEqual(['grpc deadline propagation', 'grpc deadline propagation']);
    // The next call begins after the commit and sees it.
    recall.suggest({ text: 'grpc deadline', now: new Date(NOW).toISOString(), scope: 'everywhere' });
    expect(seen[2]).toBe('renamed meanwhile');
  });

  it('each tool call ends its read, so later calls see new commits', () => {
    const { writer, reader, ids } = indexWithReader();
    const recall = createRecall(reader);
    const b = ids.get('b')!;
    expect(recall.read({ conversation_id: b }).conversation.title).toBe('grpc gateway');
    expect(reader.inTransaction).toBe(false);
    writer.prepare('UPDATE conversations SET title = ? WHERE id = ?').run('grpc gateway, renamed', b);
    expect(recall.read({ conversation_id: b }).conversation.title).toBe('grpc gateway, renamed');
    expect(recall.inspect({ conversation_id: b }).conversation.title).toBe('grpc gateway, renamed');
  });

  it('a call made inside a transaction the connection already has joins it', () => {
    const { writer, ids } = indexWithReader();
    const recall = createRecall(writer);
    const b = ids.get('b')!;
    const title = writer.transaction(() => {
      writer.prepare('UPDATE conversations SET title = ? WHERE id = ?').run('not committed yet', b);
      return recall.read({ conversation_id: b }).conversation.title;
    })();
    expect(title).toBe('not committed yet');
  });
});
