// Sensitivity presets of the salient-term gate (personal-recall-plugin.md) and how pins resolve.
// One dial moves the whole gate coherently; a pin overrides one parameter for every row.
import type { Pins, Sensitivity } from '../../shared/api.js';

export interface Gate {
  /** A term in more conversations than this is a stop word for this corpus and admits nothing. */
  dfCeiling: number;
  /** A conversation reached by one salient term alone is admitted only when that term's df ≤ this. */
  rareDf: number;
  /** At most this many conversations listed. */
  maxHits: number;
  /** Ceiling on the injected note, in estimated tokens (chars / 4). */
  tokenBudget: number;
  /** Recency prior: the fused score halves every this many days (toward a floor). */
  halfLifeDays: number;
}

export const DEFAULT_HALF_LIFE_DAYS = 60;

export const PRESETS: Readonly<Record<Sensitivity, Gate>> = {
  focused: { dfCeiling: 10, rareDf: 2, maxHits: 2, tokenBudget: 250, halfLifeDays: DEFAULT_HALF_LIFE_DAYS },
  balanced: { dfCeiling: 25, rareDf: 3, maxHits: 3, tokenBudget: 400, halfLifeDays: DEFAULT_HALF_LIFE_DAYS },
  broad: { dfCeiling: 60, rareDf: 5, maxHits: 5, tokenBudget: 700, halfLifeDays: DEFAULT_HALF_LIFE_DAYS },
};

export const DEFAULT_SENSITIVITY: Sensitivity = 'balanced';

/**
 * The gate for a sensitivity: shipped preset ← operator pins ← user pins. A pin that is set wins
 * over everything to its left for that one parameter; unset pins follow the preset, so the user's
 * sensitivity still moves every parameter nobody pinned.
 */
export function resolveGate(sensitivity: Sensitivity = DEFAULT_SENSITIVITY, operatorPins?: Pins, userPins?: Pins): Gate {
  const gate: Gate = { ...PRESETS[sensitivity] };
  for (const pins of [operatorPins, userPins]) {
    if (!pins) continue;
    if (pins.dfCeiling !== undefined) gate.dfCeiling = pins.dfCeiling;
    if (pins.rareDf !== undefined) gate.rareDf = pins.rareDf;
    if (pins.maxHits !== undefined) gate.maxHits = pins.maxHits;
    if (pins.tokenBudget !== undefined) gate.tokenBudget = pins.tokenBudget;
    if (pins.halfLifeDays !== undefined) gate.halfLifeDays = pins.halfLifeDays;
  }
  return gate;
}
