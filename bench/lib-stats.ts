// Latency samples, percentiles and the number formats the benchmark table uses.

export interface Latency {
  n: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
  mean: number;
  /** CPU time of the same calls (user + system): what the call costs, without waiting for a CPU. */
  cpu?: { p50: number; p95: number };
}

/** Nearest-rank percentile of sorted samples. */
function rank(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

export function latency(samples: readonly number[]): Latency {
  const s = [...samples].sort((a, b) => a - b);
  const mean = s.length ? s.reduce((a, b) => a + b, 0) / s.length : Number.NaN;
  return { n: s.length, p50: rank(s, 50), p95: rank(s, 95), p99: rank(s, 99), max: s.at(-1) ?? Number.NaN, mean };
}

/**
 * Runs `fn` once per item, sequentially, timing each call by the wall clock and by CPU time. On a
 * busy machine the wall-clock tail is mostly waiting for a CPU; the CPU figures show the call's cost.
 */
export async function timeEach<T>(items: readonly T[], fn: (item: T) => Promise<unknown> | unknown): Promise<Latency> {
  const wall: number[] = [];
  const cpu: number[] = [];
  for (const item of items) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    await fn(item);
    wall.push(performance.now() - t0);
    const c = process.cpuUsage(c0);
    cpu.push((c.user + c.system) / 1000);
  }
  const l = latency(wall);
  const c = latency(cpu);
  return { ...l, cpu: { p50: c.p50, p95: c.p95 } };
}

export function ms(v: number): string {
  if (!Number.isFinite(v)) return '–';
  if (v >= 10_000) return `${(v / 1000).toFixed(1)} s`;
  if (v >= 1000) return `${(v / 1000).toFixed(2)} s`;
  if (v >= 100) return `${v.toFixed(0)} ms`;
  if (v >= 10) return `${v.toFixed(1)} ms`;
  return `${v.toFixed(2)} ms`;
}

export function pct(l: Latency): string {
  return `${ms(l.p50)} / ${ms(l.p95)} / ${ms(l.p99)}${l.cpu ? ` (CPU ${ms(l.cpu.p50)} / ${ms(l.cpu.p95)})` : ''}`;
}

export function mb(bytes: number): string {
  return `${(bytes / 1048576).toFixed(bytes >= 100 * 1048576 ? 0 : 1)} MB`;
}

/** "123×" (or "0.45×") for how many times `baseline` exceeds `ours`. */
export function times(baseline: number, ours: number): string {
  if (!Number.isFinite(baseline) || !Number.isFinite(ours) || ours <= 0) return '–';
  const r = baseline / ours;
  return `${r >= 10 ? r.toFixed(0) : r >= 1 ? r.toFixed(1) : r.toFixed(2)}×`;
}
