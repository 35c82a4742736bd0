/**
 * `framework.broadcast.retention.max-total-bytes`: past it, the application's oldest events go first, whatever their
 * topic. The rings tell it of every event they keep and drop.
 */

export interface HistoryHolder {
  dropOldest(): void;
}

export interface BudgetEntry {
  readonly holder: HistoryHolder;
  readonly bytes: number;
  /** Set when its ring dropped it, so the queue passes over it. */
  dropped: boolean;
}

export class HistoryBudget {
  #queue: BudgetEntry[] = [];
  #head = 0;
  #bytes = 0;
  #live = 0;

  constructor(readonly maxBytes: number) {}

  get bytes(): number {
    return this.#bytes;
  }

  /** Counts an event its holder keeps, then drops the application's oldest while over (this one too, if need be). */
  kept(entry: BudgetEntry): void {
    this.#queue.push(entry);
    this.#bytes += entry.bytes;
    this.#live++;
    while (this.#bytes > this.maxBytes && this.#head < this.#queue.length) {
      const oldest = this.#queue[this.#head++]!;
      // Every event of a holder kept before this one came earlier in the queue: a live oldest is its holder's oldest.
      if (!oldest.dropped) oldest.holder.dropOldest();
    }
    this.#compact();
  }

  dropped(entry: BudgetEntry): void {
    if (entry.dropped) return;
    entry.dropped = true;
    this.#bytes -= entry.bytes;
    this.#live--;
  }

  /** Passed-over and dropped entries leave the queue once they outnumber the live ones, so it stays proportionate. */
  #compact(): void {
    if (this.#queue.length - this.#live < 1024 + this.#live) return;
    this.#queue = this.#queue.slice(this.#head).filter((entry) => !entry.dropped);
    this.#head = 0;
  }
}
