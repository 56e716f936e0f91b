// The error classes share three shapes (src/shared/errors.ts); each keeps its own name, its kind or
// code, and instanceof tells them apart, since dispatch and the CLI map errors by class.
import { expect, test } from 'vitest';
import { ApiError } from '../../src/main/api/dispatch.js';
import { ForbiddenError, NotFoundError } from '../../src/main/api/errors.js';
import { RpcCallError } from '../../src/main/client/socket-client.js';
import { CliError } from '../../src/main/cli/command.js';
import { RecallError } from '../../src/main/recall/errors.js';
import { StoreError } from '../../src/main/store/db.js';
import { StaleFileError } from '../../src/main/store/writer.js';
import { invalidParams } from '../../src/shared/invalid-params.js';
import { SuggestParams } from '../../src/shared/api.js';

test('each error keeps its name, message, kind or code', () => {
  const store = new StoreError('busy', 'The index is busy.');
  expect([store.name, store.message, store.kind, store instanceof Error]).toEqual(['StoreError', 'The index is busy.', 'busy', true]);
  expect(new RecallError('not-found', 'No conversation 9.')).toMatchObject({ name: 'RecallError', kind: 'not-found' });
  expect(new NotFoundError('x').name).toBe('NotFoundError');
  expect(new NotFoundError('x')).not.toBeInstanceOf(ForbiddenError);
  expect(new StaleFileError('/a.jsonl')).toMatchObject({ name: 'StaleFileError', message: '/a.jsonl was indexed further by another process meanwhile' });
  expect(new ApiError(-32004, 'gone', { id: 1 })).toMatchObject({ name: 'ApiError', code: -32004, data: { id: 1 } });
  expect(new RpcCallError(-32004, 'gone')).not.toBeInstanceOf(ApiError);
  expect(new CliError('usage', 'Say what.', 2, { flag: '--x' })).toMatchObject({ name: 'CliError', kind: 'usage', exitCode: 2, data: { flag: '--x' } });
});

test('one wording for a refused request, naming the field', () => {
  const parsed = SuggestParams.safeParse({ text: 5 });
  expect(parsed.success).toBe(false);
  if (!parsed.success) expect(invalidParams(parsed.error)).toEqual({ field: 'text', message: expect.stringMatching(/^Invalid params: text: /) });
});
