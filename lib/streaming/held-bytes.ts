/**
 * The bytes all outgoing streams of one application (responses and WebSockets) hold ahead of their clients, under
 * one total budget; each stream's own budget is its output's business.
 */

/**
 * What each stream may hold whatever the others hold, while half the budget has this much for every open stream
 * (less, that half divided among them, when it has not): a client that reads holds at most its socket's high-water
 * mark (16 KB on Node's HTTP, 64 KB for a WebSocket), a tick's batch (16 KB) and what its source sends before the
 * socket drains, well within it; a client that does not read passes it and meets the total.
 */
export const STREAM_SHARE = 256 * 1024;

/**
 * The application's count of held bytes, `framework.rest.stream.total-buffer-size`. A stream may grow within its
 * share, or past it while the total leaves every other open stream its share (the shares together are at most half
 * the limit, so a stream may pass its own while the total is under half): so a stream that holds little is never cut
 * for others' hoarding, nor one that reads for their number, and the total stays within the limit (each stream may
 * pass it by the one write that found its socket full). Streams count what waits for their socket and, once it is
 * full, what it holds; bytes left in the socket of an ended stream count until the connection lets them go.
 *
 * @example
 * const held = new HeldBytes(8 * 1024 * 1024);
 * held.join();
 * let counted = held.move(0, 4096); // a stream now holds 4 KB
 * held.leave(counted);
 */
export class HeldBytes {
  /** Bytes held now. */
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

  /** A stream begins to count. */
  join(): void {
    this.#open++;
    this.#resize();
  }

  /** A stream counting `held` bytes counts no more. */
  leave(held: number): void {
    this.total -= held;
    this.#open--;
    this.#resize();
  }

  /** How many more bytes a stream counting `held` may hold: up to its share, or what the ceiling leaves. */
  room(held: number): number {
    return Math.max(this.#share - held, this.#ceiling - this.total);
  }

  /** A stream's count goes from `from` to `to` bytes; returns `to`. */
  move(from: number, to: number): number {
    this.total += to - from;
    return to;
  }

  #resize(): void {
    const open = Math.max(1, this.#open);
    // The shares together take at most half the budget: were it all shares (past 512 streams at 128M), no stream could
    // ever pass its own, and a client that reads would be cut for a burst while the total held next to nothing.
    this.#share = Math.min(STREAM_SHARE, this.limit / (2 * open));
    this.#ceiling = this.limit - (open - 1) * this.#share;
  }
}
