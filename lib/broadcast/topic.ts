/** One topic on this instance: its subscribers (a slow one never slows the others) and the history kept here. */
import { Observable } from 'rxjs/internal/Observable';
import type { TeardownLogic } from 'rxjs';
import { deliverTraced } from './broadcast-spans';
import { tracing } from '../tracing/tracing';
import { logging } from '../logging/logger';
import type { Multi } from '../streaming/multi';
import type { SseEvent } from '../streaming/sse-event';
import { pacedMulti, type StreamPace } from '../streaming/stream-pace';
import type { Backplane } from './backplane';
import { EventRing, type Retention } from './event-ring';
import type { HistoryBudget, HistoryHolder } from './history-budget';
import { replayHistory, replayRing } from './topic-replay';
import { Joined, type SubscriptionChange, type SubscriptionHooks } from './joined';
import { TickDelivery } from './tick-delivery';
import type { UnreadTopic } from './unread-topics';
import { resetNotice, toSseEvent, type BroadcastEvent } from './topic-events';
import { messageOf } from '../errors/message-of';

const log = logging.getLogger('rxrest.streaming');

/** Subscribes from the first event held, not from now (a resumable stream read from its start). */
export const FROM_START: unique symbol = Symbol('from start');

/** What a topic needs of the application it lives in. */
export interface TopicHost {
  readonly backplane: Backplane;
  /** A first guess at the size of an event of history read from Redis. */
  readonly maxEventSize: number;
  readonly history: HistoryBudget;
  /** The topic holds nothing now: no subscriber on this instance, no event kept in this process. */
  idle(topic: Topic): void;
  /** The topic holds something still, and whether (and since when) nobody reads it may have changed. */
  changed(topic: Topic): void;
}

export class Topic implements HistoryHolder, UnreadTopic {
  /** Subscribers handed each event as it comes (any Observable subscriber; a stream still catching up). */
  readonly #joined = new Set<Joined>();
  readonly #ticks = new TickDelivery();
  readonly #ring: EventRing;
  readonly #host: TopicHost;
  /** Subscribers still being sent the ring's history page by page: not joined yet, but the topic is in use. */
  readonly #replaying = new Set<Joined>();
  /** A resumable stream's topic: the other instances are told whether this one reads it. */
  presence = false;

  constructor(
    readonly name: string,
    /** The application's, with its own count of events kept (the `replay` of the broadcaster that made it). */
    readonly retention: Retention,
    host: TopicHost,
    /** Its place among the topics its host made (which of two as old gives way first). */
    readonly made = 0,
  ) {
    this.#host = host;
    this.#ring = new EventRing(host.history, this);
  }

  get subscribers(): number {
    return this.#joined.size + this.#ticks.size;
  }

  get newest(): SseEvent | undefined {
    return this.#ring.newest;
  }

  deliver(event: BroadcastEvent): void {
    const sse = toSseEvent(event);
    const bytes = event.bytes ?? 0;
    this.#ring.push(sse, bytes, this.retention);
    const traced = event.trace === undefined ? undefined : tracing();
    if (traced) deliverTraced(traced, this.name, event, this.subscribers, () => this.#sendNow(sse, bytes));
    else {
      this.#ticks.queue(sse);
      this.#takeNow(sse, bytes);
    }
    this.#settle();
  }

  /** To every subscriber at once, after what this tick queued (a traced event, a reset notice). */
  #sendNow(sse: SseEvent, bytes?: number): void {
    this.#takeNow(sse, bytes);
    this.#ticks.sendNow(sse, bytes);
  }

  #takeNow(sse: SseEvent, bytes?: number): void {
    if (this.#joined.size === 0) return;
    // A copy: a subscriber that ends (an end event, its policy) leaves the set while we go through it.
    for (const joined of [...this.#joined]) joined.take(sse, bytes);
  }

  /** Events may have been lost for this instance's subscribers: they are told, and the ring starts again. */
  reset(oldest: string | undefined): void {
    this.#ring.clear();
    this.#sendNow(resetNotice(oldest));
    this.#settle();
  }

  /** The application keeps more history than its budget. */
  dropOldest(): void {
    this.#ring.dropOldest();
    this.#settle();
  }

  get unread(): boolean {
    return this.subscribers === 0 && this.#replaying.size === 0;
  }

  /** When its newest event was kept, `undefined` while a subscriber reads it (or it holds none). */
  get unreadSince(): number | undefined {
    return this.unread ? this.#ring.newestAt : undefined;
  }

  /** Drops the history of a topic nobody reads here, which lets it go (to make room for another). */
  forget(): void {
    if (this.unreadSince === undefined) return;
    this.#ring.clear();
    this.#settle();
  }

  /** Whether this process holds nothing of the topic once the events past their age are dropped. */
  holdsNothing(): boolean {
    this.#ring.trim(this.retention);
    return this.#ring.size === 0 && this.unread;
  }

  /** The topic's events from now (undefined), after an id, or from the first held. */
  join(after: string | undefined | typeof FROM_START, hooks?: SubscriptionHooks): Multi<SseEvent> {
    return pacedMulti(
      (pace) =>
        new Observable<SseEvent>((subscriber) =>
          this.#join(new Joined(subscriber, hooks, this.retention.maxBytes, this.#leave, pace), after, pace),
        ),
    );
  }

  /** The teardown of every subscription, joined or still replaying: one function. */
  readonly #leave = (joined: Joined): void => {
    this.#replaying.delete(joined);
    this.#remove(joined);
  };

  #join(joined: Joined, after: string | undefined | typeof FROM_START, pace: StreamPace | undefined): TeardownLogic {
    const { backplane } = this.#host;
    if (after === undefined) {
      this.#add(joined);
      return joined;
    }
    if (!backplane.durable) {
      this.#replaying.add(joined);
      this.#host.changed(this);
      // The last page and joining happen in one synchronous step: no event can fall between them.
      replayRing(this.#ring, joined, after, pace, () => {
        this.#replaying.delete(joined);
        this.#add(joined);
      });
      return joined;
    }
    // Joined first: the live reading of the topic is placed before the history is read (Redis answers in order),
    // so the history reaches at least as far as where live events start, and nothing falls between.
    joined.waiting = [];
    this.#add(joined);
    const start = after === FROM_START ? undefined : after;
    replayHistory(backplane, this.name, joined, start, pace, this.#host.maxEventSize).catch((error: unknown) =>
      joined.subscriber.error(error),
    );
    return joined;
  }

  #add(joined: Joined): void {
    if (joined.subscriber.closed) return this.#settle();
    if (joined.takesTicks) this.#ticks.add(joined);
    else this.#joined.add(joined);
    if (this.subscribers === 1) this.#host.backplane.watch(this.name, true, this.presence);
    this.#host.changed(this);
    this.#tell(joined.hooks?.subscribed);
  }

  #remove(joined: Joined): void {
    if (!this.#joined.delete(joined) && !this.#ticks.delete(joined)) return this.#settle();
    if (this.subscribers === 0) {
      this.#host.backplane.watch(this.name, false, this.presence);
      // A durable topic's ring caches what was read while it had subscribers: unread, it would have a hole.
      if (this.#host.backplane.durable) this.#ring.clear();
    }
    this.#tell(joined.hooks?.unsubscribed);
    this.#settle();
  }

  #settle(): void {
    if (this.#ring.size === 0 && this.unread) this.#host.idle(this);
    else this.#host.changed(this);
  }

  #tell(hooks: readonly ((change: SubscriptionChange) => void)[] | undefined): void {
    for (const hook of hooks ?? []) {
      try {
        hook({ topic: this.name, subscribers: this.subscribers });
      } catch (error) {
        log.error(`broadcast('${this.name}'): a subscription hook threw: ${messageOf(error)}`);
      }
    }
  }
}
