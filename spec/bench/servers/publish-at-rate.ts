/** The broadcast benches' publisher: `rate` events a second for `ms`, in 10 ms batches, each carrying its publication time. */
import { performance } from 'node:perf_hooks';

/** What each event carries: its number and when it was published (ms since the epoch, sub-millisecond). */
export interface BenchEvent {
  readonly n: number;
  readonly t: number;
}

const BATCH_MS = 10;

export function publishAtRate(rate: number, ms: number, publish: (event: BenchEvent) => void): void {
  let n = 0;
  const started = performance.now();
  const timer = setInterval(() => {
    // Catch up on the batches a late timer missed, so the rate holds.
    const due = Math.min(Math.floor(((performance.now() - started) / 1000) * rate), Math.floor((ms / 1000) * rate));
    while (n < due) publish({ n: n++, t: performance.timeOrigin + performance.now() });
    if (performance.now() - started >= ms) clearInterval(timer);
  }, BATCH_MS);
}
