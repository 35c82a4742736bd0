// The deadlines' own timers come from node:timers, not the global ones: a spec that spies on the global setTimeout
// (to count the timers the code under test sets) or fakes it counts none of them, and they still fire in real time.
import { clearTimeout, setTimeout } from 'node:timers';

/** How long a helper's wait lasts when its caller names no deadline: below Jest's 20 s, so the step that hangs is named. */
export const STEP_MS = 15_000;

/**
 * The `timeout` of a child process a spec runs synchronously (execFileSync, spawnSync): such a call blocks the event
 * loop, so neither Jest's timeout nor the global teardown could end a hung one and CI would wait for its own limit.
 */
export const SYNC_CHILD_MS = 120_000;

/** Test helper: polls `probe` until it gives a value (not `undefined`), failing after `timeoutMs` with `what` in the message. */
export async function until<T>(
  probe: () => T | undefined | Promise<T | undefined>,
  what: string,
  timeoutMs = STEP_MS,
  everyMs = 25,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = await probe();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

/** Test helper: `promise`, or a failure naming `what` once `timeoutMs` have passed (a step that hangs says which). */
export async function within<T>(promise: Promise<T>, what: string, timeoutMs = STEP_MS): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    // Unreferenced: a wait a test body left behind (it timed out, or raced this against another) holds nothing open.
    timer = setTimeout(() => reject(new Error(`timed out after ${timeoutMs} ms: ${what}`)), timeoutMs).unref();
  });
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * `within`, for a promise a helper hands out (a socket's close, a process's exit) that its caller may race against
 * another or never await: its late failure is then no unhandled rejection failing whichever test runs at that moment.
 */
export function bounded<T>(promise: Promise<T>, what: string, timeoutMs = STEP_MS): Promise<T> {
  const result = within(promise, what, timeoutMs);
  result.catch(() => undefined);
  return result;
}
