// A small seeded PRNG for the benchmark corpus. Its own implementation (sfc32) rather than
// Math.random so that the same seed writes the same bytes on every machine and Node version.

export interface Rng {
  /** Uniform in [0, 1). */
  next(): number;
  /** Integer in [lo, hi], both included. */
  int(lo: number, hi: number): number;
  pick<T>(items: readonly T[]): T;
  /** Zipf-like pick: low indexes far more often than high ones (skew > 1 sharpens it). */
  skewed<T>(items: readonly T[], skew?: number): T;
  chance(p: number): boolean;
  /** `n` lowercase hex digits. */
  hex(n: number): string;
  uuid(): string;
  /** A new generator whose stream depends only on this one's next value: stable per child. */
  fork(): Rng;
  /** The next raw 32-bit value (a child's seed, for callers that must keep child seeds distinct). */
  u32(): number;
}

export function createRng(seed: number): Rng {
  // sfc32, seeded via splitmix32 so that small seeds still give well-mixed state.
  let sm = seed >>> 0;
  const split = (): number => {
    sm = (sm + 0x9e3779b9) >>> 0;
    let z = sm;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
    return (z ^ (z >>> 16)) >>> 0;
  };
  let a = split();
  let b = split();
  let c = split();
  let d = split();
  const u32 = (): number => {
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    return t >>> 0;
  };
  for (let i = 0; i < 12; i++) u32();

  const next = (): number => u32() / 4294967296;
  const hex = (n: number): string => {
    let s = '';
    while (s.length < n) s += u32().toString(16).padStart(8, '0');
    return s.slice(0, n);
  };
  return {
    next,
    int: (lo, hi) => lo + Math.floor(next() * (hi - lo + 1)),
    pick: (items) => items[Math.floor(next() * items.length)]!,
    skewed: (items, skew = 2.2) => items[Math.min(items.length - 1, Math.floor(items.length * Math.pow(next(), skew)))]!,
    chance: (p) => next() < p,
    hex,
    uuid: () => {
      const h = hex(32);
      return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${'89ab'[u32() & 3]}${h.slice(17, 20)}-${h.slice(20, 32)}`;
    },
    fork: () => createRng(u32()),
    u32,
  };
}
