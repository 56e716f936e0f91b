// SQL lives in src/main/store only (issue 15 §2): everything above reaches the index through the
// store's functions, which are what a second backend would implement.
// Calls of the SQLite API are found with TypeScript's parser, so a comment or a string cannot fool it.
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { expect, test } from 'vitest';

const root = path.resolve(__dirname, '../..');

/** better-sqlite3's methods that run SQL; `exec` only with SQL text (RegExp#exec takes a string too, but not a literal of SQL). */
const SQL_METHODS = new Set(['prepare', 'pragma', 'transaction']);
const SQL_TEXT = /^\s*(SELECT|INSERT|UPDATE|DELETE|BEGIN|COMMIT|ROLLBACK|PRAGMA|CREATE|DROP|WITH)\b/i;

/** Outside the store on purpose: these read another program's database, not the index. */
const NOT_THE_INDEX = new Set(['src/main/ingest/adapters/opencode-db.ts']);

/**
 * Still outside the store, one by one, so nothing new joins them (and this fails when one is gone but
 * still listed). None now: the indexer's statements moved into store/file-states.ts.
 */
const REMAINING: string[] = [];

function sqlCalls(file: string, text: string): string[] {
  const out: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression)) {
      const name = node.expression.name.text;
      const first = node.arguments[0];
      const literal = first && (ts.isStringLiteral(first) || ts.isNoSubstitutionTemplateLiteral(first) || ts.isTemplateExpression(first));
      const sqlText = literal ? (ts.isTemplateExpression(first) ? first.head.text : first.text) : '';
      if (SQL_METHODS.has(name) || (name === 'exec' && SQL_TEXT.test(sqlText))) out.push(`${file}: ${name}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true));
  return out;
}

function mainSources(): string[] {
  const out: string[] = [];
  const walk = (dir: string): void => {
    for (const e of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
      const rel = path.posix.join(dir, e.name);
      if (e.isDirectory()) walk(rel);
      else if (/\.tsx?$/.test(e.name)) out.push(rel);
    }
  };
  walk('src');
  return out.sort();
}

test('no SQL outside src/main/store (besides the listed ones)', () => {
  const found = mainSources()
    .filter((f) => !f.startsWith('src/main/store/') && !NOT_THE_INDEX.has(f))
    .flatMap((f) => sqlCalls(f, fs.readFileSync(path.join(root, f), 'utf8')));
  expect(found).toEqual(REMAINING);
});

test('the check sees SQL planted in any of its forms', () => {
  const planted = [
    "db.prepare('SELECT 1').get();",
    'db.pragma("user_version", { simple: true });',
    'db.exec(`DELETE FROM entries`);',
    'const tx = db.transaction(() => 1);',
  ].join('\n');
  expect(sqlCalls('src/main/api/x.ts', planted)).toEqual(['src/main/api/x.ts: prepare', 'src/main/api/x.ts: pragma', 'src/main/api/x.ts: exec', 'src/main/api/x.ts: transaction']);
  expect(sqlCalls('src/main/api/x.ts', "/^a/.exec(text); // db.prepare('SELECT 1')\nconst s = \"db.prepare('x')\";")).toEqual([]);
});

test('above the store, nothing reaches the index through the core’s handle (core.db): only the store’s declared parts', () => {
  const found = mainSources()
    .filter((f) => f !== 'src/main/api/core.ts')
    .flatMap((f) => (/\bcore\.db\b/.test(fs.readFileSync(path.join(root, f), 'utf8')) ? [f] : []));
  expect(found).toEqual([]);
});
