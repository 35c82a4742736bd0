/**
 * Timers on every runtime: a Worker without `nodejs_compat` has no `setImmediate`, and its timers are plain numbers
 * with no `unref()`.
 */

/**
 * Runs `callback` once the current task and its microtasks are done: through `setImmediate` where the runtime has it
 * (Node, Bun, Deno), else a zero-delay timer. Looked up at each call, so a test's fake timers see it.
 */
export function nextMacrotask(callback: () => void): void {
  if (typeof setImmediate === 'function') setImmediate(callback);
  else setTimeout(callback, 0);
}

/** The longest delay a timer keeps (about 24.8 days): Node, Bun and browsers take a longer one for 1 ms. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/** `timer`, told not to keep the process alive where the runtime's timers can be (on Workers nothing waits on them). */
export function unref<T>(timer: T): T {
  (timer as { unref?: () => unknown }).unref?.();
  return timer;
}
