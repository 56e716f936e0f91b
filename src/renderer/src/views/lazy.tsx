// The views the window does not show first, loaded when first needed: the start bundle holds the
// frame and the conversation list only, so the list paints sooner (issue 16: start → list ≤ 1 s).
// The transcript brings markdown, DOMPurify and highlight.js (most of the bundle's weight); Settings,
// Activity, Compose and Status are routes of their own. Each is fetched again from the cache on reuse.
import { lazy } from 'react';

const transcript = () => import('./TranscriptView');

export const TranscriptView = lazy(() => transcript().then((m) => ({ default: m.TranscriptView })));
export const ActivityView = lazy(() => import('./ActivityView').then((m) => ({ default: m.ActivityView })));
export const ComposeView = lazy(() => import('./ComposeView').then((m) => ({ default: m.ComposeView })));
export const SettingsView = lazy(() => import('./SettingsView').then((m) => ({ default: m.SettingsView })));
export const StatusView = lazy(() => import('./StatusView').then((m) => ({ default: m.StatusView })));

/**
 * Fetches the transcript's code once the browser is idle after the list is in, so opening the first
 * conversation does not wait for it. A failed fetch is left to the lazy view, which tries again.
 */
export function prefetchTranscript(): void {
  requestIdleCallback(() => void transcript().catch(() => {}));
}
