// Watches what a real connection's statements answer: each `all()`'s rows are handed to `seen` on their
// way back, the statements themselves unchanged (the scan tests count the rows a step reads at once).
import type { Db } from '../../src/main/store/db.js';

export function onRowsReturned(db: Db, seen: (rows: unknown[]) => void): void {
  const prepare = db.prepare.bind(db);
  (db as { prepare: typeof db.prepare }).prepare = ((sql: string) => {
    const statement = prepare(sql);
    const all = statement.all.bind(statement);
    statement.all = ((...params: unknown[]) => {
      const rows = all(...params);
      seen(rows);
      return rows;
    }) as typeof statement.all;
    return statement;
  }) as typeof db.prepare;
}
