/** One end-of-tick callback for every stream of an application that has text waiting, instead of one each. */
import { nextMacrotask } from '../runtime/timers';

/** A writer whose batch waits for the end of the tick. */
export interface TickFlushed {
  flushTick(): void;
}

/** The writers that batched text this tick, flushed in order by one callback (not one per stream of a broadcast). */
export class TickFlush {
  #due: TickFlushed[] = [];

  schedule(writer: TickFlushed): void {
    if (this.#due.push(writer) === 1) nextMacrotask(() => this.#flush());
  }

  #flush(): void {
    const due = this.#due;
    this.#due = [];
    for (const writer of due) writer.flushTick();
  }
}
