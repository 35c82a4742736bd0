/** The last events of a topic kept in this process, by count, bytes and age, for subscribers that resume. */
import type { SseEvent } from '../streaming/sse-event';
import type { BudgetEntry, HistoryBudget, HistoryHolder } from './history-budget';

/** How much history a topic keeps (0 events or bytes: none; 0 ms: no age limit). */
export interface Retention {
  readonly maxEvents: number;
  readonly maxAgeMs: number;
  readonly maxBytes: number;
}

export interface KeptEvent {
  readonly event: SseEvent;
  readonly at: number;
  readonly bytes: number;
}

/** A kept event with its place in the application's history budget. */
type Held = KeptEvent & { entry?: BudgetEntry };

/** Whether `retention` keeps any event at all. */
export function keeps(retention: Retention): boolean {
  return retention.maxEvents > 0 && retention.maxBytes > 0;
}

/** Oldest first. Lookups go from the newest end: a client that resumes has usually missed only the last few. */
export class EventRing {
  #kept: Held[] = [];
  #bytes = 0;
  readonly #budget: HistoryBudget | undefined;
  readonly #holder: HistoryHolder | undefined;

  /** A ring whose events count against the application's `budget` too, on behalf of `holder` (its topic). */
  constructor(budget?: HistoryBudget, holder?: HistoryHolder) {
    this.#budget = budget;
    this.#holder = holder;
  }

  get size(): number {
    return this.#kept.length;
  }

  get oldest(): string | undefined {
    return this.#kept[0]?.event.id;
  }

  get newest(): SseEvent | undefined {
    return this.#kept.at(-1)?.event;
  }

  get newestAt(): number | undefined {
    return this.#kept.at(-1)?.at;
  }

  /** Keeps `event` (of `bytes`), then drops the oldest past the count, the bytes or the age of `retention`. */
  push(event: SseEvent, bytes: number, retention: Retention, now = Date.now()): void {
    if (!keeps(retention)) return;
    const held: Held = { event, at: now, bytes };
    this.#kept.push(held);
    this.#bytes += bytes;
    let over = 0;
    let dropped = 0;
    // The newest is dropped too when it alone passes the bytes: a history never holds more than its budget.
    while (
      over < this.#kept.length &&
      (this.#kept.length - over > retention.maxEvents || this.#bytes - dropped > retention.maxBytes)
    )
      dropped += this.#kept[over++]!.bytes;
    if (over > 0) this.#drop(over);
    this.trim(retention, now);
    if (this.#budget && this.#holder && this.#kept.at(-1) === held) {
      held.entry = { holder: this.#holder, bytes, dropped: false };
      this.#budget.kept(held.entry);
    }
  }

  dropOldest(): void {
    if (this.#kept.length > 0) this.#drop(1);
  }

  trim(retention: Retention, now = Date.now()): void {
    if (retention.maxAgeMs <= 0) return;
    const cutoff = now - retention.maxAgeMs;
    let old = 0;
    while (old < this.#kept.length && this.#kept[old]!.at < cutoff) old++;
    if (old > 0) this.#drop(old);
  }

  /** The events after the one with this id; undefined when that one is not held (never was, or was dropped). */
  after(id: string): KeptEvent[] | undefined {
    for (let at = this.#kept.length - 1; at >= 0; at--)
      if (this.#kept[at]!.event.id === id) return this.#kept.slice(at + 1);
    return undefined;
  }

  all(): KeptEvent[] {
    return [...this.#kept];
  }

  clear(): void {
    this.#drop(this.#kept.length);
  }

  #drop(count: number): void {
    for (const { bytes, entry } of this.#kept.splice(0, count)) {
      this.#bytes -= bytes;
      if (entry) this.#budget!.dropped(entry);
    }
  }
}
