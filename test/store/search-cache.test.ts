// Document frequencies and N are cached between queries until the full-text indexes change, whichever
// connection changes them; writes that leave them alone (the activity log) keep the cache.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDb } from '../../src/main/store/db.js';
import { createForgetter } from '../../src/main/store/forget.js';
import { createSearch } from '../../src/main/store/search.js';
import { createWriter } from '../../src/main/store/writer.js';
import { createActivityLog } from '../../src/main/store/activity.js';
import { createRecall } from '../../src/main/recall/index.js';
import { addConversations, NOW, tmpDir } from '../recall/helpers.js';

/** N and the mean conversation length as a scan of every conversation gives them. */
const scanned = (db: ReturnType<typeof openDb>) => {
  const r = db.prepare('SELECT count(*) AS n, avg(entry_count) AS avg FROM conversations').get() as { n: number; avg: number | null };
  return { conversations: r.n, avgEntries: r.avg ?? 0 };
};

describe('the search cache', () => {
  it('reads N and the mean length from the counts the index keeps: what a scan of the conversations gives', () => {
    const dir = tmpDir();
    const file = path.join(dir, 'index.sqlite');
    const writerDb = openDb(file);
    const reader = openDb(file, { readonly: true });
    const search = createSearch(reader);
    expect(search.corpusStats()).toEqual({ conversations: 0, avgEntries: 0 });
    const ids = addConversations(writerDb, dir, [
      { key: 'a', entries: ['the zebra crossing test', 'ok', 'and one more'] },
      { key: 'b', source: 'claude-code', entries: ['zebra stripes', 'fixed', 'a', 'b', 'c', 'd', 'e'] },
      { key: 's', isSubagent: true, parentKey: 'a', entries: ['checked by a sub-agent'] },
    ]);
    expect(search.corpusStats()).toEqual(scanned(reader));
    expect(search.corpusStats()).toEqual({ conversations: 3, avgEntries: 11 / 3 });
    createForgetter(writerDb).forget(ids.get('b')!, 'test');
    expect(search.corpusStats()).toEqual(scanned(reader));
    expect(search.corpusStats().conversations).toBe(2);
    reader.close();
    writerDb.close();
  });

  it('follows new and forgotten conversations written by another connection', () => {
    const dir = tmpDir();
    const file = path.join(dir, 'index.sqlite');
    const writerDb = openDb(file);
    addConversations(writerDb, dir, [{ key: 'a', entries: ['the zebra crossing test', 'ok'] }]);
    const reader = openDb(file, { readonly: true });
    const search = createSearch(reader);
    const [zebra] = search.stem(['zebra'])[0]!;
    expect(search.termDf(zebra!)).toBe(1);
    expect(search.corpusStats().conversations).toBe(1);

    const ids = addConversations(writerDb, dir, [{ key: 'b', entries: ['zebra stripes in the chart', 'fixed'] }]);
    createWriter(writerDb).refreshStaleTerms();
    expect(search.termDf(zebra!)).toBe(2);
    expect(search.corpusStats().conversations).toBe(2);

    // The activity log is written on every call the daemon answers: the counts stay right, and cached.
    createActivityLog(writerDb).record('test', 'suggest', '{}', [], 10);
    expect(search.termDf(zebra!)).toBe(2);

    createForgetter(writerDb).forget(ids.get('b')!, 'test');
    expect(search.termDf(zebra!)).toBe(1);
    expect(search.corpusStats().conversations).toBe(1);
    reader.close();
    writerDb.close();
  });

  it('reads the best entries, not all of them, once another connection adds more than the limit', () => {
    const dir = tmpDir();
    const file = path.join(dir, 'index.sqlite');
    const writerDb = openDb(file);
    addConversations(writerDb, dir, [{ key: 'a', entries: ['the zebra crossing test, a long message about a zebra crossing and more', 'ok'] }]);
    const reader = openDb(file, { readonly: true });
    const search = createSearch(reader);
    expect(search.termEntries('"zebra"', {}, 1)).toHaveLength(1);
    addConversations(writerDb, dir, [{ key: 'b', entries: ['zebra', 'fixed'] }]);
    // Two matches now, one asked for: the better one (the short entry), whatever was counted before.
    const rows = search.termEntries('"zebra"', {}, 1);
    expect(rows).toHaveLength(1);
    expect(rows[0]![2]).toBe(Math.min(...search.termEntries('"zebra"', {}, 2).map(([, , rank]) => rank)));
    reader.close();
    writerDb.close();
  });

  it('follows writes made through its own connection', () => {
    const dir = tmpDir();
    const db = openDb(path.join(dir, 'index.sqlite'));
    const search = createSearch(db);
    const [kafka] = search.stem(['kafka'])[0]!;
    expect(search.termDf(kafka!)).toBe(0);
    addConversations(db, dir, [{ key: 'a', entries: ['kafka lag', 'ok'] }]);
    createWriter(db).refreshStaleTerms();
    expect(search.termDf(kafka!)).toBe(1);
    db.close();
  });

  it("reads the indexes' version once per call, and again in the next call", () => {
    const dir = tmpDir();
    const file = path.join(dir, 'index.sqlite');
    const writerDb = openDb(file);
    addConversations(writerDb, dir, [
      { key: 'a', title: 'zebra crossing', entries: ['the zebra crossing test fails on the kafka consumer', 'fixed the consumer lag'] },
      { key: 'b', entries: ['kafka consumer lag again', 'ok'] },
    ]);
    const reader = openDb(file, { readonly: true });
    // Counts the reads of the version (the full-text indexes' structure records) on the real connection.
    let versionReads = 0;
    const prepare = reader.prepare.bind(reader);
    reader.prepare = ((sql: string) => {
      const st = prepare(sql);
      if (!sql.includes('_data WHERE id = 10')) return st;
      const all = st.all.bind(st);
      st.all = (...args: unknown[]) => {
        versionReads++;
        return all(...(args as []));
      };
      return st;
    }) as typeof reader.prepare;
    const recall = createRecall(reader);
    const now = new Date(NOW).toISOString();
    const text = 'the zebra crossing test and the kafka consumer lag';
    const before = recall.recall({ query: text, now });
    expect(before.hits.length).toBe(2);
    expect(versionReads).toBe(1);
    recall.suggest({ text, now, scope: 'everywhere' });
    expect(versionReads).toBe(2);

    // Another connection adds a conversation between two calls: the next call counts it.
    addConversations(writerDb, dir, [{ key: 'c', entries: ['zebra stripes on the kafka dashboard', 'done'] }]);
    createWriter(writerDb).refreshStaleTerms();
    const after = recall.recall({ query: text, now });
    expect(after.hits.length).toBe(3);
    expect(versionReads).toBe(3);
    reader.close();
    writerDb.close();
  });
});
