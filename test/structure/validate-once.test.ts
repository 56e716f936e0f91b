// Params are validated once, by the api's dispatch (src/main/api/dispatch.ts), whichever transport a
// call came in by (issue 15 §1). Below the api (recall, store, ingest) nothing takes a method's params
// schema as a value, so nothing there can parse them a second time: in-process callers are held to
// the params' types by the type checker instead. Imports are read with TypeScript's parser.
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { expect, test } from 'vitest';
import * as contract from '../../src/shared/api.js';

const root = path.resolve(__dirname, '../..');
const BELOW_THE_API = ['src/main/recall', 'src/main/store', 'src/main/ingest'];

/** The exported names of shared/api.ts that are a method's params schema. */
const schemas: ReadonlySet<unknown> = new Set(Object.values(contract.METHODS));
const SCHEMA_NAMES = new Set(Object.entries(contract).filter(([, v]) => schemas.has(v)).map(([name]) => name));

function files(dir: string): string[] {
  return fs.readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((e) => {
    const rel = path.posix.join(dir, e.name);
    return e.isDirectory() ? files(rel) : /\.tsx?$/.test(e.name) ? [rel] : [];
  });
}

/** Names a file imports as values (not `import type`) from shared/api.js. */
function valueImportsOfContract(file: string, text: string): string[] {
  const out: string[] = [];
  for (const st of ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false).statements) {
    if (!ts.isImportDeclaration(st) || !ts.isStringLiteral(st.moduleSpecifier) || !st.moduleSpecifier.text.endsWith('shared/api.js')) continue;
    const clause = st.importClause;
    if (!clause || clause.isTypeOnly) continue;
    const bindings = clause.namedBindings;
    if (bindings && ts.isNamespaceImport(bindings)) out.push('*');
    if (bindings && ts.isNamedImports(bindings)) for (const el of bindings.elements) if (!el.isTypeOnly) out.push((el.propertyName ?? el.name).text);
  }
  return out;
}

test('the schemas are found by name (the check below has something to look for)', () => {
  expect(SCHEMA_NAMES).toContain('SuggestParams');
  expect(SCHEMA_NAMES).toContain('HistoryReadParams');
  expect(valueImportsOfContract('x.ts', "import { SuggestParams, type Pins } from '../../shared/api.js';")).toEqual(['SuggestParams']);
  expect(valueImportsOfContract('x.ts', "import type { SuggestParams } from '../../shared/api.js';")).toEqual([]);
});

test('below the api, no file holds a method params schema as a value', () => {
  const found = BELOW_THE_API.flatMap(files).flatMap((f) =>
    valueImportsOfContract(f, fs.readFileSync(path.join(root, f), 'utf8'))
      .filter((name) => name === '*' || SCHEMA_NAMES.has(name))
      .map((name) => `${f}: ${name}`),
  );
  expect(found).toEqual([]);
});
