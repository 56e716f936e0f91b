// Compose in a person's words. The recall engine explains itself for agents and tuning ("best match
// 2.97 is neither strong (≥ 14)…", "workspace ×"); the window says what that means in plain words and
// keeps the engine's numbers in a detail line for whoever wants them.
import type { Signal, Suggestion, SuggestResult } from '../../../shared/api';
import { ageInWords } from './format';

/** "2 conversation(s)" → "2 conversations", "1 term(s)" → "1 term": the engine's text, without "(s)". */
export function fixPlurals(text: string): string {
  return text.replace(/(\d[\d,]*)\s+([\p{L}-]+)\(s\)/gu, (_, n: string, w: string) => `${n} ${n === '1' ? w : `${w}s`}`).replace(/\(s\)/g, 's');
}

export function plural(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** The sentence to show for a suggest result, and the engine's own reason as its detail. */
export function explainResult(r: SuggestResult & { detail?: string }): { sentence: string; detail: string | null } {
  // An engine that already separates the two is taken at its word.
  if (r.detail) return { sentence: fixPlurals(r.reason), detail: fixPlurals(r.detail) };
  const reason = r.reason ?? '';
  let sentence: string;
  if (reason === 'disabled') sentence = 'Auto-recall is off: agents are offered nothing, though they can still search your history with their tools.';
  else if (/withheld/.test(reason)) sentence = reason;
  else if (/no workspace was given/.test(reason)) sentence = 'Where to look is “This workspace only”, but no workspace is given: type the agent’s working directory, or look in all your workspaces.';
  else if (r.suggestions.length === 1) sentence = 'It shares distinctive words with your message.';
  else if (r.suggestions.length > 1) sentence = 'Each of them shares distinctive words with your message.';
  else if (/stop words/.test(reason)) sentence = 'Every word of the message is too common to point at an earlier conversation.';
  else if (/^no (distinctive|salient) term|occurs in the index/.test(reason)) sentence = 'None of these words is rare enough in your history to point at one conversation.';
  else sentence = 'Some earlier conversations share words with it, but none closely enough to be worth your agent’s attention.';
  return { sentence, detail: sentence === reason || !reason ? null : fixPlurals(reason) };
}

/**
 * "throttling ≈ limiter, backoff ≈ retry" (the history's word ≈ the message's) → "throttling (you
 * wrote limiter), backoff (you wrote retry)"; null when the engine wrote something else.
 */
function closeMeanings(detail: string | undefined): string | null {
  const pairs = (detail ?? '').split(/,\s*/).map((p) => p.split(/\s*≈\s*/));
  if (!pairs.length || pairs.some((p) => p.length !== 2 || !p[0] || !p[1])) return null;
  return pairs.map(([theirs, yours]) => `${theirs} (you wrote ${yours})`).join(', ');
}

const capitalized = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/**
 * One signal as a person would say it: no points, no symbols. The suggestion is there for its date:
 * the age is said by the window's own calendar rule (ageInWords), as on the card's meta line, not
 * by the engine's count of 24-hour periods.
 */
export function signalInWords(s: Signal, of: Pick<Suggestion, 'updatedAt'>, now = Date.now()): string {
  const detail = s.detail?.replace(/\s*\([^)]*\)/g, '').replace(/^×\s*/, '').trim();
  switch (s.name) {
    case 'terms':
      return detail ? `Shares ${detail}` : 'Shares distinctive words';
    case 'similar': {
      const close = closeMeanings(s.detail);
      return close ? `Close in meaning: ${close}` : 'Uses words close in meaning to yours';
    }
    case 'together':
      return 'Said together in one message';
    case 'workspace':
      return /names/.test(s.detail ?? '') ? 'In the project your message names' : 'Same workspace';
    case 'time': {
      const when = detail?.replace(/^active\s+/i, '');
      return when ? `Active in the time you named: ${when}` : 'Active in the time you named';
    }
    case 'recency':
    case 'recent':
      return capitalized(`last active ${ageInWords(of.updatedAt, now)}`);
    case 'title':
    case 'summary':
    case 'transcript':
      return detail ? `In the ${s.name}: ${detail}` : `In the ${s.name}`;
    default:
      return detail ? `${s.name}: ${detail}` : s.name;
  }
}

const num = (n: number) => (Number.isInteger(n) ? String(n) : n.toFixed(2));

/** The numbers, for the detail line: "terms +2.10 (fts5, trigger) · workspace ×1.2 · recency ×0.95 (3d)". */
export function signalNumbers(s: Signal): string {
  const multiplier = s.detail?.startsWith('×');
  const value = multiplier ? `×${num(s.points)}` : s.points > 0 ? `+${num(s.points)}` : num(s.points);
  const rest = (multiplier ? s.detail!.slice(1) : s.detail ? ` (${s.detail})` : '').trim();
  return `${s.name} ${value}${rest ? ` ${rest.startsWith('(') ? rest : `(${rest})`}` : ''}`;
}
