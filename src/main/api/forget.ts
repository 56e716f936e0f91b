// Forgetting and excluding, in one step: the exclusion goes into settings (so nothing brings it
// back) and what it covers leaves the index now, unless the person chose to keep it.
import type { ExclusionAddResult, ExclusionPreview } from '../../shared/api.js';
import { createExclusions, SESSION_PREFIX } from '../privacy.js';
import type { SettingsStore } from '../settings.js';
import type { WritableDb } from '../store/db.js';
import type { ExclusionCoverage, ExclusionKeeper } from '../store/exclusions.js';
import { scrub } from '../store/forget.js';
import type { Reader } from '../store/read.js';
import { NotFoundError } from './errors.js';

export interface ForgetDeps {
  db: WritableDb;
  reader: Reader;
  keeper: ExclusionKeeper;
  settings: SettingsStore;
}

/** A path or a glob is an exclusion as it is; anything else names one conversation (row id, session id, import id). */
export function isPattern(target: string): boolean {
  return target.startsWith('/') || /[*?]/.test(target) || target.startsWith(SESSION_PREFIX);
}

/** The exclusion that keeps `target` out: itself for a pattern, `session:ID` for a conversation. */
export function exclusionFor(reader: Reader, target: string): string {
  const t = target.trim();
  if (isPattern(t)) return t.length > 1 ? t.replace(/\/+$/, '') : t;
  const c = reader.conversation(t);
  if (!c) throw new NotFoundError(`No conversation "${target}" in the index (give a conversation id, a session id, or a path).`);
  return SESSION_PREFIX + c.sessionId;
}

/** A read: what the exclusion would remove now. */
export function previewExclusion(deps: { reader: Reader; coverage: ExclusionCoverage }, pattern: string): ExclusionPreview {
  const covered = deps.coverage.covered(createExclusions([exclusionFor(deps.reader, pattern)]));
  return { conversations: covered.conversations.length, entries: covered.entries };
}

/** Adds the exclusion for `target` and removes what it covers (or, with keepIndexed, keeps it frozen). */
export function excludeAndForget(deps: ForgetDeps, target: string, keepIndexed = false): ExclusionAddResult {
  const exclusion = exclusionFor(deps.reader, target);
  // Kept conversations are held by their exclusion before it is in force, so reconciling does not remove them.
  const kept = keepIndexed ? deps.keeper.keep(createExclusions([exclusion])) : 0;
  const current = deps.settings.get().exclusions;
  const next = current.includes(exclusion) ? current : [...current, exclusion];
  if (next !== current) deps.settings.set({ exclusions: next });
  const { forgotten } = deps.keeper.reconcile(createExclusions(next));
  if (forgotten.conversations.length) scrub(deps.db);
  return { exclusion, removed: forgotten, kept };
}
