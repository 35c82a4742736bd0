/** Timers on every runtime: a Worker may have no `setImmediate`, and its timers are numbers with no `unref()`. */

/** Runs `callback` after the current task and its microtasks; looked up at each call, so fake timers see it. */
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
