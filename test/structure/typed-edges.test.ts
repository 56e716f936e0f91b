// The edges where untrusted or loosely typed data enters are typed, not cast: the access policy reads
// each method's params and result through its typed row (src/main/api/access-table.ts), so a renamed
// field is a compile error inside the security filter instead of a silent pass.
import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from 'vitest';
import { METHODS } from '../../src/shared/api.js';
import { ACCESS } from '../../src/main/api/access-table.js';

const root = path.resolve(__dirname, '../..');

/** `x as T` casts in code (comments and strings left out roughly: a cast is ` as ` after an identifier or bracket). */
function casts(file: string): string[] {
  const code = fs
    .readFileSync(path.join(root, file), 'utf8')
    .split('\n')
    .filter((l) => !/^\s*(\/\/|\*|\/\*\*)/.test(l))
    .map((l) => l.replace(/(['"`])(?:\\.|(?!\1).)*\1/g, "''"));
  return code.filter((l) => /[\w)\]] as (?!const\b)[A-Za-z{[(]/.test(l));
}

test('the access policy has no casts: every method has a typed row', () => {
  expect(casts('src/main/api/access-policy.ts')).toEqual([]);
  expect(casts('src/main/api/access-table.ts')).toEqual([]);
  expect(Object.keys(ACCESS).sort()).toEqual(Object.keys(METHODS).sort());
});

/** Every file under src/ (relative, forward slashes). */
function sources(dir = 'src'): string[] {
  return fs.readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((e) => {
    const rel = path.posix.join(dir, e.name);
    return e.isDirectory() ? sources(rel) : /\.tsx?$/.test(e.name) ? [rel] : [];
  });
}

test('the parts made by a createX are declared types, not ReturnType<typeof createX> (issue 15 §5)', () => {
  const inferred = sources().flatMap((f) =>
    fs
      .readFileSync(path.join(root, f), 'utf8')
      .split('\n')
      .flatMap((line, i) => (/ReturnType<typeof create[A-Z]/.test(line) ? [`${f}:${i + 1}: ${line.trim()}`] : [])),
  );
  expect(inferred).toEqual([]);
});
