// What a message says about WHEN and WHETHER it points back, apart from what it is about.
//
// People point back at earlier work in a handful of English turns of phrase ("again", "like last
// time", "the same way as", "that … thing", "as we discussed") and place it in time ("in June",
// "last week"). These are properties of the language, not of anyone's corpus, so a short list is the
// right tool here (unlike topic words, whose weight always comes from the person's own history). The
// stop-word list already keeps these words out of the terms; this module reads them as cues instead:
// - a back-reference makes the recent work of this workspace more likely to be the one meant;
// - a time reference makes conversations active in that period more likely.

const DAY_MS = 86_400_000;

export interface Cues {
  /** The message refers to earlier work ("again", "like last time", "same … as"). */
  backReference: boolean;
  /**
   * The message asks what was done before ("how did we …", "what did we change", "I remember we
   * once …"): it says an earlier conversation exists, so the best match is worth showing even when
   * it shares few words.
   */
  asksPast: boolean;
  /** The period the message names, [start, end) in ms, when it names one. */
  period: { start: number; end: number; label: string } | null;
  /** Words that only placed the message in time ("june", "yesterday"): not topic terms. */
  timeWords: string[];
}

const BACK_REFERENCE: readonly RegExp[] = [
  /\bagain\b/,
  /\b(last|previous|earlier) (time|one|attempt|run|round)\b/,
  /\blike (before|we did|last time|earlier)\b/,
  /\bas (before|we did|we discussed|discussed|agreed|last time)\b/,
  /\bsame (way|as|thing|template|fix|approach|steps|issue|problem|setup|procedure|trick)\b/,
  /\b(we|you) (did|fixed|solved|wrote|built|had|used|tried) (it|that|this|the same)\b/,
  /\bremember\b/,
  /\b(that|those) [^.?!,;]{0,30}\b(thing|things|issue|problem|bug|stuff|one)\b/,
  /\bthe [^.?!,;]{0,30}\b(thing|stuff)\b/,
  /\b(is|are|it's|its|was) back\b/,
  /\b(seen|had|hit|fixed|solved|done|debugged|handled) (this|that|it)( \w+){0,2} before\b/,
  /\b(this|that|it) (happened|came up|broke) before\b/,
  /\b(once more|one more time)\b/,
  /\b(came|keeps coming|kept coming) back\b/,
  /\b(we|you and i) (talked|spoke|chatted) about\b/,
  /\bwe discussed\b/,
  /\byou (helped|showed) me\b/,
  /\bwhat (we|you) did (for|with|in|on|to|last)\b/,
  /\bthe way (we|you) (did|handled|fixed|solved|set up|wrote|built)\b/,
];

const ASKS_PAST: readonly RegExp[] = [
  /\b(how|what|where|when|which|why|who)\b[^.?!]{0,60}\b(did|had) (we|i|you)\b/,
  /\b(we|i) (once|previously)\b/,
  /\bback then\b/,
  /\b(did|didn't|didnt|have|haven't|havent) (we|i|you) (ever|already)\b/,
  /\bwhat was the\b[^.?!]{0,40}\b(we|i|you) (used|ran|chose|picked|wrote|set|went with)\b/,
];

const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];
const SHORT_MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

function monthPeriod(month: number, now: number, label: string): Cues['period'] {
  const d = new Date(now);
  // The most recent such month that has begun: "in June" said in March means last June.
  const year = month > d.getUTCMonth() ? d.getUTCFullYear() - 1 : d.getUTCFullYear();
  return { start: Date.UTC(year, month, 1), end: Date.UTC(year, month + 1, 1), label };
}

const WEEKDAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];
const UNIT_DAYS: Record<string, number> = { day: 1, week: 7, month: 30.5, year: 365 };
const COUNTS: Record<string, number> = { a: 1, an: 1, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, couple: 2, few: 3 };

/**
 * "three weeks ago", "a couple of days ago", "a few months ago": people round, so the period reaches
 * half the stated distance either side (at least a day), and "a few" means two to four.
 */
function agoPeriod(text: string, now: number): { period: Cues['period']; words: string[] } | null {
  const m = text.match(/\b(\d{1,2}|an?|one|two|three|four|five|six|(?:a )?couple(?: of)?|(?:a )?few) (day|week|month|year)s? ago\b/);
  if (!m) return null;
  const said = m[1]!.replace(/^a /, '').replace(/ of$/, '');
  const count = /^\d/.test(said) ? Number(said) : COUNTS[said]!;
  const unit = UNIT_DAYS[m[2]!]! * DAY_MS;
  const [near, far] = said === 'few' ? [2 * unit, 4 * unit] : [count * unit, count * unit];
  const slack = said === 'few' ? unit / 2 : Math.max(DAY_MS, (count * unit) / 2);
  const countWords = m[1]!.split(' ').filter((w) => w !== 'a' && w !== 'an' && w !== 'of');
  return { period: { start: now - far - slack, end: now - near + slack, label: m[0] }, words: [...countWords, m[2]!, `${m[2]!}s`] };
}

/** A season's first month (northern hemisphere; winter starts in December). */
const SEASONS: Record<string, number> = { spring: 2, summer: 5, autumn: 8, fall: 8, winter: 11 };

/**
 * "back in spring", "over the summer", "last winter": a season placed in time. "spring" and "fall"
 * alone are too often something else (Spring Boot, a test that falls), so the season needs a word
 * before it that places it; "last" said during that season means the year before.
 */
function seasonPeriod(text: string, now: number): { period: Cues['period']; words: string[] } | null {
  const m = text.match(/\b(back in|in the|over the|during the|in|last|this past|this|earlier this|early|late) (spring|summer|autumn|fall|winter)\b(?! (?:boot|framework|cloud|security|data|batch|mvc|bean|through|back|over|off|out|apart))/);
  if (!m) return null;
  const first = SEASONS[m[2]!]!;
  const d = new Date(now);
  // Months since the season last began (0 to 11), then its start: the latest that has begun.
  const since = (d.getUTCMonth() - first + 12) % 12;
  let start = Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - since, 1);
  if (m[1] === 'last' && since < 3) start = Date.UTC(d.getUTCFullYear() - 1, d.getUTCMonth() - since, 1);
  const begun = new Date(start);
  return { period: { start, end: Date.UTC(begun.getUTCFullYear(), begun.getUTCMonth() + 3, 1), label: `${m[1]} ${m[2]}` }, words: [m[2]!] };
}

function startOfWeek(now: number): number {
  const d = new Date(now);
  const day = (d.getUTCDay() + 6) % 7; // Monday = 0
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() - day);
}

/**
 * Time references, most specific first. A month name counts only after a preposition that places
 * something in time ("in may", "since june", "back in march"), or alone when the name is not also an
 * everyday word ("may", "march" are verbs too).
 */
function periodOf(text: string, now: number): { period: Cues['period']; words: string[] } {
  const names = MONTHS.join('|');
  const placed = text.match(new RegExp(`\\b(?:in|from|since|during|back in|of|early|mid|late|around)\\s+(${names})\\b`));
  const bare = placed ?? text.match(new RegExp(`\\b(${MONTHS.filter((m) => m !== 'may' && m !== 'march').join('|')})\\b`));
  if (bare) {
    const month = MONTHS.indexOf(bare[1]!);
    return { period: monthPeriod(month, now, bare[1]!), words: [bare[1]!, SHORT_MONTHS[month]!] };
  }
  const season = seasonPeriod(text, now);
  if (season) return season;
  const d = new Date(now);
  const today = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate());
  const ago = agoPeriod(text, now);
  if (ago) return ago;
  if (/\b(earlier today|this morning)\b/.test(text)) return { period: { start: today, end: now + 1, label: 'today' }, words: ['today', 'morning'] };
  if (/\byesterday\b/.test(text)) return { period: { start: today - DAY_MS, end: today, label: 'yesterday' }, words: ['yesterday'] };
  if (/\blast night\b/.test(text)) return { period: { start: today - DAY_MS, end: now + 1, label: 'last night' }, words: ['night'] };
  if (/\bthe other day\b/.test(text)) return { period: { start: today - 10 * DAY_MS, end: today, label: 'the other day' }, words: ['day'] };
  const weekday = text.match(new RegExp(`\\blast (${WEEKDAYS.join('|')})\\b`));
  if (weekday) {
    // The latest such day before today ("last friday" said on a Friday is a week ago).
    const back = ((d.getUTCDay() - WEEKDAYS.indexOf(weekday[1]!) + 6) % 7) + 1;
    return { period: { start: today - back * DAY_MS, end: today - (back - 1) * DAY_MS, label: `last ${weekday[1]}` }, words: [weekday[1]!] };
  }
  if (/\b(last|over the|this past) weekend\b/.test(text)) {
    const saturday = startOfWeek(now) - 2 * DAY_MS;
    return { period: { start: saturday, end: saturday + 2 * DAY_MS, label: 'last weekend' }, words: ['weekend'] };
  }
  if (/\blast week\b/.test(text)) {
    const monday = startOfWeek(now);
    return { period: { start: monday - 7 * DAY_MS, end: monday, label: 'last week' }, words: ['week'] };
  }
  if (/\b(this|earlier this) week\b/.test(text)) return { period: { start: startOfWeek(now), end: now + 1, label: 'this week' }, words: ['week'] };
  if (/\blast month\b/.test(text)) {
    return { period: { start: Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - 1, 1), end: Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1), label: 'last month' }, words: ['month'] };
  }
  if (/\b(this month|(start|beginning) of (this|the) month)\b/.test(text)) {
    return { period: { start: Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1), end: now + 1, label: 'this month' }, words: ['month', 'start', 'beginning'] };
  }
  return { period: null, words: [] };
}

export function readCues(message: string, now: number): Cues {
  const text = message.toLowerCase().replace(/\s+/g, ' ');
  const backReference = BACK_REFERENCE.some((re) => re.test(text));
  const asksPast = ASKS_PAST.some((re) => re.test(text));
  const { period, words } = periodOf(text, now);
  return { backReference, asksPast, period, timeWords: words };
}

/** Whether a conversation's active span [created, updated] overlaps the period. */
export function activeIn(period: { start: number; end: number }, createdAt: number | null, updatedAt: number | null): boolean {
  const from = createdAt ?? updatedAt;
  const to = updatedAt ?? createdAt;
  if (from === null || to === null) return false;
  return to >= period.start && from < period.end;
}
