/**
 * The bytes of history one application keeps in this process across all its topics
 * (`framework.broadcast.retention.max-total-bytes`): past it, the oldest events of the application are dropped first,
 * whatever their topic, so that many topics of a full history each never add up to more. It knows events only as
 * the topic that holds them and their size; the rings tell it of every event they keep and drop.
 */

/** What holds an event: it drops its oldest on request (and lets go of itself when that leaves it empty). */
export interface HistoryHolder {
  dropOldest(): void;
}

/** One kept event as the budget sees it, in the order events were kept across the application. */
export interface BudgetEntry {
  readonly holder: HistoryHolder;
  readonly bytes: number;
  /** Set when its ring dropped it (count, bytes, age, a reset), so the queue passes over it. */
  dropped: boolean;
}

export class HistoryBudget {
  #queue: BudgetEntry[] = [];
  #head = 0;
  #bytes = 0;
  #live = 0;

  constructor(readonly maxBytes: number) {}

  /** Bytes held now across the application's topics. */
  get bytes(): number {
    return this.#bytes;
  }

  /**
   * Counts an event its holder keeps (its newest), then drops the application's oldest while over the budget (the
   * entry may be this one when it alone passes the budget: its holder tells `dropped` of it as of any).
   */
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

  /** Uncounts an event its ring let go of. */
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
