/** A subscriber of a topic on this instance, as the topic and its replay hand it events. */
import type { Subscriber, Unsubscribable } from 'rxjs';
import type { SseEvent } from '../streaming/sse-event';
import type { StreamPace } from '../streaming/stream-pace';
import { compareIds } from './event-ids';
import { isEnd } from './topic-events';

/** What the hooks are told: the topic and how many subscribers it has now on this instance. */
export interface SubscriptionChange {
  readonly topic: string;
  readonly subscribers: number;
}

/** The hooks of the broadcaster a subscriber joined through. */
export interface SubscriptionHooks {
  readonly subscribed: ((change: SubscriptionChange) => void)[];
  readonly unsubscribed: ((change: SubscriptionChange) => void)[];
}

/**
 * `waiting` holds live events while what it missed is read from a durable history (dropped, to be read from it, past
 * `maxWaiting`); then live events up to `after` (the last id the history gave) are skipped.
 */
export class Joined implements Unsubscribable {
  waiting: SseEvent[] | undefined;
  waitingBytes = 0;
  /** How many times `waiting` was dropped for its weight. */
  dropped = 0;
  after: string | undefined;
  /** While it takes ticks: how many events of the tick being queued came before it joined (not for it). */
  from = 0;

  constructor(
    readonly subscriber: Subscriber<SseEvent>,
    readonly hooks: SubscriptionHooks | undefined,
    readonly maxWaiting: number,
    /** The topic's one function that lets a subscriber go (shared: no closure each). */
    readonly leave: (joined: Joined) => void,
    readonly pace?: StreamPace,
  ) {}

  /** Whether it takes whole ticks framed once for all (see `TickDelivery`): a stream with nothing to catch up. */
  get takesTicks(): boolean {
    return this.pace?.takeShared !== undefined && this.waiting === undefined && this.after === undefined;
  }

  unsubscribe(): void {
    this.leave(this);
  }

  /** Takes a live event. False once the subscriber is closed. */
  take(event: SseEvent, bytes = 0): boolean {
    if (this.waiting) {
      this.waiting.push(event);
      this.waitingBytes += bytes;
      if (this.waitingBytes > this.maxWaiting) {
        this.waiting = [];
        this.waitingBytes = 0;
        this.dropped++;
      }
      return true;
    }
    if (this.after !== undefined && event.id !== undefined) {
      if (compareIds(event.id, this.after) <= 0) return true;
      this.after = undefined;
    }
    return this.send(event);
  }

  /** Sends one event; an end event completes the subscriber. False once it is closed. */
  send(event: SseEvent): boolean {
    this.subscriber.next(event);
    if (isEnd(event)) this.subscriber.complete();
    return !this.subscriber.closed;
  }
}
