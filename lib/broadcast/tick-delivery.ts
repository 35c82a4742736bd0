/**
 * The subscribers that take a topic's events a tick at a time, framed once for all and handed on in one loop, not
 * through every subscriber's pump once per event; each still applies its own budget (`StreamOutput.pushShared`).
 */
import { SharedFrames } from '../streaming/shared-frames';
import type { SseEvent } from '../streaming/sse-event';
import type { Joined } from './joined';
import { isEnd } from './topic-events';
import { timersServeAllRequests } from '../runtime/runtime-name';
import { nextMacrotask } from '../runtime/timers';

/** Where a timer may not serve every request (workerd), a tick's end may never come: each event goes at once. */
const TICKS = timersServeAllRequests();

export class TickDelivery {
  readonly #members = new Set<Joined>();
  #events: SseEvent[] | undefined;
  /** An event of the tick ends the topic: its subscribers complete after it, so each takes the tick event by event. */
  #ends = false;

  get size(): number {
    return this.#members.size;
  }

  /** Adds a subscriber that takes the events queued from now on. */
  add(joined: Joined): void {
    joined.from = this.#events?.length ?? 0;
    this.#members.add(joined);
  }

  delete(joined: Joined): boolean {
    return this.#members.delete(joined);
  }

  queue(event: SseEvent): void {
    if (this.#members.size === 0) return;
    if ((this.#events ??= []).push(event) === 1 && TICKS) nextMacrotask(() => this.flush());
    if (isEnd(event)) this.#ends = true;
    if (!TICKS) this.flush();
  }

  flush(): void {
    const events = this.#events;
    if (events === undefined) return;
    this.#events = undefined;
    const ends = this.#ends;
    this.#ends = false;
    const tick = new SharedFrames(events);
    // A copy: a subscriber that fails (its overflow policy) leaves while we go through them.
    for (const joined of [...this.#members]) {
      const from = joined.from;
      joined.from = 0;
      if (from === 0 && !ends) joined.pace!.takeShared!(tick);
      else for (let i = from; i < events.length; i++) if (!joined.send(events[i]!)) break;
    }
  }

  /** Sends `event` to every subscriber now, after what this tick queued (a traced event, a reset notice). */
  sendNow(event: SseEvent, bytes?: number): void {
    this.flush();
    for (const joined of [...this.#members]) joined.take(event, bytes);
  }
}
