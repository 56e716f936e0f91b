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
