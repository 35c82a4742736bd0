/** Streams held open at once, counted by key (a client), each released when its request completes. */
import type { RequestContext } from '../context/request-context';

/** Open streams by key, for `@RateLimit({ streams })` and `max-streams-per-client`; per process, as streams are. */
export class StreamCounts {
  readonly #held = new Map<string, number>();

  /** Counts one more stream of `key` until `ctx` completes; `false`, and nothing counted, when it holds `max`. */
  hold(ctx: RequestContext, key: string, max: number): boolean {
    if (!this.take(key, max)) return false;
    ctx.onComplete(() => this.give(key));
    return true;
  }

  /** Counts one more stream of `key`, to be given back with `give`; `false`, and nothing counted, at `max`. */
  take(key: string, max: number): boolean {
    const held = this.#held.get(key) ?? 0;
    if (held >= max) return false;
    this.#held.set(key, held + 1);
    return true;
  }

  give(key: string): void {
    const now = (this.#held.get(key) ?? 1) - 1;
    if (now > 0) this.#held.set(key, now);
    else this.#held.delete(key);
  }
}
