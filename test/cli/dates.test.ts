// The CLI shows a conversation's day as the window does, by the local clock: a session at 00:53 UTC
// was on the 8th for someone in New York, and `search` must not say the 9th there.
import { afterEach, describe, expect, it } from 'vitest';
import { day } from '../../src/main/cli/human.js';

const zone = process.env.TZ;
afterEach(() => {
  if (zone === undefined) delete process.env.TZ;
  else process.env.TZ = zone;
});

describe('dates on a terminal', () => {
  it('are local calendar days', () => {
    const at = '2025-12-09T00:53:29.825Z';
    process.env.TZ = 'America/New_York';
    expect(day(at)).toBe('2025-12-08');
    expect(day(Date.parse(at))).toBe('2025-12-08');
    process.env.TZ = 'Asia/Tokyo';
    expect(day(at)).toBe('2025-12-09');
    process.env.TZ = 'UTC';
    expect(day('2025-12-31T23:59:59Z')).toBe('2025-12-31');
    expect(day(null)).toBe('undated');
    expect(day('not a date')).toBe('undated');
  });
});
