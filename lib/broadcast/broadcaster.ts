/**
 * One topic's fan-out: `publish(item)` sends the item through the backplane, and each instance hands it to its
 * own subscribers as an SSE event with an id. A subscriber that comes back with the id of the last event it got
 * is sent what it missed, then the live events, with no gap and no duplicate between the two; when what it
 * missed is no longer held, it is told so first (`event: reset`). A subscriber is a response stream: its own
 * byte budget and overflow policy decide what a slow client costs, so it never slows the others.
 */
import { tracing } from '../tracing/tracing';
import { deliverTraced, publishTraced } from '../tracing/broadcast-spans';
import { Observable } from 'rxjs/internal/Observable';
import type { Subscriber, TeardownLogic } from 'rxjs';
import { logging } from '../logging/logger';
import { multi, type Multi } from '../streaming/multi';
import type { SseEvent } from '../streaming/sse-event';
import type { Backplane, Outgoing } from './backplane';
import { compareIds } from './event-ids';
import { EventRing, type Retention } from './event-ring';
import { isEnd, resetNotice, sharedSseEvent, toSseEvent, type BroadcastEvent } from './topic-events';

const log = logging.getLogger('rxrest.streaming');

export interface BroadcasterOptions {
  /**
   * Events this topic keeps for subscribers that resume (default `framework.broadcast.retention.max-events`,
   * 10,000; 0 keeps none in memory).
   */
  readonly replay?: number;
}

export interface SubscribeOptions {
  /**
   * The id of the last event the client has (the `Last-Event-ID` header an `EventSource` sends when it
   * reconnects): the events after it are sent first, then the live ones. When those are no longer all held,
   * an `event: reset` comes first, then every event still held.
   */
  readonly lastEventId?: string;
}

export interface PublishOptions {
  /**
   * Makes a retried publish harmless: the same key (e.g. the request's `Idempotency-Key`) within the topic's
   * retention stores the event once and answers the first id again.
   */
  readonly idempotencyKey?: string;
}

/** What the hooks are told: the topic and how many subscribers it has now. */
export interface SubscriptionChange {
  readonly topic: string;
  readonly subscribers: number;
}

/** What a topic needs of the process it lives in: the current backplane and retention. */
export interface TopicHost {
  readonly backplane: Backplane;
  readonly retention: Retention;
}

/** Subscribes from the first event held, not from now (a resumable stream read from its start). */
export const FROM_START: unique symbol = Symbol('from start');

/**
 * A subscriber of this instance. `waiting` holds live events while what it missed is read from the backplane;
 * then, until the live events pass `after` (the last id it was sent from that history), those at or before it are
 * skipped: this instance's live reading may be behind what the history read gave.
 */
class Joined {
  waiting: SseEvent[] | undefined;
  after: string | undefined;

  constructor(readonly subscriber: Subscriber<SseEvent>) {}

  /** Takes a live event. False once the subscriber is closed. */
  take(event: SseEvent): boolean {
    if (this.waiting) {
      this.waiting.push(event);
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

/** One topic's fan-out. Get it with {@link broadcast}. */
export class Broadcaster<T> {
  readonly #joined = new Set<Joined>();
  readonly #ring = new EventRing();
  readonly #replay: number | undefined;
  readonly #host: TopicHost;
  readonly #onSubscribe: ((change: SubscriptionChange) => void)[] = [];
  readonly #onUnsubscribe: ((change: SubscriptionChange) => void)[] = [];

  /** @internal made by `broadcast()`. */
  constructor(
    readonly topic: string,
    options: BroadcasterOptions,
    host: TopicHost,
  ) {
    const replay = options.replay;
    if (replay !== undefined && (!Number.isInteger(replay) || replay < 0))
      throw new RangeError(`broadcast('${topic}'): replay must be a whole number of events, got ${replay}`);
    this.#replay = replay;
    this.#host = host;
  }

  /** Subscribers on this instance now. */
  get subscribers(): number {
    return this.#joined.size;
  }

  /** How much history this topic keeps: its own `replay`, or the application's retention. */
  get retention(): Retention {
    const retention = this.#host.retention;
    return this.#replay === undefined ? retention : { ...retention, maxEvents: this.#replay };
  }

  /**
   * Sends `item` to every subscriber of the topic, on every instance; resolves with the event's id once the
   * backplane has it (stored, on `redis-streams`). Rejects with a `ServiceUnavailableException` (503, with
   * `Retry-After`) when it cannot be stored: nothing is sent then, and a retry with the same
   * `idempotencyKey` cannot send it twice. Not awaiting it is safe: a failure is logged, never unhandled.
   *
   * @example
   * \@POST @ResponseStatus(202)
   * async post(message: ChatMessage): Promise<void> { await chat.publish(message); }
   */
  publish(item: T, options: PublishOptions = {}): Promise<string> {
    return this.send({ data: item, idempotencyKey: options.idempotencyKey });
  }

  /** @internal publishes an event of any kind (the end of a resumable stream). */
  send(outgoing: Outgoing): Promise<string> {
    const traced = tracing();
    if (traced) return publishTraced(traced, this.topic, outgoing, (traceable) => this.#publish(traceable));
    return this.#publish(outgoing);
  }

  #publish(outgoing: Outgoing): Promise<string> {
    const published = this.#host.backplane.publish(this.topic, outgoing, this.retention);
    published.catch((error: unknown) =>
      log.debug(
        `broadcast('${this.topic}'): publishing failed: ${error instanceof Error ? error.message : String(error)}`,
      ),
    );
    return published;
  }

  /**
   * The topic's events as SSE events with ids, for a handler to return: from now on, or after `lastEventId`.
   * Unsubscribed when the client goes away; completes after an end event (a resumable stream that is over).
   *
   * @example
   * \@GET @Path('stream') @Produces('text/event-stream')
   * stream(@HeaderParam('Last-Event-ID') lastEventId?: string): Multi<SseEvent> {
   *   return chat.subscribe({ lastEventId });
   * }
   */
  subscribe(options: SubscribeOptions = {}): Multi<SseEvent> {
    return this.join(options.lastEventId);
  }

  /** @internal `subscribe` from an id, from now (undefined) or from the first event held. */
  join(after: string | undefined | typeof FROM_START): Multi<SseEvent> {
    return multi(new Observable<SseEvent>((subscriber) => this.#join(new Joined(subscriber), after)));
  }

  /** Called with the new count each time a subscriber joins. */
  onSubscribe(hook: (change: SubscriptionChange) => void): this {
    this.#onSubscribe.push(hook);
    return this;
  }

  /** Called with the new count each time a subscriber leaves (a client gone, a stream ended). */
  onUnsubscribe(hook: (change: SubscriptionChange) => void): this {
    this.#onUnsubscribe.push(hook);
    return this;
  }

  /** @internal hands an event the backplane delivered to this instance's subscribers, and keeps it. */
  deliver(event: BroadcastEvent): void {
    const sse = toSseEvent(event);
    this.#ring.push(sse, this.retention);
    const traced = event.trace === undefined ? undefined : tracing();
    // A copy: a subscriber that ends (an end event, its policy) leaves the set while we go through it.
    const take = () => {
      for (const joined of [...this.#joined]) joined.take(sse);
    };
    if (traced) deliverTraced(traced, this.topic, event, this.#joined.size, take);
    else take();
  }

  /** @internal events may have been lost for this instance's subscribers: they are told, and the ring starts again. */
  reset(oldest: string | undefined): void {
    this.#ring.clear();
    const notice = resetNotice(oldest);
    for (const joined of [...this.#joined]) joined.take(notice);
  }

  /** @internal the newest event this process holds (in memory, the topic's last). */
  get newest(): SseEvent | undefined {
    return this.#ring.newest;
  }

  /** @internal whether this process holds nothing of the topic: no subscriber, no event (once those past their age are dropped). */
  holdsNothing(): boolean {
    this.#ring.trim(this.retention);
    return this.#ring.size === 0 && this.#joined.size === 0;
  }

  #join(joined: Joined, after: string | undefined | typeof FROM_START): TeardownLogic {
    const { backplane } = this.#host;
    const held =
      after === undefined
        ? []
        : after === FROM_START
          ? backplane.durable
            ? undefined
            : this.#ring.all()
          : this.#ring.after(after);
    if (held) {
      // Replay and joining happen in one synchronous step: no event can fall between them.
      for (const event of held) if (!joined.send(event)) return;
    } else if (!backplane.durable) {
      if (!joined.send(resetNotice(this.#ring.oldest))) return;
      for (const event of this.#ring.all()) if (!joined.send(event)) return;
    } else {
      // Joined first: the live reading of the topic is placed before the history is read (Redis answers in
      // order), so the history reaches at least as far as where live events start, and nothing falls between.
      joined.waiting = [];
      this.#add(joined);
      this.#readMissed(joined, after === FROM_START ? undefined : after);
      return () => this.#remove(joined);
    }
    this.#add(joined);
    return () => this.#remove(joined);
  }

  /** Sends what the durable history says was missed, then the live events past the last one it sent. */
  #readMissed(joined: Joined, lastEventId: string | undefined): void {
    this.#host.backplane.missed(this.topic, lastEventId).then(
      (missed) => {
        if (joined.subscriber.closed) return;
        let last = missed.reset ? undefined : lastEventId;
        if (missed.reset && !joined.send(resetNotice(missed.reset.oldest))) return;
        for (const event of missed.events) {
          if (!joined.send(sharedSseEvent(event))) return;
          last = event.id;
        }
        const waiting = joined.waiting ?? [];
        joined.waiting = undefined;
        joined.after = last;
        for (const event of waiting) if (!joined.take(event)) return;
      },
      (error: unknown) => joined.subscriber.error(error),
    );
  }

  #add(joined: Joined): void {
    this.#joined.add(joined);
    if (this.#joined.size === 1) this.#host.backplane.watch(this.topic, true);
    this.#tell(this.#onSubscribe);
  }

  #remove(joined: Joined): void {
    if (!this.#joined.delete(joined)) return;
    if (this.#joined.size === 0) {
      this.#host.backplane.watch(this.topic, false);
      // The ring of a durable topic is a cache of what this instance read while it had subscribers: once it
      // stops reading the topic, the ring would have a hole after its newest event.
      if (this.#host.backplane.durable) this.#ring.clear();
    }
    this.#tell(this.#onUnsubscribe);
  }

  #tell(hooks: readonly ((change: SubscriptionChange) => void)[]): void {
    for (const hook of hooks) {
      try {
        hook({ topic: this.topic, subscribers: this.#joined.size });
      } catch (error) {
        log.error(
          `broadcast('${this.topic}'): a subscription hook threw: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
    }
  }
}
