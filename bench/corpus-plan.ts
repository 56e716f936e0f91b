// The shape of one benchmark conversation: which agent, where, when, how long, and its turns.
// Lengths follow what real session folders look like: most sessions are a few turns, a quarter
// are working sessions of tens of KB, and a thin tail are multi-MB marathons whose bytes are mostly
// tool output (file reads, test logs). That tail is what stresses the indexer.
import type { Rng } from './lib-prng.js';
import type { Agent, ConversationWriter, ToolCall } from './corpus-formats.js';
import { assistantReply, command, filePath, machineOutput, paragraph, sentence, userPrompt, type Voice } from './corpus-text.js';

export interface Tier {
  name: 'short' | 'medium' | 'long' | 'huge';
  /** Share of conversations. */
  share: number;
  /** Target file size range in bytes. */
  bytes: [number, number];
  /** Tool output size range in characters. */
  output: [number, number];
}

// Mean ≈ 0.70·8k + 0.25·45k + 0.042·240k + 0.008·2.5M ≈ 47 KB per conversation (tiers overshoot
// their targets by a turn): ~500 MB at 10k, ~2.5 GB at 50k.
export const TIERS: readonly Tier[] = [
  { name: 'short', share: 0.7, bytes: [2_000, 14_000], output: [40, 1_500] },
  { name: 'medium', share: 0.25, bytes: [14_000, 80_000], output: [100, 6_000] },
  { name: 'long', share: 0.042, bytes: [80_000, 400_000], output: [500, 40_000] },
  { name: 'huge', share: 0.008, bytes: [1_000_000, 4_000_000], output: [2_000, 200_000] },
];

export function pickTier(rng: Rng): Tier {
  let r = rng.next();
  for (const t of TIERS) {
    if (r < t.share) return t;
    r -= t.share;
  }
  return TIERS[0]!;
}

/**
 * Each agent's share of the conversations: a person's history split mostly between two or three
 * agents, Claude Code and Codex the most used, the newer CLIs a tenth or less each (no published
 * usage figures; chosen so that every format is a few hundred conversations at 10k).
 */
export const AGENT_SHARES: readonly (readonly [Agent, number])[] = [
  ['claude-code', 0.37],
  ['codex', 0.16],
  ['pi', 0.11],
  ['gemini', 0.1],
  ['copilot', 0.07],
  ['opencode', 0.06],
  ['cursor', 0.05],
  ['droid', 0.04],
  ['aider', 0.04],
];
export const AGENTS: readonly Agent[] = AGENT_SHARES.map(([a]) => a);

export function pickAgent(rng: Rng): Agent {
  let r = rng.next();
  for (const [agent, share] of AGENT_SHARES) {
    if (r < share) return agent;
    r -= share;
  }
  return 'claude-code';
}

/** The corpus's "now": dates spread over the year before it. Fixed so that runs are comparable. */
export const CORPUS_NOW = Date.parse('2025-12-01T00:00:00Z');
const YEAR = 365 * 86_400_000;

export function pickStart(rng: Rng): Date {
  // Recent months are busier than old ones, as in anyone's history.
  return new Date(CORPUS_NOW - Math.floor(YEAR * Math.pow(rng.next(), 1.4)) - rng.int(0, 86_400_000));
}

function toolCall(v: Voice, tier: Tier): ToolCall {
  const [lo, hi] = tier.output;
  // Most outputs are small even in a long session; a few are huge (a whole file, a full test log).
  const size = v.rng.chance(0.15) ? v.rng.int(Math.floor(hi / 4), hi) : v.rng.int(lo, Math.max(lo, Math.floor(hi / 8)));
  const kind = v.rng.pick(['bash', 'bash', 'read', 'edit', 'grep'] as const);
  const args: Record<string, string> =
    kind === 'bash' ? { command: command(v) } : kind === 'grep' ? { pattern: v.rng.pick(v.idents), path: 'src' } : { path: filePath(v) };
  const output = kind === 'edit' ? `Applied edit to ${args.path}` : machineOutput(v, size);
  return { name: kind, args, output, error: v.rng.chance(0.08) };
}

/**
 * Writes turns until the file reaches its target size. The first prompt always names the
 * conversation's first rare identifier and its topic, so queries made from the manifest have an answer.
 */
export function writeTurns(w: ConversationWriter, v: Voice, tier: Tier): { turns: number; title: string | null } {
  const target = v.rng.int(tier.bytes[0], tier.bytes[1]);
  let turns = 0;
  let sinceCompaction = 0;
  while (w.size() < target || turns === 0) {
    const opener = turns === 0 ? `In \`${v.idents[0]}\` (${v.topic.join(' ')}): ` : '';
    w.user(opener + userPrompt(v));
    const rounds = v.rng.int(0, tier.name === 'short' ? 2 : 4);
    for (let r = 0; r < rounds; r++) {
      const tools = Array.from({ length: v.rng.int(1, 3) }, () => toolCall(v, tier));
      w.assistant(v.rng.chance(0.5) ? sentence(v) : null, tools, v.rng.chance(0.4) ? paragraph(v, 1, 3) : null);
    }
    const closing = turns === 0 ? `${assistantReply(v)} The \`${v.idents[1]}\` path is covered now.` : assistantReply(v);
    w.assistant(closing, [], v.rng.chance(0.3) ? paragraph(v, 1, 2) : null);
    turns++;
    if (++sinceCompaction >= 40 && tier.name !== 'short') {
      w.compaction(`## Goal\n${paragraph(v, 2, 4)}\n\n## Progress\n${paragraph(v, 3, 6)}\n\n## Next steps\n${paragraph(v, 1, 3)}`);
      sinceCompaction = 0;
    }
  }
  let title: string | null = null;
  if (v.rng.chance(0.3)) {
    title = `${v.topic.slice(0, 2).join(' ')} in ${v.idents[0]}`;
    w.title(title);
  }
  return { turns, title };
}
