/** Warns when a synchronous call held the event loop too long (execution lanes: docs/streaming.md). */
import type { Logger } from '../logging/logger';

/**
 * Calls `method` on `target`, warning (naming `where`) when a call held the event loop over `thresholdMs`. Built once
 * per endpoint: a request pays two clock reads and no allocation, none with a threshold of 0.
 *
 * @example
 * const call = watchedCall(resource.list, resource, 'FruitResource#list', 200, log);
 * call([]); // warns if list() ran for more than 200 ms
 */
export function watchedCall(
  method: Function,
  target: unknown,
  where: string,
  thresholdMs: number,
  log: Logger,
): (args: readonly unknown[]) => unknown {
  if (thresholdMs <= 0) return (args) => method.apply(target, args) as unknown;
  // Date.now(): milliseconds are precise enough for a threshold in milliseconds, at a fraction of performance.now()'s cost.
  return (args) => {
    const start = Date.now();
    try {
      return method.apply(target, args) as unknown;
    } finally {
      const took = Date.now() - start;
      if (took > thresholdMs)
        log.warn(
          `${where} blocked the event loop for ${Math.round(took)} ms (framework.rest.blocked-warning-ms = ${thresholdMs})`,
        );
    }
  };
}
