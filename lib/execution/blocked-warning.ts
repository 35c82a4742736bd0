/** Warns, naming the method, when a synchronous call held the event loop longer than allowed (DESIGN §5). */
import { performance } from 'node:perf_hooks';
import type { Logger } from '../logging/logger';

/**
 * Wraps `call` so that a run taking longer than `thresholdMs` of synchronous time logs a warning naming
 * `where`; with a threshold of 0 it returns `call` itself (no clock reads).
 *
 * @example
 * const timed = watchBlocking(() => method(), 'FruitResource#list', 200, log);
 */
export function watchBlocking<R>(call: () => R, where: string, thresholdMs: number, log: Logger): () => R {
  if (thresholdMs <= 0) return call;
  return () => {
    const start = performance.now();
    try {
      return call();
    } finally {
      const took = performance.now() - start;
      if (took > thresholdMs) log.warn(`${where} blocked the event loop for ${Math.round(took)} ms (framework.rest.blocked-warning-ms = ${thresholdMs})`);
    }
  };
}
