// The layering rule (test/structure/layers.ts) holds for the source tree, and it would catch an
// upward import: planted into a real file, each kind of import is reported.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { checkLayers, importsOf, layerOf, type SourceFile } from './layers.js';

const root = path.resolve(__dirname, '../..');

function sourceFiles(): SourceFile[] {
  const out: SourceFile[] = [];
  const walk = (dir: string): void => {
    for (const e of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
      const rel = path.posix.join(dir, e.name);
      if (e.isDirectory()) walk(rel);
      else if (/\.tsx?$/.test(e.name)) out.push({ path: rel, text: fs.readFileSync(path.join(root, rel), 'utf8') });
    }
  };
  walk('src');
  return out;
}

const key = (v: { file: string; imports: string }): string => `${v.file} -> ${v.imports}`;

describe('layers', () => {
  const files = sourceFiles();

  test('every import in src/ follows the table, and only the app imports electron', () => {
    expect(checkLayers(files).map((v) => `${key(v)} (${v.rule})`)).toEqual([]);
  });

  test('an upward import planted in the store is caught, whatever its form', () => {
    const plant = (text: string): SourceFile[] =>
      files.map((f) => (f.path === 'src/main/store/db.ts' ? { ...f, text: f.text + '\n' + text + '\n' } : f));
    const caught = (text: string): string[] => checkLayers(plant(text)).filter((v) => v.file === 'src/main/store/db.ts').map((v) => `${v.imports}: ${v.rule}`);

    expect(caught("import { createCore } from '../api/core.js';")).toEqual(['../api/core.js: store may not import api']);
    expect(caught("import type { Core } from '../api/core.js';")).toEqual(['../api/core.js: store may not import api']);
    expect(caught("export { createRecall } from '../recall/index.js';")).toEqual(['../recall/index.js: store may not import recall']);
    expect(caught("const m = await import('../server/socket.js');")).toEqual(['../server/socket.js: store may not import server']);
    expect(caught("import { app } from 'electron';")).toEqual(['electron: store may not import electron']);
    // Downward and sideways within the layer stay allowed.
    expect(caught("import { redactPrivate } from '../privacy.js';\nimport { createReader } from './read.js';")).toEqual([]);
  });

  test('a transport reaching past the api into the store is caught', () => {
    const planted = files.map((f) => (f.path === 'src/main/server/socket.ts' ? { ...f, text: f.text + "\nimport { openDb } from '../store/db.js';\n" } : f));
    expect(checkLayers(planted).map((v) => `${key(v)}: ${v.rule}`)).toContain('src/main/server/socket.ts -> ../store/db.js: server may not import store');
  });

  test('the CLI reaching past the api (the installers, the socket client, the store) is caught', () => {
    const plant = (text: string): string[] =>
      checkLayers(files.map((f) => (f.path === 'src/main/cli/agent-commands.ts' ? { ...f, text: f.text + '\n' + text + '\n' } : f)))
        .filter((v) => v.file === 'src/main/cli/agent-commands.ts')
        .map((v) => `${v.imports}: ${v.rule}`);
    expect(plant("const { INTEGRATIONS } = await import('../integrations/registry.js');")).toEqual(['../integrations/registry.js: cli may not import integrations']);
    expect(plant("import { connectRpc } from '../client/socket-client.js';")).toEqual(['../client/socket-client.js: cli may not import client']);
    expect(plant("import { openDb } from '../store/db.js';")).toEqual(['../store/db.js: cli may not import store']);
  });

  test('imports inside comments and strings are not imports', () => {
    const text = "// import { x } from '../api/core.js';\nconst s = \"import { y } from '../api/core.js'\";\nimport { z } from './read.js';\n";
    expect(importsOf({ path: 'src/main/store/x.ts', text })).toEqual(['./read.js']);
  });

  test('a new folder under src/main must be given a layer', () => {
    expect(layerOf('src/main/store/db.ts')).toBe('store');
    expect(layerOf('src/main/index.ts')).toBe('entry');
    expect(layerOf('src/main/settings.ts')).toBe('base');
    expect(() => layerOf('src/main/newthing/x.ts')).toThrow(/in no layer/);
  });
});
