// How every boundary words a request zod refused: the first problem, naming the field, so a caller
// reads the same sentence whichever way (socket, HTTP, IPC, MCP, CLI, auth) the request came in.
// The one way a zod problem is worded: the client's check of an answer and the operator file's too.
import type { z } from 'zod';

/** One problem zod found: the field it is in (`whole` when it is the value itself), and `field: what is wrong`. */
export function issueText(issue: z.ZodError['issues'][number] | undefined, whole: string, otherwise = 'invalid'): { field: string; text: string } {
  const field = issue?.path.length ? issue.path.join('.') : whole;
  return { field, text: `${field}: ${issue?.message ?? otherwise}` };
}

export function invalidParams(error: z.ZodError): { field: string; message: string } {
  const { field, text } = issueText(error.issues[0], '(params)');
  return { field, message: `Invalid params: ${text}` };
}
