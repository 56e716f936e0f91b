// Helpers shared by the recall commands (recall-commands.ts, recall-history.ts).
import { UsageError } from './command.js';

export const DB_HELP = '  --db FILE         the index (default $THROUGHLINE_DB or $XDG_DATA_HOME/throughline/index.sqlite)\n  --json            print the result as one JSON object';

export function enumFlag<T extends string>(value: string | boolean | undefined, name: string, allowed: readonly T[]): T | undefined {
  if (value === undefined || typeof value === 'boolean') return undefined;
  if (!(allowed as readonly string[]).includes(value)) throw new UsageError(`--${name} is one of ${allowed.join(', ')}`);
  return value as T;
}

export function dateFlag(value: string | boolean | undefined, name: string): string | undefined {
  if (value === undefined || typeof value === 'boolean') return undefined;
  if (Number.isNaN(Date.parse(value))) throw new UsageError(`--${name} takes a date (YYYY-MM-DD or an ISO timestamp)`);
  return value;
}

export function textOf(positionals: string[], what: string): string {
  const text = positionals.join(' ').trim();
  if (!text) throw new UsageError(`${what} is missing (put it after --)`);
  return text;
}
