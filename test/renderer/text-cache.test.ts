// The markdown cache's policy: a long conversation read back and forth stays whole in it.
import { describe, expect, it } from 'vitest';
import { TextCache } from '../../src/renderer/src/lib/text-cache.js';

describe('TextCache', () => {
  it('keeps 1,200 entries of a few hundred characters (a count of 400 dropped two thirds)', () => {
    const cache = new TextCache<number>(2_000_000);
    const texts = Array.from({ length: 1200 }, (_, i) => `entry ${i} `.padEnd(600, 'x'));
    texts.forEach((t, i) => cache.set(t, i));
    expect(cache.size).toBe(1200);
    expect(cache.get(texts[0]!)).toBe(0);
  });

  it('drops the least recently used first once the characters exceed the budget', () => {
    const cache = new TextCache<string>(10);
    cache.set('aaaa', 'a');
    cache.set('bbbb', 'b');
    expect(cache.get('aaaa')).toBe('a'); // a is now the most recent
    cache.set('cccc', 'c'); // 12 characters: b goes
    expect([cache.has('aaaa'), cache.has('bbbb'), cache.has('cccc')]).toEqual([true, false, true]);
    // Setting a key again does not count it twice.
    cache.set('cccc', 'c2');
    expect([cache.size, cache.get('aaaa'), cache.get('cccc')]).toEqual([2, 'a', 'c2']);
    // One text over the whole budget still stays, alone: the entry on screen is always cached.
    cache.set('x'.repeat(50), 'big');
    expect(cache.size).toBe(1);
    expect(cache.get('x'.repeat(50))).toBe('big');
  });
});
