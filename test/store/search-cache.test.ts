// Document frequencies and N are cached between queries until the full-text indexes change, whichever
// connection changes them; writes that leave them alone (the activity log) keep the cache.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDb } from '../../src/main/store/db.js';
import { createForgetter } from '../../src/main/store/forget.js';
import { createSearch } from '../../src/main/store/search.js';
import { createWriter } from '../../src/main/store/writer.js';
import { createActivityLog } from '../../src/main/store/activity.js';
import { addConversations, tmpDir } from '../recall/helpers.js';

describe('the search cache', () => {
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
});
