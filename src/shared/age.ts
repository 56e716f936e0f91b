// A conversation's age, counted one way wherever it is shown (the window's list and Compose, the
// pointer block agents get, the CLI): calendar days by the local clock, so something from 22:00
// yesterday is "yesterday" at 09:00 today, not "today" as a count of 24-hour periods would say.

const DAY_MS = 86_400_000;

/** Local midnight at the start of the day holding this instant. */
export function startOfDay(ms: number): number {
  return new Date(ms).setHours(0, 0, 0, 0);
}

/** Calendar days from the day of `ms` to the day starting at `todayStart` (0 today, 1 yesterday). */
export function calendarDaysAgo(ms: number, todayStart: number): number {
  if (ms >= todayStart) return 0;
  // Rounded: a day with a daylight-saving change is 23 or 25 hours long.
  return Math.round((todayStart - startOfDay(ms)) / DAY_MS);
}
