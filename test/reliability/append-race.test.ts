// Two processes appending to one conversation at once (ingest.append): each entry gets a number of
// its own. The next number is taken inside the batch's write transaction; read before it, two
// appends could both take the same number and the second would replace the first's entry.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openDb } from '../../src/main/store/db.js';
import { bundle, start, type Runnable } from './bundle.js';

let child: Runnable;
beforeAll(async () => {
  child = await bundle('test/reliability/append-child.ts');
});
afterAll(() => child?.dispose());

it('two processes appending to one conversation keep every entry, numbered 0…n-1', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tl-append-race-'));
  const file = path.join(dir, 'index.sqlite');
  const count = 300;
  try {
    openDb(file).close(); // created and migrated before the race: the race is the appends'
    const at = Date.now() + 1500; // both loaded and waiting by then
    const runs = await Promise.all(['a', 'b'].map((name) => start([...child.argv, file, String(at), name, String(count)]).exited));
    for (const r of runs) expect(r.stdout.trim(), r.stderr).toBe('appended');
    const db = openDb(file, { readonly: true });
    try {
      const rows = db.prepare('SELECT e.seq, e.text FROM entries e JOIN conversations c ON c.id = e.conversation_id ORDER BY e.seq').all() as { seq: number; text: string }[];
      expect(rows.map((r) => r.seq)).toEqual([...Array(2 * count).keys()]);
      const texts = new Set(rows.map((r) => r.text));
      for (const name of ['a', 'b']) for (let i = 0; i < count; i++) expect(texts.has(`${name} message ${i}`)).toBe(true);
    } finally {
      db.close();
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}, 60_000);
