// Where a read call's time goes in the daemon's read pool (read-pool.ts): how long it waited in the
// queue for a free reader, how long the reader ran it, and the hand-over both ways (the message, the
// structured clone, the main thread getting to the answer). Under many agents calling at once the
// wait is most of a call's wall time (issue 16: a closed loop of 50 clients is a queue); this says
// how much, in the daemon's log, every `every` calls.

/** One call's times, ms. */
export interface CallTimes {
  waited: number;
  ran: number;
  handedOver: number;
}

export interface TimingSummary {
  calls: number;
  /** Calls answered on the main thread because no reader was ready. */
  onMainThread: number;
  waited: Percentiles;
  ran: Percentiles;
  handedOver: Percentiles;
}

export interface Percentiles {
  p50: number;
  p99: number;
  mean: number;
}

function percentiles(values: number[]): Percentiles {
  if (!values.length) return { p50: 0, p99: 0, mean: 0 };
  const sorted = [...values].sort((a, b) => a - b);
  const at = (p: number): number => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
  return { p50: at(0.5), p99: at(0.99), mean: sorted.reduce((a, b) => a + b, 0) / sorted.length };
}

export class PoolTiming {
  private times: CallTimes[] = [];
  private onMain = 0;

  constructor(
    private readonly every: number,
    private readonly report: (summary: TimingSummary) => void,
  ) {}

  /** A call answered by a reader. */
  add(times: CallTimes): void {
    this.times.push(times);
    this.flushIfDue();
  }

  /** A call answered on the main thread (no reader ready). */
  addOnMain(): void {
    this.onMain++;
    this.flushIfDue();
  }

  /** The calls since the last report, summarized (without resetting). */
  summary(): TimingSummary {
    const pick = (k: keyof CallTimes): number[] => this.times.map((t) => t[k]);
    return { calls: this.times.length + this.onMain, onMainThread: this.onMain, waited: percentiles(pick('waited')), ran: percentiles(pick('ran')), handedOver: percentiles(pick('handedOver')) };
  }

  private flushIfDue(): void {
    if (this.times.length + this.onMain < this.every) return;
    this.report(this.summary());
    this.times = [];
    this.onMain = 0;
  }
}

/** The log line of a summary. */
export function timingLine(s: TimingSummary, readers: number): string {
  const f = (p: Percentiles): string => `p50 ${p.p50.toFixed(1)} / p99 ${p.p99.toFixed(1)} / mean ${p.mean.toFixed(1)} ms`;
  return `reads: ${s.calls} calls (${s.onMainThread} on the main thread, ${readers} reader${readers === 1 ? '' : 's'}): waited for a reader ${f(s.waited)}; ran ${f(s.ran)}; handed over ${f(s.handedOver)}`;
}
