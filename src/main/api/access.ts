// The one rule for what a limited caller may reach, used by the api and by the transports' filters.
import path from 'node:path';
import type { Access } from '../../shared/api.js';

export const FULL_ACCESS: Access = { workspaces: null };

/** A workspace is inside an allowed one when it is that folder or below it. */
export function within(workspace: string | null | undefined, allowed: readonly string[] | null): boolean {
  if (allowed === null) return true;
  if (!workspace) return false;
  const ws = path.resolve(workspace);
  return allowed.some((a) => ws === a || ws.startsWith(a.endsWith(path.sep) ? a : a + path.sep));
}
