/** A topic as the application's code holds it: the topic lives in the application, so one serves every application. */
import { publishTraced } from './broadcast-spans';
import { tracing } from '../tracing/tracing';
import { logging } from '../logging/logger';
import type { Multi } from '../streaming/multi';
import type { SseEvent } from '../streaming/sse-event';
import { currentTopics } from './application-scope';
import { malformedEventId, type Outgoing } from './backplane';
import type { BroadcastTopics } from './broadcast-topics';
import type { Retention } from './event-ring';
import type { SubscriptionChange, SubscriptionHooks } from './joined';
import { messageOf } from '../errors/message-of';

export type { SubscriptionChange } from './joined';

const log = logging.getLogger('rxrest.streaming');

export interface BroadcasterOptions {
  /**
   * Events this topic keeps for subscribers that resume (default `framework.broadcast.retention.max-events`,
   * 10,000; 0 keeps none in memory). `framework.broadcast.retention.max-bytes` and `.max-age` bound it too.
   */
  readonly replay?: number;
}

export interface SubscribeOptions {
  /**
   * The id of the last event the client has (the `Last-Event-ID` header an `EventSource` sends when it
   * reconnects): the events after it are sent first, then the live ones. When those are no longer all held,
   * an `event: reset` comes first, then every event still held. An id of another form is refused (400 problem).
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

/** A topic of the application. Get it with {@link broadcast}, or `app.broadcast(topic)`. */
export class Broadcaster<T> {
  readonly #replay: number | undefined;
  readonly #topics: BroadcastTopics | undefined;
  readonly #hooks: SubscriptionHooks = { subscribed: [], unsubscribed: [] };

  /** @internal made by `broadcast()` (the application in use) or `app.broadcast()` (that one). */
  constructor(
    readonly topic: string,
    options: BroadcasterOptions = {},
    topics?: BroadcastTopics,
  ) {
    const replay = options.replay;
    if (replay !== undefined && (!Number.isInteger(replay) || replay < 0))
      throw new RangeError(`broadcast('${topic}'): replay must be a whole number of events, got ${replay}`);
    this.#replay = replay;
    this.#topics = topics;
  }

  /** Subscribers of the topic on this instance now. */
  get subscribers(): number {
    return this.#application().find(this.topic)?.subscribers ?? 0;
  }

  /** How much history this topic keeps: its own `replay`, or the application's retention. */
  get retention(): Retention {
    return this.#application().retentionOf(this.#replay);
  }

  /**
   * Sends `item` to every subscriber of the topic, on every instance; resolves with the event's id once the
   * backplane has it (stored, on `redis-streams`). Rejects with a 413 problem when the item's JSON passes
   * `framework.broadcast.max-event-size`, with a 503 problem (`Retry-After`) when it cannot be stored or this
   * instance holds `framework.broadcast.max-topics` already: nothing is sent then, and a retry with the same
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
  send(outgoing: Omit<Outgoing, 'json' | 'bytes'>): Promise<string> {
    let published: Promise<string>;
    try {
      const topics = this.#application();
      const publish = (traceable: typeof outgoing) => topics.publish(this.topic, traceable, this.#replay);
      const traced = tracing();
      published = traced ? publishTraced(traced, this.topic, outgoing, publish) : publish(outgoing);
    } catch (error) {
      published = Promise.reject(error);
    }
    published.catch((error: unknown) =>
      log.debug(`broadcast('${this.topic}'): publishing failed: ${messageOf(error)}`),
    );
    return published;
  }

  /**
   * The topic's events as SSE events with ids, for a handler to return: from now on, or after `lastEventId`.
   * Unsubscribed when the client goes away; completes after an end event (a resumable stream that is over).
   * Throws a 400 problem for a `lastEventId` that is not an event id, and a 503 problem when this instance holds
   * `framework.broadcast.max-topics` already.
   *
   * @example
   * \@GET @Path('stream') @Produces('text/event-stream')
   * stream(@HeaderParam('Last-Event-ID') lastEventId?: string): Multi<SseEvent> {
   *   return chat.subscribe({ lastEventId });
   * }
   */
  subscribe(options: SubscribeOptions = {}): Multi<SseEvent> {
    const topics = this.#application();
    const { lastEventId } = options;
    if (lastEventId !== undefined && !topics.backplane.isEventId(lastEventId)) throw malformedEventId(this.topic);
    return topics.topic(this.topic, this.#replay).join(lastEventId, this.#hooks);
  }

  /** Called with the topic's new count on this instance each time a subscriber joins through this broadcaster. */
  onSubscribe(hook: (change: SubscriptionChange) => void): this {
    this.#hooks.subscribed.push(hook);
    return this;
  }

  /** Called with the new count each time a subscriber that joined through this broadcaster leaves. */
  onUnsubscribe(hook: (change: SubscriptionChange) => void): this {
    this.#hooks.unsubscribed.push(hook);
    return this;
  }

  #application(): BroadcastTopics {
    return this.#topics ?? currentTopics(`broadcast('${this.topic}')`);
  }
}
