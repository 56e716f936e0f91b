// How every boundary words a request zod refused: the first problem, naming the field, so a caller
// reads the same sentence whichever way (socket, HTTP, IPC, MCP, CLI, auth) the request came in.
import type { z } from 'zod';

export function invalidParams(error: z.ZodError): { field: string; message: string } {
  const issue = error.issues[0];
  const field = issue?.path.length ? issue.path.join('.') : '(params)';
  return { field, message: `Invalid params: ${field}: ${issue?.message ?? 'invalid'}` };
}
