/** The last events of a topic kept in this process, by count and by age, for subscribers that resume. */
import type { SseEvent } from '../streaming/sse-event';

/** How much history a topic keeps. */
export interface Retention {
  /** Events kept at most (0 keeps none). */
  readonly maxEvents: number;
  /** Milliseconds an event is kept at most (0: no age limit). */
  readonly maxAgeMs: number;
}

/**
 * The events in the order they were delivered, oldest first. Lookups go from the newest end: a client that
 * resumes has usually missed only the last few.
 */
export class EventRing {
  #events: SseEvent[] = [];
  #times: number[] = [];

  get size(): number {
    return this.#events.length;
  }

  /** The id of the oldest event held, if any. */
  get oldest(): string | undefined {
    return this.#events[0]?.id;
  }

  get newest(): SseEvent | undefined {
    return this.#events.at(-1);
  }

  push(event: SseEvent, retention: Retention, now = Date.now()): void {
    if (retention.maxEvents <= 0) return;
    this.#events.push(event);
    this.#times.push(now);
    const over = this.#events.length - retention.maxEvents;
    if (over > 0) this.#drop(over);
    this.trim(retention, now);
  }

  /** Drops the events older than the age limit. */
  trim(retention: Retention, now = Date.now()): void {
    if (retention.maxAgeMs <= 0) return;
    const cutoff = now - retention.maxAgeMs;
    let old = 0;
    while (old < this.#times.length && this.#times[old]! < cutoff) old++;
    if (old > 0) this.#drop(old);
  }

  /** The event with this id, if held. */
  get(id: string): SseEvent | undefined {
    const at = this.#indexOf(id);
    return at < 0 ? undefined : this.#events[at];
  }

  /** The events after the one with this id; undefined when that one is not held (never was, or was dropped). */
  after(id: string): SseEvent[] | undefined {
    const at = this.#indexOf(id);
    return at < 0 ? undefined : this.#events.slice(at + 1);
  }

  all(): SseEvent[] {
    return [...this.#events];
  }

  clear(): void {
    this.#events = [];
    this.#times = [];
  }

  #indexOf(id: string): number {
    for (let at = this.#events.length - 1; at >= 0; at--) if (this.#events[at]!.id === id) return at;
    return -1;
  }

  #drop(count: number): void {
    this.#events.splice(0, count);
    this.#times.splice(0, count);
  }
}
