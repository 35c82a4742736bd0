/** The bytes all outgoing streams of one application (responses and WebSockets) hold, under one total budget. */

/**
 * What each stream may hold whatever the others do (less when half the budget cannot give every open stream this
 * much): a reading client holds its socket's mark (16-64 KB), a tick's batch and what comes before a drain.
 */
export const STREAM_SHARE = 256 * 1024;

/**
 * The application's count of held bytes, `framework.rest.stream.total-buffer-size`. A stream may grow within its
 * share, or past it while the total leaves every other open stream its share: a stream that holds little is never cut
 * for others' hoarding, nor one that reads for their number, and the total stays within the limit (but for one write
 * per stream). Streams count what waits for their socket and, once it is full, what it holds; an ended stream's bytes
 * still in its socket count until the connection lets them go.
 *
 * @example
 * const held = new HeldBytes(8 * 1024 * 1024);
 * held.join();
 * let counted = held.move(0, 4096); // a stream now holds 4 KB
 * held.leave(counted);
 */
export class HeldBytes {
  total = 0;
  #open = 0;
  #share = 0;
  /** The most the total may reach through a stream past its share: the limit less the other streams' shares. */
  #ceiling = 0;

  constructor(readonly limit: number) {
    this.#resize();
  }

  /** Streams counted: attached, or ended with bytes still in their socket. */
  get open(): number {
    return this.#open;
  }

  join(): void {
    this.#open++;
    this.#resize();
  }

  leave(held: number): void {
    this.total -= held;
    this.#open--;
    this.#resize();
  }

  /** How many more bytes a stream counting `held` may hold: up to its share, or what the ceiling leaves. */
  room(held: number): number {
    return Math.max(this.#share - held, this.#ceiling - this.total);
  }

  move(from: number, to: number): number {
    this.total += to - from;
    return to;
  }

  #resize(): void {
    const open = Math.max(1, this.#open);
    // Shares take at most half the budget: were it all shares, no stream could pass its own, and a reading client
    // would be cut for a burst while the total held next to nothing.
    this.#share = Math.min(STREAM_SHARE, this.limit / (2 * open));
    this.#ceiling = this.limit - (open - 1) * this.#share;
  }
}
