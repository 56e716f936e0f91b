// Assembles the block injected before an agent's first message (pocketpaw-context-building.md):
// parts by priority — the user's profile file first, then the pointer block, then anything the caller
// adds — within a token budget, dropping the lowest priority first and never going over.
import fs from 'node:fs';
import { estimateTokens } from './pointer-block.js';
import { cutChars } from './render.js';

export interface ContextPart {
  name: string;
  text: string;
}

export interface Assembled {
  text: string;
  included: string[];
  dropped: string[];
  /** A part was cut to fit (only ever the highest-priority one, when it alone is over budget). */
  cut: boolean;
  tokens: number;
}

const SEPARATOR = '\n\n';

/** Parts in priority order (first = most important). Empty parts are skipped. */
export function assemble(parts: readonly ContextPart[], tokenBudget: number): Assembled {
  const kept = parts.filter((p) => p.text.trim().length > 0).map((p) => ({ ...p }));
  const dropped: string[] = [];
  const join = () => kept.map((p) => p.text).join(SEPARATOR);
  while (kept.length > 1 && estimateTokens(join()) > tokenBudget) dropped.unshift(kept.pop()!.name);
  let cut = false;
  if (kept.length === 1 && estimateTokens(join()) > tokenBudget) {
    kept[0]!.text = cutChars(kept[0]!.text, Math.max(0, tokenBudget * 4));
    cut = true;
  }
  const text = join();
  return { text, included: kept.map((p) => p.name), dropped, cut, tokens: estimateTokens(text) };
}

export interface BuildInput {
  message: string;
  workspace?: string;
  tokenBudget: number;
  /** A user-editable profile file (like pocketpaw's USER.md); skipped when missing. */
  profilePath?: string;
  /** Lower-priority parts the caller adds after the pointer block (e.g. session notes). */
  extra?: readonly ContextPart[];
}

/** `pointerBlock(message, workspace, budget)` returns the pointer block rendered within `budget` tokens. */
export function createContextBuilder(pointerBlock: (message: string, workspace: string | undefined, tokenBudget: number) => string) {
  return function build(input: BuildInput): Assembled {
    const parts: ContextPart[] = [];
    const profile = readProfile(input.profilePath);
    if (profile) parts.push({ name: 'profile', text: `<user-profile>\n${profile}\n</user-profile>` });
    const used = estimateTokens(parts.map((p) => p.text).join(SEPARATOR) + SEPARATOR);
    // The pointer block gets what the profile leaves, so it shrinks (fewer pointers) before it is dropped.
    const left = Math.max(0, input.tokenBudget - used);
    const block = left > 0 ? pointerBlock(input.message, input.workspace, left) : '';
    if (block) parts.push({ name: 'pointers', text: block });
    parts.push(...(input.extra ?? []));
    return assemble(parts, input.tokenBudget);
  };
}

function readProfile(file: string | undefined): string | null {
  if (!file) return null;
  try {
    const text = fs.readFileSync(file, 'utf8').trim();
    return text || null;
  } catch {
    return null;
  }
}
