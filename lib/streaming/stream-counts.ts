/** Streams held open at once, counted by key (a client), each released when its request completes. */
import type { RequestContext } from '../pipeline/request-context';

/**
 * Counts of open streams by key, for limits on how many one key may hold: `@RateLimit({ streams })` per endpoint,
 * `framework.http.limits.max-streams-per-client` over all of them. Per process, as the streams themselves are.
 */
export class StreamCounts {
  readonly #held = new Map<string, number>();

  /** The streams `key` holds now. */
  count(key: string): number {
    return this.#held.get(key) ?? 0;
  }

  /**
   * Counts one more stream of `key` until `ctx` completes (its answer sent, or its client gone); `false`, and
   * nothing counted, when `key` holds `max` already.
   */
  hold(ctx: RequestContext, key: string, max: number): boolean {
    const held = this.#held.get(key) ?? 0;
    if (held >= max) return false;
    this.#held.set(key, held + 1);
    ctx.onComplete(() => {
      const now = (this.#held.get(key) ?? 1) - 1;
      if (now > 0) this.#held.set(key, now);
      else this.#held.delete(key);
    });
    return true;
  }
}
