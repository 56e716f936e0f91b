// A hook's suggest when no daemon answers: the index opened read-only, through the same access
// rules as the socket. Loaded only on that path (it brings SQLite and zod).
import { openBackend } from '../mcp/backend.js';
import type { DirectSuggest } from './suggest.js';

export const directSuggest: DirectSuggest = async (options, params) => {
  const backend = await openBackend({ ...options, direct: true });
  try {
    return await backend.call('suggest', params);
  } finally {
    backend.close();
  }
};
