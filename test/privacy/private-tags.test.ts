// Issue 11 §13: the private tags as people actually type them are honoured; text that only looks a
// little like one is left alone.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createIndexer } from '../../src/main/ingest/scan.js';
import { ADAPTERS } from '../../src/main/ingest/sources.js';
import { redactPrivate } from '../../src/main/privacy.js';
import { openDb } from '../../src/main/store/db.js';
import { tempDir } from '../server/helpers.js';

const NEAR_MISSES = ['<private >s1</private>', '<private\n>s2</private>', '< private>s3</private>', '<PRIVATE>s4</ private >', '<private note="x">s5</private>', '<Private>s6'];

describe('redactPrivate', () => {
  it.each(NEAR_MISSES)('redacts %j', (form) => {
    const out = redactPrivate(`before ${form} after`);
    expect(out).not.toMatch(/s\d/);
    expect(out).toContain('[private]');
  });

  it('leaves look-alikes that are not the tag', () => {
    for (const text of ['<privateKey>', '<private-key>', 'a < private_b', 'private matters', '<privately>']) expect(redactPrivate(text)).toBe(text);
  });
});

let dir: string;
afterEach(() => {
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

it('no near-miss span reaches the index file, from titles or messages', () => {
  dir = tempDir('tl-tags-');
  const src = path.join(dir, 'import');
  fs.mkdirSync(src);
  const lines = [
    { type: 'conversation', id: 'tags', workspace: '/w', title: 'Keys < private>zyxtitlesecret</private>' },
    ...NEAR_MISSES.map((form, i) => ({ type: 'message', role: 'user', text: `message ${i} ${form.replace(/s\d/, `zyxsecret${i}`)}` })),
  ];
  fs.writeFileSync(path.join(src, 'tags.jsonl'), lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
  const file = path.join(dir, 'index.sqlite');
  const db = openDb(file);
  createIndexer(db, ADAPTERS).scan([{ kind: 'jsonl', root: src }]);
  expect(db.prepare('SELECT count(*) FROM entries').pluck().get()).toBe(NEAR_MISSES.length);
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
  for (const f of fs.readdirSync(dir).filter((n) => n.startsWith('index.sqlite'))) {
    expect(fs.readFileSync(path.join(dir, f)).includes('zyxsecret'), f).toBe(false);
    expect(fs.readFileSync(path.join(dir, f)).includes('zyxtitlesecret'), f).toBe(false);
  }
});
